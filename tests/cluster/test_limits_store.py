"""Limits shared through Redis: two processes spend one client's credits together, with the
memory store's arithmetic, and hold one player's sockets within one bound."""

from __future__ import annotations

import asyncio

from app.cluster.limits import RedisBucketStore, RedisSocketCounts
from app.cluster.presence import Presence
from app.limits.store import MemoryBucketStore, Rule
from tests.cluster.helpers import started_buses


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


def test_sockets_per_player_are_bounded_over_every_process(redis_prefix):
    """Two processes hold one player's sockets together within the bound; a close on one makes
    room on the other; a process whose heartbeat stopped (killed) no longer counts; another
    player has a bound of their own."""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            for bus in (a, b):
                await Presence(bus, 30).heartbeat()
            ca, cb = RedisSocketCounts(a), RedisSocketCounts(b)
            assert await ca.open("aki", 3) and await cb.open("aki", 3) and await ca.open("aki", 3)
            assert not await cb.open("aki", 3)  # three over both processes
            assert not await ca.open("aki", 3)
            assert await cb.open("ben", 3)
            await ca.close("aki")
            assert await cb.open("aki", 3)  # a's close made room on b
            assert not await ca.open("aki", 3)
            await b.redis.hset(b.key("nodes"), b.node_id, 0)  # b's heartbeat ran out (killed)
            assert await ca.open("aki", 3) and await ca.open("aki", 3)
            assert not await ca.open("aki", 3)

    asyncio.run(scenario())
