"""The README's start command on a fresh checkout: the default SQLite file (in a folder that does
not exist yet) is created and migrated, the URL is printed, and the app answers there."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx

from app.settings import ROOT
from tests.support.server import free_port


def test_start_command_creates_and_migrates_the_default_database(tmp_path):
    port = free_port()
    database = tmp_path / "not-yet" / "asobiba.db"
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", PORT=str(port), HOST="127.0.0.1")
    process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        assert line.strip() == f"Asobiba is running at http://127.0.0.1:{port}/", line
        response = None
        for _ in range(100):
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                assert process.poll() is None, process.stdout.read()
        assert response is not None and response.status_code == 200 and "Asobiba" in response.text
        assert database.exists()
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_the_start_command_tunes_the_garbage_collector():
    """``GC_YOUNG_THRESHOLD`` / ``GC_MIDDLE_THRESHOLD`` (0 keeps Python's), no full collection by
    itself unless ``GC_FULL_THRESHOLD`` says so; what exists at start is frozen."""
    import gc

    from app.observability.gc_tuning import NEVER, tune_gc

    before = gc.get_threshold()
    try:
        tune_gc(0)
        assert gc.get_threshold() == (*before[:2], NEVER) and gc.get_freeze_count() > 0
        tune_gc(1234, 3, 7)
        assert gc.get_threshold() == (1234, 3, 7)
        tune_gc(1234, 0, 0)
        assert gc.get_threshold() == (1234, 3, NEVER)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
