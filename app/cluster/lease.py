"""Room leases in Redis: which process owns (applies the actions, timers and bots of) a running
room. A lease is ``SET key node NX PX ttl``; only its holder renews or releases it (compare and
set in Lua). A lease says who *should* own a room; the fencing token in PostgreSQL
(``app.cluster.fencing``) is what stops a process that lost its lease from committing."""

from __future__ import annotations

from typing import cast

from app.cluster.bus import Bus

# Renew or delete the lease only if this node still holds it.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0"""


class Leases:
    def __init__(self, bus: Bus, ttl_seconds: float):
        self.bus = bus
        self.ttl_ms = max(int(ttl_seconds * 1000), 100)
        self._renew = bus.redis.register_script(_RENEW)
        self._release = bus.redis.register_script(_RELEASE)

    def _key(self, room_id: str) -> str:
        return self.bus.key("lease", room_id)

    async def acquire(self, room_id: str) -> bool:
        """True when this node holds the lease afterwards (newly taken, or already its own)."""
        if await self.bus.redis.set(self._key(room_id), self.bus.node_id, nx=True, px=self.ttl_ms):
            return True
        return await self.renew(room_id)

    async def renew(self, room_id: str) -> bool:
        return bool(await self._renew(keys=[self._key(room_id)], args=[self.bus.node_id, self.ttl_ms]))

    async def release(self, room_id: str) -> None:
        await self._release(keys=[self._key(room_id)], args=[self.bus.node_id])

    async def owner(self, room_id: str) -> str | None:
        return cast(str | None, await self.bus.redis.get(self._key(room_id)))  # (decoded)

    async def owners(self, room_ids: list[str]) -> dict[str, str | None]:
        if not room_ids:
            return {}
        values = cast(list[str | None], await self.bus.redis.mget([self._key(r) for r in room_ids]))
        return dict(zip(room_ids, values))
