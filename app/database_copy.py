"""Copy a whole instance from one database to another — typically the embedded SQLite file to
PostgreSQL (``python -m app.cli copy-database --from URL --to URL``).

Both databases are first brought to the newest migration, so they have the same tables. Every
table the migrations create is copied (players, rooms, seats, matches, action logs, chat, ratings,
match results, and whatever later migrations add), parents before children, rows in key order,
ids unchanged, in one transaction on the target: a failure leaves the target empty. The source is
read in one snapshot. The target must be empty (a copy never merges). On PostgreSQL the id
sequences are moved past the copied ids so new rows do not collide. Stop the server on the source
first: rows written during the copy would not be in it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlalchemy import Integer, MetaData, Table, func, select, text
from sqlalchemy.engine import Connection, Engine

from app.db import make_engine, migrate

BATCH_ROWS = 1000
# Alembic's own bookkeeping: each side already has it from ``migrate``.
NOT_COPIED = frozenset({"alembic_version"})


class CopyRefused(Exception):
    """The copy cannot start (target not empty, unknown tables); nothing was written."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        lines = [f"{name:>20}  {count}" for name, count in self.rows.items()]
        return "\n".join(lines + [f"{'total':>20}  {sum(self.rows.values())}"])


def copy_database(source_url: str, target_url: str, batch_rows: int = BATCH_ROWS) -> CopyReport:
    if source_url == target_url:
        raise CopyRefused("the source and the target are the same database")
    migrate(source_url)
    migrate(target_url)
    source, target = make_engine(source_url), make_engine(target_url)
    try:
        return _copy(source, target, batch_rows)
    finally:
        source.dispose()
        target.dispose()


def _copy(source: Engine, target: Engine, batch_rows: int) -> CopyReport:
    source_tables, target_tables = MetaData(), MetaData()
    source_tables.reflect(source)
    target_tables.reflect(target)
    missing = set(source_tables.tables) - set(target_tables.tables)
    if missing:
        raise CopyRefused(f"the target has no table(s) {sorted(missing)}: are both at the same migration?")
    order = [t for t in target_tables.sorted_tables if t.name in source_tables.tables and t.name not in NOT_COPIED]
    report = CopyReport()
    with _snapshot(source) as reading, target.begin() as writing:
        for table in order:
            if writing.scalar(select(func.count()).select_from(table)):
                raise CopyRefused(f"the target is not empty (table {table.name} has rows); copy into a fresh database")
        for table in order:
            copied = 0
            for batch in _batches(reading, source_tables.tables[table.name], table, batch_rows):
                writing.execute(table.insert(), batch)
                copied += len(batch)
            report.rows[table.name] = copied
        if target.dialect.name == "postgresql":
            _advance_sequences(writing, order)
    return report


class _snapshot:
    """A read-only view of the source as of one moment (REPEATABLE READ on PostgreSQL; SQLite
    reads inside one transaction see one snapshot anyway)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def __enter__(self) -> Connection:
        options = {"isolation_level": "REPEATABLE READ"} if self.engine.dialect.name == "postgresql" else {}
        self.connection = self.engine.connect().execution_options(**options)
        self.transaction = self.connection.begin()
        return self.connection

    def __exit__(self, *_exc) -> None:
        self.transaction.rollback()  # nothing was written
        self.connection.close()


def _batches(reading: Connection, source: Table, target: Table, size: int) -> Iterator[list[dict]]:
    columns = [c.name for c in target.columns if c.name in source.columns]
    key = list(source.primary_key.columns) or [source.columns[columns[0]]]
    rows = reading.execution_options(yield_per=size).execute(
        select(*(source.columns[name] for name in columns)).order_by(*key))
    for chunk in rows.partitions(size):
        yield [{name: _portable(value) for name, value in zip(columns, row)} for row in chunk]


def _portable(value):
    """SQLite hands timestamps back without their zone; the app writes them in UTC."""
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value


def _advance_sequences(writing: Connection, tables: list[Table]) -> None:
    for table in tables:
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or not isinstance(keys[0].type, Integer):
            continue
        column = keys[0].name
        sequence = writing.scalar(text("SELECT pg_get_serial_sequence(:table, :column)"),
                                  {"table": table.name, "column": column})
        if sequence:
            writing.execute(text(f'SELECT setval(:sequence, COALESCE((SELECT MAX("{column}") FROM "{table.name}"), 0) + 1, false)'),
                            {"sequence": sequence})
