"""Real databases for tests: a fresh SQLite file always, and a fresh PostgreSQL database per test
when TEST_DATABASE_URL is set (CI sets it and fails if PostgreSQL is unreachable).

``fresh_database`` gives an empty database; ``migrated_database`` a fresh one that already has the
newest schema, copied from a template migrated once per test process (running the migrations took
about 0.3 s per SQLite test and 1 s per PostgreSQL test, over a thousand times per run). The copy
is a real database of its own, as the migrations would have left it; a test of the migrations
themselves starts from ``fresh_database`` (the ``empty_database_url`` fixture)."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import sessionmaker

from app.db import migrate
from app.models import Match, Player, Room

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "")
KINDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])
# The one database of a test whose subject is not the database (tests/conftest.py).
BEHAVIOUR_KIND = KINDS[-1]


@contextmanager
def fresh_database(kind: str, tmp_path):
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'asobiba-test.db'}"
        return
    name = f"asobiba_t_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


_templates: dict[str, str] = {}  # kind -> this process's migrated template (a file, or a database name)


def _template(kind: str) -> str:
    """This process's migrated template of ``kind``, made on first use and dropped at exit."""
    if kind in _templates:
        return _templates[kind]
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix="asobiba-template-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = str(Path(folder) / "template.db")
        migrate(f"sqlite:///{template}")
        with sqlite3.connect(template) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    else:
        template = f"asobiba_tmpl_{secrets.token_hex(6)}"
        admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{template}"'))
        admin.dispose()
        atexit.register(_drop, template)
        migrate(make_url(POSTGRES_URL).set(database=template).render_as_string(hide_password=False))
    _templates[kind] = template
    return template


def _drop(name: str) -> None:
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@contextmanager
def migrated_database(kind: str, tmp_path):
    """A fresh database of ``kind`` with the newest schema and no rows (a copy of the template)."""
    template = _template(kind)
    if kind == "sqlite":
        path = tmp_path / "asobiba-test.db"
        with sqlite3.connect(template) as source, sqlite3.connect(path) as target:
            source.backup(target)
        source.close()
        target.close()
        yield f"sqlite:///{path}"
        return
    name = f"asobiba_t_{secrets.token_hex(6)}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def database_with_a_match(database_url: str) -> tuple[sessionmaker, str]:
    """The migrated database at ``database_url`` holding one running Synomilia match (``m1``, in
    room ``room1``, version 0) for tests of the action log's writers; a session factory for it."""
    migrate(database_url)
    factory = sessionmaker(create_engine(database_url), expire_on_commit=False)
    with factory() as session, session.begin():
        session.add(Player(id="p1", name="Aki", token_hash="h1"))
        session.add(Room(id="room1", game="synomilia", options={}, num_seats=2, host_id="p1"))
        session.flush()
        session.add(Match(id="m1", room_id="room1", game="synomilia", engine_version="1", options={}, seed=1,
                          seats=[], state={}, version=0))
    return factory, "m1"
