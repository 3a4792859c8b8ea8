"""One server per test module and database kind (instead of per test): every test here makes its
own players and rooms, so they do not disturb each other, and the folder stays fast. The kinds are
parametrized by tests/conftest.py's ``pytest_generate_tests``, as for the per-test fixture."""

from __future__ import annotations

import pytest

from tests.support.databases import migrated_database
from tests.support.server import start_in_thread


@pytest.fixture(scope="module")
def database_url(database_kind, tmp_path_factory):
    with migrated_database(database_kind, tmp_path_factory.mktemp("live")) as url:
        yield url


@pytest.fixture(scope="module")
def server(database_url):
    running = start_in_thread(database_url)
    yield running
    running.stop()
