"""Real databases for tests: a fresh SQLite file always, and a fresh PostgreSQL database per test
when TEST_DATABASE_URL is set (CI sets it and fails if PostgreSQL is unreachable)."""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import sessionmaker

from app.db import migrate
from app.models import Match, Player, Room

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "")
KINDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])


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
