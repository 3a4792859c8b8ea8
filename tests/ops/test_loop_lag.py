"""The loop-lag probe (app/observability/loop_lag.py): a loop held by a blocking call shows up in
``asobiba_loop_lag_seconds`` and in the largest-since-the-previous-scrape gauge."""

from __future__ import annotations

import asyncio
import time

from app.observability import metrics
from app.observability.loop_lag import LoopLagProbe


def lag_count_above(bound: float) -> float:
    """Probe ticks observed later than ``bound`` seconds (the histogram's count minus its bucket)."""
    count = above = 0.0
    for sample in metrics.LOOP_LAG.collect()[0].samples:
        if sample.name.endswith("_count"):
            count = sample.value
        elif sample.name.endswith("_bucket") and sample.labels["le"] == str(bound):
            above = sample.value
    return count - above


def test_a_held_loop_is_measured_and_the_largest_lag_resets_when_read():
    async def scenario() -> None:
        probe = LoopLagProbe(0.005)
        probe.start()
        try:
            metrics.LOOP_LAG_MAX.take()
            before = lag_count_above(0.05)
            ticks = metrics.LOOP_LAG.collect()[0].samples
            deadline = time.monotonic() + 5
            while metrics.LOOP_LAG.collect()[0].samples == ticks and time.monotonic() < deadline:  # it ticks
                await asyncio.sleep(0.01)
            assert metrics.LOOP_LAG.collect()[0].samples != ticks
            time.sleep(0.12)  # hold the loop: the next tick comes ~115 ms late
            deadline = time.monotonic() + 5
            while lag_count_above(0.05) == before and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert lag_count_above(0.05) >= before + 1  # (a loaded machine may add late ticks of its own)
            assert 0.1 <= metrics.LOOP_LAG_MAX.take() < 5
            assert metrics.LOOP_LAG_MAX.take() == 0.0  # read: starts again
        finally:
            probe.stop()

    asyncio.run(scenario())
