"""Resyncing after the bus reconnected to Redis: the callbacks that let the owners of state that
may have missed messages catch up (presence, leases, mirrors' views), run in a task beside the
listener. A callback may wait for a reply (a mirror asks its owner for the current views), which
only the listener can deliver: run inside the listener, every such ask timed out. A reconnect
during a run makes one more run once it ends; runs never overlap.

A run in which a callback failed is run again (after 0.5 s, then twice as long each time, at
most 5 s) until one succeeds whole: the first commands after Redis restarts often meet a pooled
connection the old server closed, and a mirror whose one resync failed that way never asked for
the views it had missed (a seat waited for them until its clock ran out)."""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

log = logging.getLogger("asobiba.cluster")


RETRY_FIRST = 0.5
RETRY_MOST = 5.0


class Resync:
    def __init__(self, retry_first: float = RETRY_FIRST, retry_most: float = RETRY_MOST):
        self.callbacks: list[Callable[[], Awaitable[None]]] = []
        self.task: asyncio.Task | None = None
        self.retry_first = retry_first
        self.retry_most = retry_most
        self._again = False  # asked again during the current run

    def soon(self) -> None:
        self._again = True
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        delay = self.retry_first
        while self._again:
            self._again = False
            failed = False
            for callback in list(self.callbacks):
                try:
                    await callback()
                except Exception as exc:
                    if not failed and delay == self.retry_first:  # the first of a streak: whole
                        log.exception("resync after a Redis reconnect failed; again in %.1f s", delay)
                    else:
                        log.warning("resync after a Redis reconnect failed again (%r); again in %.1f s", exc, delay)
                    failed = True
            if failed:
                await asyncio.sleep(delay)
                delay = min(2 * delay, self.retry_most)
                self._again = True
