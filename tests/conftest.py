"""Shared fixtures: a fresh real database per test (SQLite always, PostgreSQL when configured;
migrated, or empty for tests of the migrations),
a real server on a free port, and headless Chromium for the browser tests."""

from __future__ import annotations

import pytest

from app.clock import FakeClock
from tests.support.browser import chromium
from tests.support.databases import KINDS, fresh_database, migrated_database
from tests.support.server import start_in_thread


@pytest.fixture(params=KINDS)
def database_url(request, tmp_path):
    """A fresh database of its own, with the newest schema and no rows."""
    with migrated_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture(params=KINDS)
def empty_database_url(request, tmp_path):
    """A fresh database without any table: for tests of the migrations themselves."""
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


@pytest.fixture(scope="module")
def shared_chromium():
    """One Chromium per test module (launching one costs about a second). Not per session: while
    Playwright's sync API runs, its event loop is the thread's, and asyncio.run() in a later
    non-browser test of the same process would fail."""
    with chromium() as running:
        yield running


@pytest.fixture
def browser(shared_chromium):
    """The shared Chromium; every context a test opens in it is closed when the test ends, so no
    page of an earlier test (reconnecting to its stopped server, say) keeps running beside the next."""
    yield shared_chromium
    for context in list(shared_chromium.contexts):
        context.close()
