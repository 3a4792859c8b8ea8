"""Resyncing after a Redis reconnect (app/cluster/resync.py): a run in which a callback failed is
run again until one succeeds whole. (It was not: a mirror whose resync met a pooled connection
the restarted Redis had closed never asked for the views it missed, and a seat waited for them
until its clock ran out: ``test_redis_restarted_mid_match``.)"""

from __future__ import annotations

import asyncio

from app.cluster.resync import Resync


def test_a_failed_resync_is_run_again_until_it_succeeds():
    calls = {"first": 0, "second": 0}

    async def first():  # fails twice, like commands on connections the old Redis closed
        calls["first"] += 1
        if calls["first"] <= 2:
            raise ConnectionError("Connection closed by server.")

    async def second():
        calls["second"] += 1

    async def scenario():
        resync = Resync(retry_first=0.01, retry_most=0.02)
        resync.callbacks += [first, second]
        resync.soon()
        await asyncio.wait_for(resync.task, timeout=5)

    asyncio.run(scenario())
    # Each run goes on past a failed callback; the run after the last failure is the last run.
    assert calls == {"first": 3, "second": 3}


def test_a_resync_that_succeeds_runs_once():
    calls = []

    async def callback():
        calls.append(1)

    async def scenario():
        resync = Resync(retry_first=0.01)
        resync.callbacks.append(callback)
        resync.soon()
        resync.soon()  # asked again before the run began: still one run
        await asyncio.wait_for(resync.task, timeout=5)

    asyncio.run(scenario())
    assert calls == [1]
