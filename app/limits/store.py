"""Where credit buckets live. A bucket holds up to ``capacity`` credits and refills continuously at
``capacity / period`` credits per second; taking ``cost`` credits either succeeds or says how long
until it would.

``BucketStore`` is the protocol a shared store (e.g. Redis, for several processes) implements;
``MemoryBucketStore`` is the one-process store. A full bucket carries no information (a new one
starts full), so the memory store forgets full buckets: its size follows the clients active within
one refill period, never the clients ever seen."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Rule:
    """``capacity`` credits, refilled in full over ``period`` seconds (``"30/600"`` in settings)."""
    capacity: float
    period: float

    @classmethod
    def parse(cls, text: str) -> "Rule | None":
        """``"credits/seconds"``; ``"off"`` (or empty) disables the rule."""
        text = text.strip().lower()
        if text in ("", "off"):
            return None
        credits, _, seconds = text.partition("/")
        rule = cls(float(credits), float(seconds))
        if rule.capacity <= 0 or rule.period <= 0:
            raise ValueError(f"a rate limit is 'credits/seconds' with both positive, or 'off': {text!r}")
        return rule

    @property
    def rate(self) -> float:
        return self.capacity / self.period


def take(credits: float, updated: float, rule: Rule, cost: float, now: float) -> tuple[float, float]:
    """The bucket math every store shares: (credits left after taking ``cost``, or the unchanged
    refilled credits if it could not; seconds to wait, 0 when taken)."""
    credits = min(rule.capacity, credits + max(0.0, now - updated) * rule.rate)
    if credits >= cost:
        return credits - cost, 0.0
    return credits, (cost - credits) / rule.rate


class BucketStore(Protocol):
    async def take(self, key: str, rule: Rule, cost: float, now: float) -> float:
        """Take ``cost`` credits from the bucket ``key``; 0 if taken, else seconds until it could be."""


class MemoryBucketStore:
    """Buckets of one process. Full buckets are dropped every ``sweep_every`` takes, and the
    least recently used ones when more than ``max_keys`` remain (they then start full again)."""

    def __init__(self, max_keys: int = 100_000, sweep_every: int = 1024):
        self.max_keys = max_keys
        self.sweep_every = sweep_every
        self._buckets: dict[str, tuple[float, float, Rule]] = {}
        self._takes = 0

    def __len__(self) -> int:
        return len(self._buckets)

    async def take(self, key: str, rule: Rule, cost: float, now: float) -> float:
        credits, updated, _ = self._buckets.pop(key, (rule.capacity, now, rule))
        credits, wait = take(credits, updated, rule, cost, now)
        self._buckets[key] = (credits, now, rule)  # re-inserted last: dict order is recency order
        self._takes += 1
        if self._takes % self.sweep_every == 0 or len(self._buckets) > self.max_keys:
            self.sweep(now)
        return wait

    def sweep(self, now: float) -> None:
        self._buckets = {key: value for key, value in self._buckets.items()
                         if value[0] + (now - value[1]) * value[2].rate < value[2].capacity}
        excess = len(self._buckets) - self.max_keys
        if excess > 0:
            for key in list(self._buckets)[:excess]:
                del self._buckets[key]


def retry_after_header(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))
