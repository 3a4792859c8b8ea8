"""Limits shared by a cluster's processes, in Redis: rate-limit buckets (``BucketStore``), so a
client's credits are the same whichever process its requests reach, and sockets per player
(``SocketCounts``), so ``MAX_SOCKETS_PER_PLAYER`` holds over every process, not per process.

The bucket math is the memory store's, done in one Lua script so concurrent takes from several
processes cannot both spend the same credit. Each bucket expires once it would be full again (a
new bucket starts full). A player's sockets are one hash, a field per process; a process whose
heartbeat stopped (``app.cluster.presence``) no longer counts, so a killed process does not keep
its players' sockets counted. If Redis cannot be reached, this process's own memory store
decides instead: limits loosen during an outage rather than the whole server refusing everyone."""

from __future__ import annotations

import logging
import time

from redis.exceptions import RedisError

from app.cluster.bus import Bus
from app.limits.socket_counts import MemorySocketCounts
from app.limits.store import MemoryBucketStore, Rule

log = logging.getLogger("asobiba.cluster")

_TAKE = """
local stored = redis.call('HMGET', KEYS[1], 'c', 'u')
local capacity, rate, cost, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local credits = tonumber(stored[1]) or capacity
local updated = tonumber(stored[2]) or now
credits = math.min(capacity, credits + math.max(0, now - updated) * rate)
local wait = 0
if credits >= cost then credits = credits - cost else wait = (cost - credits) / rate end
redis.call('HSET', KEYS[1], 'c', tostring(credits), 'u', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - credits) / rate * 1000) + 1000)
return tostring(wait)"""


class RedisBucketStore:
    def __init__(self, bus: Bus):
        self.bus = bus
        self._take = bus.redis.register_script(_TAKE)
        self._fallback = MemoryBucketStore()

    async def take(self, key: str, rule: Rule, cost: float, now: float) -> float:
        try:
            wait = await self._take(keys=[self.bus.key("bucket", key)],
                                    args=[repr(rule.capacity), repr(rule.rate), repr(cost), repr(now)])
            return float(wait)
        except (RedisError, OSError) as exc:
            log.warning("rate-limit store unreachable (%s); using this process's buckets", exc)
            return await self._fallback.take(key, rule, cost, now)


# A process writes its own count of the player's sockets (its memory is the truth for its own
# sockets, so a write that failed while Redis was down is mended by the next one).
# KEYS: the player's hash (process -> sockets), the heartbeats (process -> alive until, ms).
# ARGV: this process, the limit, now (ms), this process's count with the new socket. Counts of
# processes whose heartbeat stopped are dropped.
_OPEN = """
local nodes = redis.call('HGETALL', KEYS[2])
local alive = {}
for i = 1, #nodes, 2 do alive[nodes[i]] = tonumber(nodes[i + 1]) >= tonumber(ARGV[3]) end
local counts = redis.call('HGETALL', KEYS[1])
local total = tonumber(ARGV[4])
for i = 1, #counts, 2 do
  if counts[i] ~= ARGV[1] then
    if alive[counts[i]] then total = total + tonumber(counts[i + 1]) else redis.call('HDEL', KEYS[1], counts[i]) end
  end
end
if total > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1"""
# ARGV: this process, its count after the close.
_CLOSE = """
if tonumber(ARGV[2]) > 0 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) else redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0"""


class RedisSocketCounts:
    def __init__(self, bus: Bus):
        self.bus = bus
        self._open = bus.redis.register_script(_OPEN)
        self._close = bus.redis.register_script(_CLOSE)
        self._local = MemorySocketCounts()  # this process's sockets (all that counts while Redis is down)

    async def open(self, player_id: str, limit: int) -> bool:
        if not await self._local.open(player_id, limit):
            return False
        try:
            opened = int(await self._open(keys=[self.bus.key("sockets", player_id), self.bus.key("nodes")],
                                          args=[self.bus.node_id, limit, int(time.time() * 1000),
                                                self._local.counts[player_id]]))
        except (RedisError, OSError) as exc:
            log.warning("socket counts unreachable (%s); counting this process's sockets only", exc)
            return True
        if not opened:
            await self._local.close(player_id)
        return bool(opened)

    async def close(self, player_id: str) -> None:
        await self._local.close(player_id)
        try:
            await self._close(keys=[self.bus.key("sockets", player_id)],
                              args=[self.bus.node_id, self._local.counts.get(player_id, 0)])
        except (RedisError, OSError) as exc:
            log.warning("socket counts unreachable (%s); this process's count is written again with its next change", exc)
