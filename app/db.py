"""Engines, sessions, the database worker pool, and running the Alembic migrations.

Why synchronous SQLAlchemy in worker threads rather than the asyncio extension: the read and
room-change code (store, history, ratings) stays plain, testable ``Session`` code, and
``Database.run`` gives it to a thread pool exactly as large as the connection pool, so a call never
blocks a thread on a pool checkout and callers beyond the pool wait their turn as ordinary awaits
on the event loop (no ``QueuePool limit ... reached`` timeouts, no frozen rooms). The hot path, the
action log, does not use this pool at all: one writer thread with its own connection commits the
actions of many rooms per transaction (``app.live.writer``). aiosqlite would add a thread hop per
statement; here there is one hop per call (reads) or per batch (the log)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from app import json_codec
from app.settings import ROOT

T = TypeVar("T")


def ensure_sqlite_folder(database_url: str) -> None:
    """SQLite creates the file but not its folder (the default is ``data/`` in the checkout)."""
    if database_url.startswith("sqlite"):
        path = database_url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)


def make_engine(database_url: str, pool_size: int = 5, max_overflow: int = 10, pool_timeout: float = 30.0,
                pre_ping: bool = True) -> Engine:
    """``pre_ping``: a PostgreSQL connection is tested (a round trip) each time it is taken from
    the pool, so one the server closed is replaced before use (the action writer does without:
    ``ActionWriter._write``)."""
    ensure_sqlite_folder(database_url)
    pool = dict(pool_size=pool_size, max_overflow=max_overflow, pool_timeout=pool_timeout)
    # JSON columns (actions, snapshots, outcomes) through orjson: the action writer's thread holds
    # the GIL while it serializes, and Python's json costs several times more per value.
    json = dict(json_serializer=json_codec.dumps_text, json_deserializer=json_codec.loads,
                # A database error's text leaves out the statement's values: they are actions,
                # snapshots (hands, seeds), notebooks and room ids (invite secrets), and such an
                # error reaches the log (docs/operations.md "Logs").
                hide_parameters=True)
    if database_url.startswith("sqlite"):
        # timeout: a writer waits up to 30 s for SQLite's one write lock instead of failing at once.
        engine = create_engine(database_url, connect_args={"check_same_thread": False, "timeout": 30}, **json, **pool)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        return engine
    return create_engine(database_url, pool_pre_ping=pre_ping, **json, **pool)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


class Database:
    """The connection pool of the request/socket paths and the threads that use it.

    ``await db.run(fn, *args)`` calls ``fn(session, *args)`` in a worker thread with a fresh
    session (the caller commits) and returns its result; there are as many workers as the pool
    has connections (``db_pool_size + db_max_overflow``), so the pool never makes a thread wait."""

    def __init__(self, database_url: str, pool_size: int = 5, max_overflow: int = 10, pool_timeout: float = 30.0):
        self.url = database_url
        self.engine = make_engine(database_url, pool_size, max_overflow, pool_timeout)
        self.session_factory = make_session_factory(self.engine)
        self.workers = pool_size + max_overflow
        self._executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="db")

    async def run(self, fn: Callable[..., T], *args) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._call, fn, args)

    def _call(self, fn, args):
        with self.session_factory() as session:
            return fn(session, *args)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.engine.dispose()


def alembic_config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def migrate(database_url: str) -> None:
    """Bring the schema to the newest migration (creates it on an empty database)."""
    ensure_sqlite_folder(database_url)
    command.upgrade(alembic_config(database_url), "head")
