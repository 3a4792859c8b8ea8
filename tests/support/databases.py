"""Real databases for tests: a fresh SQLite file always, and a fresh PostgreSQL database per test
when TEST_DATABASE_URL is set (CI sets it and fails if PostgreSQL is unreachable)."""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

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
