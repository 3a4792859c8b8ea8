"""How many live sockets each player holds, for the bound ``MAX_SOCKETS_PER_PLAYER`` (a bound on
open connections, not a rate). ``SocketCounts`` is the protocol a shared store implements (Redis,
for a cluster: the bound then holds over every process); ``MemorySocketCounts`` counts this
process's sockets."""

from __future__ import annotations

from collections import Counter
from typing import Protocol


class SocketCounts(Protocol):
    async def open(self, player_id: str, limit: int) -> bool: ...

    async def close(self, player_id: str) -> None: ...


class MemorySocketCounts:
    def __init__(self):
        self.counts: Counter[str] = Counter()

    async def open(self, player_id: str, limit: int) -> bool:
        """Count a new socket of ``player_id``; False (nothing counted) when it holds ``limit``."""
        if self.counts[player_id] >= limit:
            return False
        self.counts[player_id] += 1
        return True

    async def close(self, player_id: str) -> None:
        self.counts[player_id] -= 1
        if self.counts[player_id] <= 0:
            del self.counts[player_id]
