"""Where browser tests save screenshots (the shared Chromium is tests/conftest.py's ``browser``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where a test saves screenshots to look at: $SCREENSHOTS if set, else a temporary folder."""
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
