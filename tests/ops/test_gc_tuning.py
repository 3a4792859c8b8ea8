"""The scheduled collections (app/observability/gc_tuning.py): with no full collection by itself,
garbage in reference cycles that reached the oldest generation is freed on schedule; young and
middle collections on a clock free a young cycle though Python's own count never fires."""

from __future__ import annotations

import asyncio
import gc
import time

from app.observability.gc_tuning import FullCollections, TimedCollections


class Node:
    def __init__(self):
        self.me = self  # a reference cycle: only the cyclic collector frees it


def test_full_collections_free_old_cycles_on_schedule():
    async def scenario() -> None:
        before = gc.get_threshold()
        gc.set_threshold(before[0], before[1], 2**31 - 1)  # no full collection by itself
        try:
            node = Node()
            gc.collect(1)
            gc.collect(1)  # now in the oldest generation
            assert any(o is node for o in gc.get_objects(2))
            gone = []
            import weakref
            weakref.finalize(node, gone.append, True)
            del node
            gc.collect(1)
            assert not gone  # a middle collection does not reach it
            full = FullCollections(0.05)
            full.start()
            try:
                deadline = time.monotonic() + 10
                while not gone and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                assert gone == [True]
            finally:
                full.stop()
        finally:
            gc.set_threshold(*before)

    asyncio.run(scenario())


def test_timed_collections_run_young_and_middle_ones_on_a_clock():
    """Python's own collections off (its count of new objects less freed ones may hardly climb on
    a busy server): the clock alone collects, young ones and every second one a middle one."""
    import weakref

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
