"""Presence over processes: counts merge, a dead process's sockets stop counting (and count again
if it was only slow)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import redis

from tests.cluster.helpers import started_buses
from tests.support.redis import REDIS_URL
from app.cluster.presence import Presence


def test_counts_merge_across_processes_and_dead_ones_are_dropped(redis_prefix):
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            pa, pb = Presence(a, 0.5), Presence(b, 0.5)
            await pa.heartbeat()
            await pb.heartbeat()
            announce = pa.change("r", "aki", +1)
            pa.change("r", None, +1)
            announce = pa.change("r", None, +1)
            await pa.store("r")
            assert pb.heard("r", announce)
            assert not pb.heard("r", announce)  # nothing new
            assert not pa.heard("r", announce)  # its own echo
            pb.change("r", "ben", +1)
            assert pb.connected("r") == Counter({"aki": 1, None: 2, "ben": 1})
            late = Presence(b, 0.5)  # a process that starts to hold the room later reads the hash
            await late.load("r")
            assert late.connected("r") == Counter({"aki": 1, None: 2})
            assert pb.heard("r", pa.change("r", "aki", -1))
            assert pb.connected("r") == Counter({None: 2, "ben": 1})
            await asyncio.sleep(0.6)  # a stops its heartbeat (killed)
            await pb.heartbeat()
            assert await pb.forget_nodes() == {"r"}
            assert pb.connected("r") == Counter({"ben": 1})
            assert await pb.alive_nodes() == {b.node_id}
            # a was only slow (its sockets are still open): once its heartbeat resumes, it counts again
            await pa.heartbeat()
            assert await pb.forget_nodes() == {"r"}
            assert pb.connected("r") == Counter({None: 2, "ben": 1})
            assert await pb.forget_nodes() == set()
            await pa.leave()  # a clean stop: forgotten at once
            assert await pb.forget_nodes() == {"r"}
            assert pb.connected("r") == Counter({"ben": 1})

    asyncio.run(scenario())


def test_counts_are_stored_before_they_are_announced_and_the_last_announcement_is_the_newest(redis_prefix):
    """A process that starts to hold a room subscribes, then reads the hash: counts announced
    before they were stored could be neither heard nor read by it."""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            pa = Presence(a, 5)
            await pa.heartbeat()
            key = a.key("presence", "r")
            announced, stored_then = [], []
            reader = redis.Redis.from_url(REDIS_URL, decode_responses=True)  # (blocking: reads at once)

            def publish(message):  # what the hash holds at the moment of each announcement
                announced.append(message)
                stored_then.append(json.loads(reader.hget(key, a.node_id)))

            pa.change("r", "aki", +1)
            first = asyncio.ensure_future(pa.announce("r", publish))
            await asyncio.sleep(0)  # the first round is storing; these changes fold into one more round
            for player in ("ben", None, None):
                pa.change("r", player, +1)
                await pa.announce("r", publish)
            await first
            assert len(announced) == 2
            assert stored_then == [m.counts for m in announced]
            assert announced[-1].counts == {"aki": 1, "ben": 1, "": 2}
            late = Presence(b, 5)
            await late.load("r")
            assert late.connected("r") == Counter({"aki": 1, "ben": 1, None: 2})
            reader.close()

    asyncio.run(scenario())
