"""A loop-lag probe: a timer due every ``interval`` seconds, and how late the loop ran it.

Whatever holds the event loop (a long callback, a garbage collection, a burst of frames) delays
every socket and room of the process by as much; a player notices those stops, not averages. The
probe is one ``call_at`` handle re-armed from its own callback (no task, no coroutine), so its
cost is a few microseconds per tick. The lag goes to ``asobiba_loop_lag_seconds`` and
``asobiba_loop_lag_max_seconds`` (app/observability/metrics.py), or to ``report`` (the load
benchmark's client times its own stalls with it)."""

from __future__ import annotations

import asyncio
from typing import Callable

from app.observability import metrics


class LoopLagProbe:
    def __init__(self, interval: float, report: Callable[[float], None] = metrics.loop_lag):
        self.interval = interval
        self.report = report
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0

    def start(self) -> None:
        """Arm the first tick (from within the running loop); a zero interval leaves it off."""
        if self.interval > 0 and self._handle is None:
            self._arm(asyncio.get_running_loop())

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        self._due = loop.time() + self.interval
        self._handle = loop.call_at(self._due, self._tick, loop)

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self.report(max(0.0, loop.time() - self._due))
        self._arm(loop)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
