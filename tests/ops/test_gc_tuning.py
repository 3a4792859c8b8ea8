"""The scheduled full collection (app/observability/gc_tuning.py): with no full collection by
itself, garbage in reference cycles that reached the oldest generation is freed on schedule."""

from __future__ import annotations

import asyncio
import gc
import time

from app.observability.gc_tuning import FullCollections


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
