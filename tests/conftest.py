"""Shared fixtures: a fresh real database per test (SQLite always, PostgreSQL when configured)
and a real server on a free port."""

from __future__ import annotations

import pytest

from app.clock import FakeClock
from tests.support.databases import KINDS, fresh_database
from tests.support.server import start_in_thread


@pytest.fixture(params=KINDS)
def database_url(request, tmp_path):
    with fresh_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def server(database_url):
    running = start_in_thread(database_url)
    yield running
    running.stop()


@pytest.fixture
def fake_clock_server(database_url):
    running = start_in_thread(database_url, clock=FakeClock())
    yield running
    running.stop()
