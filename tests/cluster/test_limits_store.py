"""Rate-limit buckets shared through Redis: two processes spend one client's credits together,
with the memory store's arithmetic."""

from __future__ import annotations

import asyncio

from tests.cluster.helpers import started_buses
from app.cluster.limits import RedisBucketStore
from app.limits.store import MemoryBucketStore, Rule


def test_two_processes_share_one_bucket_and_match_the_memory_store(redis_prefix):
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            sa, sb, memory = RedisBucketStore(a), RedisBucketStore(b), MemoryBucketStore()
            rule = Rule(5, 10)  # 5 credits, 0.5 per second
            now = 1000.0
            shared, alone = [], []
            for i in range(8):  # alternate processes: together they get 5, like one process
                store = sa if i % 2 == 0 else sb
                shared.append(await store.take("chat:token:t1", rule, 1, now))
                alone.append(await memory.take("chat:token:t1", rule, 1, now))
            assert shared == alone
            assert shared[:5] == [0.0] * 5 and all(w > 0 for w in shared[5:])
            assert abs(shared[5] - 2.0) < 1e-9  # one credit takes 2 s at 0.5/s
            assert await sb.take("chat:token:t1", rule, 1, now + 2.0) == 0.0  # refilled after 2 s
            assert await sa.take("chat:token:t2", rule, 1, now) == 0.0  # another client, its own bucket
            ttl = await a.redis.pttl(a.key("bucket", "chat:token:t1"))
            assert 0 < ttl <= 11_000  # forgotten once it would be full again
            # Many concurrent takes from both processes never spend more than the capacity.
            waits = await asyncio.gather(*((sa if i % 2 else sb).take("rooms:ip:1.2.3.4", rule, 1, now)
                                           for i in range(40)))
            assert waits.count(0.0) == 5

    asyncio.run(scenario())
