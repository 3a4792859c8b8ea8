"""Server time, injectable so tests can drive delays, clocks and bot think time deterministically.

Timers sleep until an absolute time computed when they are scheduled, so a task that starts
late still fires when it should. ``SystemClock`` is wall time. ``FakeClock`` stands still until a test calls ``advance`` (from any
thread); sleepers whose time has come are then woken on their own event loop."""

from __future__ import annotations

import asyncio
import threading
import time


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        await asyncio.sleep(max(0.0, when - self.now()))


class FakeClock:
    def __init__(self, start: float = 1_900_000_000.0):
        self._now = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future]] = []

    def now(self) -> float:
        with self._lock:
            return self._now

    async def sleep_until(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._lock:
            if when <= self._now:
                return
            self._sleepers.append((when, loop, future))
        await future

    def advance(self, seconds: float) -> int:
        """Move the time on; returns how many sleepers it wakes (a test asserts 0 to show that no
        timer was due yet, instead of sleeping to see that nothing happens)."""
        with self._lock:
            self._now += seconds
            due = [s for s in self._sleepers if s[0] <= self._now]
            self._sleepers = [s for s in self._sleepers if s[0] > self._now]
        for _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)
        return sum(1 for _, _, future in due if not future.done())

    def pending(self) -> int:
        with self._lock:
            return sum(1 for _, _, f in self._sleepers if not f.done())


def _wake(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)
