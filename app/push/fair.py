"""Sharing the push senders fairly between players (issue 48, point 4). A subscriber chooses the
endpoints their pushes go to, so how long each post takes: one whose endpoints accept and never
answer must not delay anyone else's notification, nor take more than a share of the senders.

- ``FairQueue``: each player's events wait in a queue of their own; the players with something
  to send are served in turn (round robin), one turn at a time per player (their events stay in
  order), so a backlog delays only its own player. The whole holds at most ``maxsize`` events: a
  full queue drops the newest event of the longest backlog (the event that came, if its player's
  is the longest), not the next player's.
- ``SenderBudget``: the sender time each player's posts may take, a bucket of ``capacity``
  sender-seconds refilled over ``period``; a post's time is charged once it is done (the bucket
  may go below zero), and a player with nothing left is not served until the refill brings it
  back above zero."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

from app.limits.store import Rule


class FairQueue:
    """``put_nowait((key, item))`` and ``get() -> (key, item)`` as ``asyncio.Queue``, but per key:
    keys are served round robin, and a key handed out by ``get`` is not handed out again until
    ``done(key)``. ``put_front(key, item)`` (between ``get`` and ``done``) puts the rest of a
    partly served item back at the head of its key's queue, for the key's next turn."""

    def __init__(self, maxsize: int):
        self.maxsize = maxsize
        self._queues: dict[Hashable, deque] = {}  # key -> its items waiting (only keys with some)
        self._ready: deque[Hashable] = deque()  # keys with items and not being served, in turn order
        self._serving: set[Hashable] = set()
        self._size = 0
        self._getters: deque[asyncio.Future] = deque()

    def qsize(self) -> int:
        return self._size

    def empty(self) -> bool:
        return self._size == 0

    def full(self) -> bool:
        return self._size >= self.maxsize

    def put_nowait(self, entry: tuple[Hashable, Any]) -> tuple[Hashable, Any] | None:
        """Queue ``entry``; when full, the newest entry of the longest queue is dropped and returned
        (``asyncio.QueueFull`` if that would be ``entry`` itself: its key's queue is the longest)."""
        key, item = entry
        dropped = None
        if self._size >= self.maxsize:
            mine = len(self._queues.get(key, ()))
            longest = max(self._queues, key=lambda k: len(self._queues[k]), default=None)
            if longest is None or len(self._queues[longest]) <= mine:
                raise asyncio.QueueFull
            dropped = (longest, self._queues[longest].pop())
            self._size -= 1
            if not self._queues[longest]:
                self._forget(longest)
        self._add(key, item, front=False)
        return dropped

    def put_front(self, key: Hashable, item: Any) -> None:
        self._add(key, item, front=True)

    def _add(self, key: Hashable, item: Any, front: bool) -> None:
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            if key not in self._serving:
                self._ready.append(key)
                self._wake()
        if front:
            queue.appendleft(item)
        else:
            queue.append(item)
        self._size += 1

    def _forget(self, key: Hashable) -> None:
        del self._queues[key]
        if key not in self._serving:
            self._ready.remove(key)

    async def get(self) -> tuple[Any, Any]:
        while not self._ready:
            getter = asyncio.get_running_loop().create_future()
            self._getters.append(getter)
            try:
                await getter
            except asyncio.CancelledError:
                getter.cancel()
                if getter in self._getters:
                    self._getters.remove(getter)
                elif self._ready:  # woken, then cancelled: the next getter takes the turn
                    self._wake()
                raise
        key = self._ready.popleft()
        queue = self._queues[key]
        item = queue.popleft()
        if not queue:
            del self._queues[key]
        self._size -= 1
        self._serving.add(key)
        return key, item

    def done(self, key: Hashable) -> None:
        """``key``'s turn is over: it waits for its next turn behind the keys ready now."""
        self._serving.discard(key)
        if key in self._queues:
            self._ready.append(key)
            self._wake()

    def _wake(self) -> None:
        while self._getters:
            getter = self._getters.popleft()
            if not getter.done():
                getter.set_result(None)
                return


class SenderBudget:
    """Sender-seconds per player (``rule``: capacity seconds, refilled over period seconds). Players
    whose bucket is full are forgotten every ``sweep_every`` charges (a full bucket is what a new
    one is), and the least recently charged past ``max_keys``."""

    def __init__(self, rule: Rule, clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000,
                 sweep_every: int = 1024):
        self.rule = rule
        self.clock = clock
        self.max_keys = max_keys
        self.sweep_every = sweep_every
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # key -> (credit, when), recency order
        self._charges = 0

    def left(self, key: Hashable) -> float:
        """Seconds of sender time ``key`` has left now (at most the capacity; below zero: owed)."""
        credit, when = self._buckets.get(key, (self.rule.capacity, 0.0))
        return min(self.rule.capacity, credit + max(0.0, self.clock() - when) * self.rule.rate)

    def allows(self, key: Hashable) -> bool:
        return self.left(key) > 0

    def charge(self, key: Hashable, seconds: float) -> None:
        credit = self.left(key) - seconds
        self._buckets.pop(key, None)
        self._buckets[key] = (credit, self.clock())
        self._charges += 1
        if self._charges % self.sweep_every == 0 or len(self._buckets) > self.max_keys:
            self._sweep()

    def _sweep(self) -> None:
        self._buckets = {key: value for key, value in self._buckets.items() if self.left(key) < self.rule.capacity}
        for key in list(self._buckets)[:max(0, len(self._buckets) - self.max_keys)]:
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)
