"""Whether this process still hears its own channel. A subscription can go quiet with no error
reaching the listener (seen after a Redis restart: publishing worked, nothing arrived for minutes,
so a mirror never caught up): each process publishes a probe to its own channel every
``PROBE_SECONDS``; when it has heard none for ``PROBE_TIMEOUT`` seconds it is ``deaf``, and the
listener subscribes again from scratch."""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from app.cluster.requests import Unreachable

log = logging.getLogger("asobiba.cluster")

PROBE_SECONDS = 1.0
PROBE_TIMEOUT = 5.0


class Hearing:
    def __init__(self, send_probe: Callable[[], Awaitable[object]]):
        self.send_probe = send_probe
        self.deaf = asyncio.Event()  # set here; the listener clears it when it subscribes again
        self._heard = 0.0  # when this process last heard its own probe (loop time)

    def heard(self) -> None:
        """A probe came back (or the subscriptions were just made: count from now)."""
        self._heard = asyncio.get_running_loop().time()
        self.deaf.clear()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            if loop.time() - self._heard > PROBE_TIMEOUT and not self.deaf.is_set():
                self.deaf.set()
            try:
                await self.send_probe()
            except Unreachable:  # Redis is down: the listener notices by itself
                pass
            except Exception:  # never silent, never the end of the probe
                log.exception("could not publish the probe")
