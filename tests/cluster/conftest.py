"""Cluster tests run against real Redis (a random key prefix per test) and real databases."""

from __future__ import annotations

import pytest

from tests.support.databases import KINDS, migrated_database
from tests.support.redis import REDIS_URL, delete_prefix, random_prefix

# A cluster needs PostgreSQL: these tests run wherever TEST_DATABASE_URL is set (CI sets it).
CLUSTER_KINDS = [kind for kind in KINDS if kind == "postgresql"]


@pytest.fixture(params=CLUSTER_KINDS)
def postgres_url(request, tmp_path):
    with migrated_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def redis_prefix():
    prefix = random_prefix()
    yield prefix
    delete_prefix(REDIS_URL, prefix)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the test item (``rep_call``...), so a fixture that outlives its test can
    tell whether it failed (test_cluster_room.py prints the shared cluster's logs then)."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
