"""How the server process tunes Python's cyclic garbage collector (issue 34: no stop of the loop
longer than ~20 ms at 1,000 rooms).

A collection stops the whole process (every socket and room) for as long as it scans, and it
scans every tracked object of the generations it collects. So each generation is kept small:

- ``gc.freeze()`` after start-up: modules, routes and the app live as long as the process and are
  never scanned again;
- a young collection after ``GC_YOUNG_THRESHOLD`` new objects and a middle one after
  ``GC_MIDDLE_THRESHOLD`` young ones. Python counts new objects *less those freed*, and on a
  server of many tables at a person's pace old states leave each table's resync history as fast
  as new ones come: the count then climbs slowly and a young generation grows far past its
  threshold. With 5,000, at 2,000 such tables a young collection found 20,000–39,000 objects and
  a middle one up to 88,000 (85 ms); with 1,000 they stay at ~2 and ~11 ms, and at full speed the
  throughput did not drop (benchmarks/README.md, 2026-11-28);
- also a young collection every ``GC_YOUNG_EVERY_MS`` (50) and a middle one every
  ``GC_MIDDLE_THRESHOLD``-th of them, on the event loop's clock (``TimedCollections``): at a
  person's pace Python's count alone let the middle collections grow with the number of tables
  (33 ms on average at 6,000 tables, up to 89); on the clock the longest was 9 ms there;
- no full collection by itself (``GC_FULL_THRESHOLD`` 0): it would scan every live room, socket
  and state of the process (a second or more at 1,000 rooms). Objects that outlive the middle
  generation are freed by reference counting like any other when they die; only garbage in
  reference cycles that reached the oldest generation waits for a full collection, run once the
  heap grew by ``GC_FULL_GROWTH`` (a quarter) since the last one (``FullCollections``: a server
  whose number of tables holds steady is not stopped), whose pause the metrics show. A
  finished match holds no cycle (its parts hold their runner weakly); what still gets there is
  measured in benchmarks/README.md (a request slowed long enough by an overloaded CPU can take
  its cycles there). ``GC_FULL_THRESHOLD`` 10 brings back Python's own rule (a full collection
  once a quarter more objects survived than the last one found) where memory matters more than
  pauses.

Each pause is timed for the metrics (``asobiba_gc_pause_seconds``, app/observability/metrics.py)."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

from app.observability import metrics

log = logging.getLogger("asobiba.gc")

NEVER = 2**31 - 1  # a threshold the oldest generation's count never reaches
UNCOUNTED_EVERY_SECONDS = 600  # full collections on a clock where the heap's size is not counted


def tune_gc(young: int, middle: int = 0, full: int = 0) -> None:
    """Freeze what exists, time every collection, and set the thresholds (0 for ``young`` or
    ``middle`` keeps Python's; 0 for ``full``: no full collection by itself)."""
    gc.freeze()
    metrics.watch_gc()
    default_young, default_middle, _ = gc.get_threshold()
    gc.set_threshold(young or default_young, middle or default_middle, full or NEVER)


class _Every:
    """``collect()`` every ``interval`` seconds on the event loop (0: never)."""

    def __init__(self, interval: float):
        self.interval = interval
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        if self.interval > 0 and self._handle is None:
            self._handle = asyncio.get_running_loop().call_later(self.interval, self._tick)

    def _tick(self) -> None:
        try:
            self.collect()
        finally:  # (an error in one collection, logged by the loop, does not end the schedule)
            self._handle = asyncio.get_running_loop().call_later(self.interval, self._tick)

    def collect(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


class TimedCollections(_Every):
    """A young collection every ``interval`` seconds, and a middle one every ``middle_every`` of
    them, besides Python's own counting (0: none). Why: Python counts new objects less those
    freed, and at a person's pace every move frees an old state (in the oldest generation) as it
    makes a new one, so the count hardly climbs while the young generation fills with states that
    live for seconds; each collection then found far more than its threshold, and the middle ones
    grew with the number of tables (7.7 / 15.6 / 33.5 ms on average at 2,000 / 4,000 / 6,000
    tables, up to 89 ms: benchmarks/README.md). On a clock, each collection holds only what the
    last ``interval`` made: every surviving object is still scanned once per generation, so the
    work is about the same, cut into short stops."""

    def __init__(self, interval: float, middle_every: int = 2):
        super().__init__(interval)
        self.middle_every = max(1, middle_every)
        self._ticks = 0

    def collect(self) -> None:
        self._ticks += 1
        gc.collect(1 if self._ticks % self.middle_every == 0 else 0)


class FullCollections(_Every):
    """A full collection once the heap grew by ``growth`` (a quarter: Python's own proportion)
    since the smallest it was after the last one, looked at every ``interval`` seconds; and at
    least every ``most_every`` seconds (0: no such limit).

    Why by growth and not by the clock: a full collection scans every live object of the process
    (0.3–0.7 s at 1,000 rooms), so on a clock it stopped every room every 10 minutes however
    little garbage there was. The heap's size is ``sys.getallocatedblocks()`` (Python's small
    objects in use, ~35 µs to read at 1.7 M): garbage kept by a cycle stays counted, live objects
    freed by reference counting leave it. A server whose number of tables holds steady keeps its
    size and is not stopped; one that grows is collected as it grows by a quarter, as Python's own
    rule would (which counts objects promoted, never those freed: every move's new state, so a
    full collection every few minutes at a person's pace); what cycles leave is at most a quarter
    of the heap. The smallest size since the last collection is the base, so a server emptied
    after its evening does not keep a peak's allowance."""

    def __init__(self, interval: float, growth: float = 0.25, most_every: float = 0.0):
        super().__init__(interval if growth > 0 or most_every > 0 else 0.0)
        self.growth = growth
        self.most_every = most_every
        self._base = 0
        self._last = 0.0

    def start(self) -> None:
        if self._handle is None:
            self._base, self._last = sys.getallocatedblocks(), time.monotonic()
            if self._base == 0 and self.growth > 0 and self.most_every <= 0:
                # No count of the heap (PYTHONMALLOC=malloc, a build without pymalloc): the growth
                # rule would never fire, so cyclic garbage would grow without bound. On the clock.
                log.warning("the heap's size is not counted here: a full collection every %d s instead",
                            UNCOUNTED_EVERY_SECONDS)
                self.most_every = UNCOUNTED_EVERY_SECONDS
        super().start()

    def collect(self) -> None:
        size = sys.getallocatedblocks()
        self._base = min(self._base, size)
        grown = self.growth > 0 and size > self._base * (1 + self.growth)
        if grown or (self.most_every > 0 and time.monotonic() - self._last >= self.most_every):
            self.collect_now(size)

    def collect_now(self, size: int | None = None) -> bool:
        """A full collection now; False if none ran (``gc.collect()`` does nothing while another
        thread's collection runs its finalizers): the size it would have set stays, next look again."""
        size = sys.getallocatedblocks() if size is None else size
        started, before = time.perf_counter(), gc.get_stats()[2]["collections"]
        found = gc.collect()
        if gc.get_stats()[2]["collections"] == before:
            return False
        self._base, self._last = sys.getallocatedblocks(), time.monotonic()
        log.info("full garbage collection: heap %d → %d blocks, %d objects in reference cycles, %.0f ms",
                 size, self._base, found, 1000 * (time.perf_counter() - started))
        return True
