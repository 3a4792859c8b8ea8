"""One asyncio lock per key (a room, a player), living only while someone holds or waits for it,
so keys seen once leave nothing behind. Waiters get the lock in the order they asked for it
(asyncio's locks are fair), which is what keeps one key's work in the order it arrived."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable


class KeyedLocks:
    def __init__(self) -> None:
        self._entries: dict[Hashable, list] = {}  # key -> [its lock, how many hold or wait for it]

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._entries[key]

    def keys(self) -> set[Hashable]:
        """Keys held or waited for now."""
        return set(self._entries)

    def __len__(self) -> int:
        """Keys held or waited for now."""
        return len(self._entries)
