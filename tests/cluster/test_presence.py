"""Presence over processes: counts merge, a dead process's sockets stop counting."""

from __future__ import annotations

import asyncio
from collections import Counter

from tests.cluster.helpers import started_buses
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

    asyncio.run(scenario())
