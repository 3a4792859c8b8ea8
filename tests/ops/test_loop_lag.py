"""The loop-lag probe (app/observability/loop_lag.py) and the largest-since-the-last-scrape value
it feeds (app/observability/metrics.py).

The probe is timed with a ``report`` of this test's own: the process's metrics are shared with any
server a test started in a thread, whose probe reports into them too and whose scrape resets the
largest value (CI once read 0.082 s, another loop's lag, instead of this loop's 0.12 s)."""

from __future__ import annotations

import asyncio
import time

from app.observability import metrics
from app.observability.loop_lag import LoopLagProbe


def test_a_held_loop_is_measured():
    lags: list[float] = []

    async def scenario() -> None:
        probe = LoopLagProbe(0.005, report=lags.append)
        probe.start()
        try:
            deadline = time.monotonic() + 5
            while not lags and time.monotonic() < deadline:  # it ticks
                await asyncio.sleep(0.01)
            assert lags
            ticks = len(lags)
            time.sleep(0.12)  # hold the loop: the next tick comes at least ~115 ms late
            deadline = time.monotonic() + 5
            while len(lags) == ticks and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert len(lags) > ticks
            assert 0.115 <= lags[ticks] < 5  # the first tick after the hold
        finally:
            armed = probe._handle
            probe.stop()
        assert armed is not None and armed.cancelled()  # stopped: the next tick will not come

    asyncio.run(scenario())


def test_the_probe_reports_to_the_metrics_by_default():
    def count() -> float:
        return next(s.value for s in metrics.LOOP_LAG.collect()[0].samples if s.name.endswith("_count"))

    async def scenario() -> None:
        before = count()
        probe = LoopLagProbe(0.005)
        probe.start()
        try:
            deadline = time.monotonic() + 5
            while count() == before and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        finally:
            probe.stop()
        assert count() > before

    asyncio.run(scenario())


def test_the_largest_value_resets_when_read():
    largest = metrics._Largest()
    for value in (0.01, 0.12, 0.03):
        largest.observe(value)
    assert largest.take() == 0.12
    assert largest.take() == 0.0  # read: starts again
    largest.observe(0.02)
    assert largest.take() == 0.02

