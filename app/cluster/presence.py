"""Who is connected to a room, over every process of the cluster.

Each process counts its own sockets and streams per room and player (``None`` = anonymous
spectator), stores its counts in the room's Redis hash under its node id and announces them on the
room's channel (stored first, then announced: a process that starts to hold the room subscribes,
then reads the hash, so it either reads the counts or hears them); every process that holds the
room merges what it hears. Processes write a
heartbeat; counts of a process whose heartbeat stopped stop counting everywhere
(``forget_nodes``), so a killed process does not keep players "connected", and count again if its
heartbeat resumes (it was only slow: its sockets are still open)."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Callable, cast

from app.cluster.bus import Bus
from app.cluster.messages import PresenceCounts

ANONYMOUS = ""  # JSON keys are strings: the anonymous spectator's key


class Presence:
    def __init__(self, bus: Bus, heartbeat_ttl_seconds: float):
        self.bus = bus
        self.ttl_ms = int(heartbeat_ttl_seconds * 1000)
        self.local: dict[str, Counter] = {}
        self.remote: dict[str, dict[str, Counter]] = {}
        self.silent: set[str] = set()  # processes whose heartbeat has stopped: their counts do not count
        self._announcing: dict[str, bool] = {}  # room -> changed again during the current round

    # --- this process ------------------------------------------------------------------------

    def change(self, room_id: str, player_id: str | None, delta: int) -> PresenceCounts:
        """Count a socket in (+1) or out (-1); returns the announcement of the new counts (the
        room publishes it through ``announce``, after storing them)."""
        counts = self.local.setdefault(room_id, Counter())
        counts[player_id or ANONYMOUS] += delta
        if counts[player_id or ANONYMOUS] <= 0:
            del counts[player_id or ANONYMOUS]
        return self._announcement(dict(counts))

    async def announce(self, room_id: str, publish: Callable[[PresenceCounts], None]) -> None:
        """Store this process's counts for the room, then ``publish`` them. One round at a time
        per room, so the hash and the last announcement end with the newest counts; changes made
        during a round are folded into one more."""
        if room_id in self._announcing:
            self._announcing[room_id] = True
            return
        self._announcing[room_id] = False
        try:
            while True:
                publish(self._announcement(await self.store(room_id)))
                if not self._announcing[room_id]:
                    return
                self._announcing[room_id] = False
        finally:
            del self._announcing[room_id]

    async def store(self, room_id: str) -> dict:
        """Write this process's counts for the room to its hash; returns the counts written."""
        counts = dict(self.local.get(room_id) or {})
        key = self.bus.key("presence", room_id)
        if counts:
            await self.bus.redis.hset(key, self.bus.node_id, json.dumps(counts))
            await self.bus.redis.pexpire(key, 86_400_000)
        else:
            self.local.pop(room_id, None)
            await self.bus.redis.hdel(key, self.bus.node_id)
        return counts

    async def heartbeat(self) -> None:
        await self.bus.redis.hset(self.bus.key("nodes"), self.bus.node_id, int(time.time() * 1000) + self.ttl_ms)

    async def leave(self) -> None:
        """A clean shutdown: others drop this process's counts at once."""
        for room_id in list(self.local):
            await self.bus.redis.hdel(self.bus.key("presence", room_id), self.bus.node_id)
        await self.bus.redis.hdel(self.bus.key("nodes"), self.bus.node_id)

    def _announcement(self, counts: dict) -> PresenceCounts:
        return PresenceCounts(node=self.bus.node_id, counts=counts)

    # --- the others --------------------------------------------------------------------------

    def heard(self, room_id: str, message: PresenceCounts) -> bool:
        """Merge another process's announcement; True when something changed."""
        node = message.node
        if node == self.bus.node_id:
            return False
        counts = Counter({k: v for k, v in message.counts.items() if v > 0})
        nodes = self.remote.setdefault(room_id, {})
        if nodes.get(node, Counter()) == counts:
            return False
        if counts:
            nodes[node] = counts
        else:
            nodes.pop(node, None)
        return True

    async def load(self, room_id: str) -> None:
        """Read every live process's counts for a room this process starts to hold."""
        stored = await self.bus.redis.hgetall(self.bus.key("presence", room_id))
        alive = await self.alive_nodes()
        self.remote[room_id] = {node: Counter(json.loads(text)) for node, text in stored.items()
                                if node != self.bus.node_id and node in alive}

    def drop(self, room_id: str) -> None:
        self.remote.pop(room_id, None)

    async def alive_nodes(self) -> set[str]:
        now = int(time.time() * 1000)
        nodes = cast(dict[str, str], await self.bus.redis.hgetall(self.bus.key("nodes")))  # (decoded)
        return {node for node, until in nodes.items() if int(until) >= now}

    async def forget_nodes(self) -> set[str]:
        """Stop counting processes whose heartbeat stopped (and count them again once it resumes);
        forget those that left (no heartbeat entry at all). Returns the rooms whose totals changed."""
        now = int(time.time() * 1000)
        nodes = cast(dict[str, str], await self.bus.redis.hgetall(self.bus.key("nodes")))  # (decoded)
        silent = {node for node, until in nodes.items() if int(until) < now and node != self.bus.node_id}
        flipped = silent ^ self.silent
        self.silent = silent
        changed = set()
        for room_id, by_node in self.remote.items():
            for node in [n for n in by_node if n not in nodes]:
                del by_node[node]
                changed.add(room_id)
            if flipped.intersection(by_node):
                changed.add(room_id)
        return changed

    # --- reading -----------------------------------------------------------------------------

    def connected(self, room_id: str) -> Counter:
        """Sockets per player id (``None`` = anonymous) over every process."""
        total = Counter({(k or None): v for k, v in (self.local.get(room_id) or {}).items()})
        for node, counts in (self.remote.get(room_id) or {}).items():
            if node not in self.silent:
                total.update({(k or None): v for k, v in counts.items()})
        return total
