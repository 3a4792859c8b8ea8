"""Background work of the cluster's parts: a coroutine started and kept referenced until it ends
(an unreferenced task may be collected mid-way), its failure logged rather than lost."""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("asobiba.cluster")


class Background:
    def __init__(self):
        self._tasks: set[asyncio.Task] = set()

    def later(self, coroutine) -> None:
        """Run ``coroutine`` in the background (kept referenced; failures logged)."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cluster task failed: %r", task.exception())
