"""Waiting for a condition in a test: poll it until a deadline, and on a timeout fail with what was
awaited (and, if asked, the state that explains why), never a bare "timed out". The one place
tests poll from (tests/structure/test_tests.py keeps it so): no sleeps that hope long enough."""

from __future__ import annotations

import time
from typing import Callable, TypeVar

T = TypeVar("T")


def wait_for(condition: Callable[[], T], timeout: float = 20.0, interval: float = 0.05,
             what: str = "the condition", state: Callable[[], object] | None = None) -> T:
    """Poll ``condition()`` every ``interval`` seconds until it returns something truthy, and
    return that. After ``timeout`` seconds fail with an AssertionError naming ``what`` was awaited,
    the last value and ``state()`` (read only then: what the failure's reader needs to know)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            said = f"; {state()}" if state is not None else ""
            raise AssertionError(f"waited {timeout} s for {what}, still {value!r}{said}")
        time.sleep(interval)


def wait_until_equal(read: Callable[[], object], wanted: object, timeout: float = 30.0, interval: float = 0.02,
                     state: Callable[[], object] = lambda: "") -> None:
    """Poll ``read()`` until it returns ``wanted`` (equal, so ``False``, ``0`` or ``[]`` can be
    awaited too); on a timeout fail with the last value read, ``wanted`` and ``state()``. (The
    default bound is for "never": a server's few database writes take about 0.1 s, and CI once saw
    10 s pass on a machine running five test processes, browsers and their servers.)"""
    last: list[object] = [None]

    def reached() -> bool:
        last[0] = read()
        return last[0] == wanted

    wait_for(reached, timeout, interval, what=repr(wanted), state=lambda: f"read {last[0]!r}{state()}")
