"""Shared fixtures: a fresh real database per test (migrated, or empty for tests of the
migrations), a real server on a free port, and headless Chromium for the browser tests.

Which database a test gets (``pytest_generate_tests`` below): a test whose subject is what the
database does (its module or the test is marked ``every_database``: persistence, transactions and
constraints, migrations, restarts, load on the connection pool, deadlines stored as times) runs on
every configured kind, SQLite always and PostgreSQL when ``TEST_DATABASE_URL`` is set. Every other
test runs once, on ``BEHAVIOUR_KIND``: PostgreSQL when configured (production's database; CI), else
SQLite. Running all of them on both took a third of the non-browser suite's time and found nothing
the marked tests do not."""

from __future__ import annotations

import pytest

from app.clock import FakeClock
from tests.support.browser import chromium
from tests.support.databases import BEHAVIOUR_KIND, KINDS, fresh_database, migrated_database
from tests.slow import SLOW_MODULES, SLOW_TESTS
from tests.support.server import start_in_thread

SLOW_FOLDERS = ("tests/e2e/", "tests/cluster/", "tests/fuzz/")


def pytest_configure(config):
    config.addinivalue_line("markers", "every_database: the test runs on every configured database "
                            "(its subject is what the database does), not only on BEHAVIOUR_KIND")
    config.addinivalue_line("markers", "slow: left out of the fast path (scripts/test -m 'not slow'): a browser, "
                            "the cluster, fuzzing, or a test listed in tests/slow.py")


def pytest_collection_modifyitems(config, items):
    """Mark the slow tests (tests/slow.py says which and why)."""
    for item in items:
        path = item.nodeid.split("::")[0]
        function = item.nodeid.split("::")[-1].split("[")[0]
        if (path.startswith(SLOW_FOLDERS) or path.endswith("_browser.py") or path in SLOW_MODULES
                or function in SLOW_TESTS.get(path, ())):
            item.add_marker(pytest.mark.slow)


def pytest_generate_tests(metafunc):
    """Parametrize ``database_kind`` (see the module's docstring); a test that names its kinds itself
    (``@pytest.mark.parametrize("database_kind", [...], indirect=True)``) keeps them."""
    if "database_kind" not in metafunc.fixturenames:
        return
    if any("database_kind" in mark.args[0] for mark in metafunc.definition.iter_markers("parametrize")):
        return
    every = metafunc.definition.get_closest_marker("every_database") is not None
    metafunc.parametrize("database_kind", KINDS if every else [BEHAVIOUR_KIND], indirect=True)


@pytest.fixture(scope="module")
def database_kind(request) -> str:
    """"sqlite" or "postgresql": the kind of database the database fixtures make."""
    return request.param


@pytest.fixture
def database_url(database_kind, tmp_path):
    """A fresh database of its own, with the newest schema and no rows."""
    with migrated_database(database_kind, tmp_path) as url:
        yield url


@pytest.fixture
def empty_database_url(database_kind, tmp_path):
    """A fresh database without any table: for tests of the migrations themselves."""
    with fresh_database(database_kind, tmp_path) as url:
        yield url


@pytest.fixture
def server(database_url):
    running = start_in_thread(database_url)
    yield running
    running.stop()


@pytest.fixture
def open_board_server(database_url):
    """A server whose leaderboards list every rated player, guests too (``LEADERBOARD_MIN_OPPONENTS``
    0): for tests of a board's contents and order, not of who may appear on it
    (tests/security/test_leaderboard_alts.py)."""
    running = start_in_thread(database_url, leaderboard_min_opponents=0)
    yield running
    running.stop()


@pytest.fixture
def bots_alone_server(database_url):
    """A server whose tables of bots alone play by themselves (``UNATTENDED_TABLES_PLAY``): what
    a test of bots playing whole matches needs; by default such a table waits for a person."""
    running = start_in_thread(database_url, unattended_tables_play=True)
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
