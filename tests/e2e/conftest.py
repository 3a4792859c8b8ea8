"""One headless Chromium per test module (each test opens its own contexts in it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.browser import chromium


@pytest.fixture(scope="module")
def browser():
    with chromium() as running:
        yield running


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where a test saves screenshots to look at: $SCREENSHOTS if set, else a temporary folder."""
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
