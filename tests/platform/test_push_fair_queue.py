"""The fair queue and the sender budget of Web Push (app/push/fair.py; issue 48, point 4), on their
own: the fake clock for the budget's refill."""

from __future__ import annotations

import asyncio

import pytest

from app.clock import FakeClock
from app.limits.store import Rule
from app.push.fair import FairQueue, SenderBudget


def test_players_are_served_in_turn_and_each_in_order():
    """The queue itself: a player's backlog waits behind the next player's first event; one player
    is not handed out twice at once; a full queue takes from the longest backlog."""
    async def scenario() -> None:
        queue = FairQueue(4)
        for n in range(3):
            assert queue.put_nowait(("guest", n)) is None
        assert queue.put_nowait(("hana", 0)) is None
        assert await queue.get() == ("guest", 0)
        assert await queue.get() == ("hana", 0)  # the guest is being served: Hana next
        queue.done("hana")
        queue.done("guest")
        assert queue.put_nowait(("hana", 1)) is None
        assert queue.put_nowait(("hana", 2)) is None
        assert queue.put_nowait(("cho", 0)) == ("guest", 2), "full: the longest backlog's newest"
        with pytest.raises(asyncio.QueueFull):
            queue.put_nowait(("hana", 3))  # (Hana's backlog is the longest now, tied)
        assert [await take(queue) for _ in range(5)] == [("guest", 1), ("hana", 1), ("cho", 0), ("hana", 2), None]

    async def take(queue: FairQueue):
        try:
            key, item = await asyncio.wait_for(queue.get(), 0.1)
        except asyncio.TimeoutError:
            return None
        queue.done(key)
        return key, item

    asyncio.run(scenario())


def test_the_budget_is_charged_after_each_post_and_refills():
    clock = FakeClock()
    budget = SenderBudget(Rule.parse("10/100"), clock=clock.now, sweep_every=2)
    assert budget.allows("bex") and budget.left("bex") == 10
    budget.charge("bex", 4.0)
    budget.charge("bex", 9.0)  # a post may overrun: the debt is repaid by the refill
    assert budget.left("bex") == -3 and not budget.allows("bex")
    clock.advance(30)  # 0.1 s of sender time a second
    assert budget.left("bex") == pytest.approx(0) and not budget.allows("bex")
    clock.advance(1)
    assert budget.allows("bex")
    clock.advance(1000)
    budget.charge("hana", 0.0)
    budget.charge("hana", 0.0)  # (a sweep: full buckets are forgotten)
    assert len(budget) == 0
