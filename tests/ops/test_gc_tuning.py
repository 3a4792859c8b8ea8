"""The scheduled collections (app/observability/gc_tuning.py): with no full collection by itself,
garbage in reference cycles that reached the oldest generation is freed once the heap grew by it
(and a heap of steady size is never stopped for it); young and
middle collections on a clock free a young cycle though Python's own count never fires."""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import weakref

from app.observability.gc_tuning import FullCollections, TimedCollections


class Node:
    def __init__(self):
        self.me = self  # a reference cycle: only the cyclic collector frees it


def _old_cycles(count: int) -> list[Node]:
    """``count`` nodes in reference cycles, moved to the oldest generation (middle collections no
    longer see them once they are garbage)."""
    nodes = [Node() for _ in range(count)]
    gc.collect(1)
    gc.collect(1)
    return nodes


def _full_collections_seen(full: FullCollections, done, meanwhile=lambda: None) -> int:
    """Run ``full`` until ``done(looks, collections)`` (how often it looked at the heap, how many
    full collections ran) or 20 s, ``meanwhile()`` once it has started; how many full collections
    ran. (Counted, not timed: on a busy machine a tick or a full collection of a test process's
    heap takes long.)"""
    seen: list[int] = []
    looks: list[int] = []

    def look(collect=full.collect) -> None:
        looks.append(1)
        collect()

    def collect_now(size=None, collect=full.collect_now) -> bool:  # this instance's only
        seen.append(1)
        return collect(size)

    full.collect = look  # type: ignore[method-assign]
    full.collect_now = collect_now  # type: ignore[method-assign]

    async def scenario() -> None:
        before = gc.get_threshold()
        gc.set_threshold(before[0], before[1], 2**31 - 1)  # no full collection by itself
        full.start()
        meanwhile()
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not done(len(looks), len(seen)):
                await asyncio.sleep(full.interval / 4)
        finally:
            full.stop()
            gc.set_threshold(*before)

    asyncio.run(scenario())
    return len(seen)


def test_a_heap_that_grew_by_old_cyclic_garbage_is_collected():
    """Garbage in cycles that reached the oldest generation: once the heap is ``growth`` larger
    than when the collector started watching, a full collection frees it."""
    gone: list[bool] = []
    nodes = _old_cycles(max(50_000, sys.getallocatedblocks() // 10))  # ~10 % of the heap
    weakref.finalize(nodes[0], gone.append, True)

    def grow() -> None:  # after the collector took the heap's size with the nodes alive
        nodes.clear()  # now garbage, kept by their cycles: the heap does not shrink
        gc.collect(1)
        assert not gone  # a middle collection does not reach them
        _old_cycles(max(50_000, sys.getallocatedblocks() // 10))  # more: the heap grows past 2 %

    assert _full_collections_seen(FullCollections(0.05, growth=0.02), lambda looks, seen: bool(gone), grow) >= 1
    assert gone == [True]


def test_a_heap_of_steady_size_is_not_stopped_for_a_full_collection():
    """Objects made and freed as fast (a server whose tables hold steady) leave the heap's size
    alone: no full collection, however long; at least every ``most_every`` seconds if set."""
    churn = [[object() for _ in range(1000)] for _ in range(50)]
    fifteen_looks = lambda looks, seen: looks >= 15  # noqa: E731
    assert _full_collections_seen(FullCollections(0.02, growth=0.25), fifteen_looks) == 0
    churn[:] = [[object() for _ in range(1000)] for _ in range(50)]  # the same size made again
    assert _full_collections_seen(FullCollections(0.02, growth=0.25), fifteen_looks) == 0
    timed = FullCollections(0.02, growth=0.25, most_every=0.05)
    assert _full_collections_seen(timed, lambda looks, seen: seen >= 2) >= 2


def test_where_the_heap_is_not_counted_full_collections_run_on_a_clock(monkeypatch):
    """Under ``PYTHONMALLOC=malloc`` ``sys.getallocatedblocks()`` is 0: the growth rule would
    never fire and cyclic garbage would grow without bound."""
    from app.observability import gc_tuning

    monkeypatch.setattr(gc_tuning.sys, "getallocatedblocks", lambda: 0)
    full = FullCollections(10.0, growth=0.25)
    assert _full_collections_seen(full, lambda looks, seen: True) == 0  # (started and stopped)
    assert full.most_every == gc_tuning.UNCOUNTED_EVERY_SECONDS


def test_the_allowance_follows_the_smallest_heap_since_the_last_collection(monkeypatch):
    """A server that shrank (its evening over) does not keep its peak's allowance: from 1,000
    blocks down to 800, 1,010 is a quarter more than the smallest and is collected."""
    from app.observability import gc_tuning

    sizes = iter([1000, 800, 1010])  # at the start, then at each look
    monkeypatch.setattr(gc_tuning.sys, "getallocatedblocks", lambda: next(sizes, 1010))
    full = FullCollections(0.01, growth=0.25)
    assert _full_collections_seen(full, lambda looks, seen: looks >= 2 or seen > 0) == 1


def test_a_full_collection_that_could_not_run_keeps_the_allowance():
    """``gc.collect()`` does nothing while a collection is under way (another thread's, running
    finalizers): that must not count as a collection, or the heap's new base would hide the
    garbage until it grew a quarter more."""
    full = FullCollections(10.0, growth=0.25)
    full._base = 123
    answers: list[bool] = []

    def during(phase: str, info: dict) -> None:
        if phase == "start" and not answers:
            answers.append(full.collect_now())  # inside a collection: gc.collect() returns at once

    gc.callbacks.append(during)
    try:
        gc.collect(0)
    finally:
        gc.callbacks.remove(during)
    assert answers == [False] and full._base == 123
    assert full.collect_now() is True and full._base != 123


def test_timed_collections_run_young_and_middle_ones_on_a_clock():
    """Python's own collections off (its count of new objects less freed ones may hardly climb on
    a busy server): the clock alone collects, young ones and every second one a middle one."""
    async def scenario() -> list[int]:
        generations: list[int] = []

        def seen(phase: str, info: dict) -> None:
            if phase == "stop":
                generations.append(info["generation"])

        gone: list[bool] = []
        node = Node()
        weakref.finalize(node, gone.append, True)
        del node  # young garbage in a cycle: only a collection frees it
        gc.disable()
        gc.callbacks.append(seen)
        timed = TimedCollections(0.01, middle_every=2)
        timed.start()
        try:
            deadline = time.monotonic() + 10
            while len(generations) < 4 and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
        finally:
            timed.stop()
            gc.callbacks.remove(seen)
            gc.enable()
        assert gone == [True]
        return generations

    assert asyncio.run(scenario())[:4] == [0, 1, 0, 1]


def test_an_error_in_one_scheduled_collection_does_not_end_the_schedule():
    """The loop logs what a callback raised and goes on; the schedule must go on too (a census
    that raised once stopped every later full collection of the process)."""
    from app.observability.gc_tuning import _Every

    class Flaky(_Every):
        def __init__(self):
            super().__init__(0.01)
            self.calls = 0

        def collect(self) -> None:
            self.calls += 1
            if self.calls == 1:
                raise RuntimeError("one bad collection")

    async def scenario() -> int:
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: None)
        flaky = Flaky()
        flaky.start()
        try:
            deadline = time.monotonic() + 10
            while flaky.calls < 3 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        finally:
            flaky.stop()
        return flaky.calls

    assert asyncio.run(scenario()) >= 3
