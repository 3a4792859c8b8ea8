"""Migrations build the schema on an empty database, and the models match them (alembic check)."""

from __future__ import annotations

from alembic import command
import pytest
from sqlalchemy import create_engine, inspect

from app.db import alembic_config, migrate

pytestmark = pytest.mark.every_database  # tests/conftest.py


def test_upgrade_empty_database_and_check_is_clean(empty_database_url):
    migrate(empty_database_url)
    tables = set(inspect(create_engine(empty_database_url)).get_table_names())
    assert {"players", "rooms", "room_seats", "matches", "match_actions", "chat_messages"} <= tables
    command.check(alembic_config(empty_database_url))  # raises if the models and migrations differ


def test_downgrade_to_base_and_back(empty_database_url):
    config = alembic_config(empty_database_url)
    migrate(empty_database_url)
    command.downgrade(config, "base")
    assert "matches" not in inspect(create_engine(empty_database_url)).get_table_names()
    command.upgrade(config, "head")
