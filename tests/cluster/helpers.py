"""Helpers for the cluster tests: started buses (closed afterwards) and waiting for a condition."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from app.cluster.bus import Bus
from tests.support.redis import REDIS_URL


@asynccontextmanager
async def started_buses(prefix: str, count: int = 2, url: str = REDIS_URL):
    """``count`` processes' buses on one cluster prefix, as if in ``count`` processes."""
    buses = [Bus(url, prefix) for _ in range(count)]
    for bus in buses:
        await bus.start()
    try:
        yield buses
    finally:
        for bus in buses:
            await bus.close()


async def until(predicate, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.01)
