"""Rate-limit buckets in Redis (the ``app.limits`` ``BucketStore`` protocol), so a client's credits
are the same whichever process its requests reach. The bucket math is the memory store's, done in
one Lua script so concurrent takes from several processes cannot both spend the same credit.
Each bucket expires once it would be full again (a new bucket starts full). If Redis cannot be
reached the take is made in this process's own memory store instead: limits loosen during an
outage rather than the whole server refusing everyone."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError

from app.cluster.bus import Bus
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
