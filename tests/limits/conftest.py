"""A server started with the limits a test sets (through ``Settings``), stopped after the test."""

from __future__ import annotations

import pytest

from tests.support.server import start_in_thread


@pytest.fixture
def limited_server(database_url):
    started = []

    def start(clock=None, **limits):
        running = start_in_thread(database_url, clock=clock, **limits)
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()
