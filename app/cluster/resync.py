"""Resyncing after the bus reconnected to Redis: the callbacks that let the owners of state that
may have missed messages catch up (presence, leases, mirrors' views), run in a task beside the
listener. A callback may wait for a reply (a mirror asks its owner for the current views), which
only the listener can deliver: run inside the listener, every such ask timed out. A reconnect
during a run makes one more run once it ends; runs never overlap."""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

log = logging.getLogger("asobiba.cluster")


class Resync:
    def __init__(self):
        self.callbacks: list[Callable[[], Awaitable[None]]] = []
        self.task: asyncio.Task | None = None
        self._again = False  # asked again during the current run

    def soon(self) -> None:
        self._again = True
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._again:
            self._again = False
            for callback in list(self.callbacks):
                try:
                    await callback()
                except Exception:
                    log.exception("resync after a Redis reconnect failed")
