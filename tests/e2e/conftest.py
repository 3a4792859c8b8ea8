"""The browser tests' database, and where they save screenshots (the shared Chromium is
tests/conftest.py's ``browser``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.databases import KINDS, migrated_database


@pytest.fixture
def database_url(tmp_path):
    """SQLite only: what a page shows and sends does not depend on the database behind the API,
    and every path of the API runs on both databases in the tests outside this folder (where the
    full suite's PostgreSQL half of these browser tests cost CI about a third of its browser time).
    test_evening_browser.py keeps both (``database_url_of_every_kind``): whole evenings on
    PostgreSQL too."""
    with migrated_database("sqlite", tmp_path) as url:
        yield url


@pytest.fixture(params=KINDS)
def database_url_of_every_kind(request, tmp_path):
    with migrated_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where a test saves screenshots to look at: $SCREENSHOTS if set, else a temporary folder."""
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
