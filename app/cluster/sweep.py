"""The sweep, every ``cluster_sweep_seconds`` on every process: write this process's heartbeat,
stop counting the presence of processes whose heartbeat stopped, renew this process's leases (a
lost lease stops its match at once), take over running rooms whose lease expired (the owner died:
within the lease time plus one sweep), and drop rooms nobody here uses any more."""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from sqlalchemy import select

from app import store
from app.cluster.bus import Bus
from app.cluster.lease import Leases
from app.cluster.ownership import Ownership
from app.cluster.presence import Presence
from app.models import Match

log = logging.getLogger("asobiba.cluster")


class Sweep:
    def __init__(self, seconds: float, db, bus: Bus, leases: Leases, presence: Presence, ownership: Ownership,
                 rooms: dict, load_room: Callable[[str], Awaitable], step_down: Callable[[str], Awaitable],
                 forget_if_idle: Callable[[str], None]):
        self.seconds = seconds
        self.db = db
        self.bus = bus
        self.leases = leases
        self.presence = presence
        self.ownership = ownership
        self.rooms = rooms
        self.load_room = load_room  # the hub's ``room``: the live room, loaded if need be
        self.step_down = step_down
        self.forget_if_idle = forget_if_idle

    async def forever(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                await self.once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis down: try again next sweep
                log.warning("cluster sweep failed: %r", exc)

    async def once(self) -> None:
        if self.ownership.leaving:
            return
        await self.presence.heartbeat()
        for room_id in await self.presence.forget_nodes():
            if room_id in self.rooms:
                self.rooms[room_id].check_presence()
                self.rooms[room_id].push_room()
        for room_id in await self.ownership.renew():
            await self.step_down(room_id)
        await self.take_orphans()
        for room_id in list(self.rooms):
            self.forget_if_idle(room_id)

    async def take_orphans(self, from_database: bool = False) -> int:
        """Take over running rooms whose lease is gone; returns how many this process took.
        ``from_database``: the list of running rooms comes from PostgreSQL (at start, and after
        a Redis restart lost the ``running`` set), else from Redis."""
        if self.ownership.leaving:
            return 0
        if from_database:
            running = await self.db.run(_running_room_ids)
        else:
            running = list(await self.bus.redis.smembers(self.bus.key("running")))
        taken = 0
        for room_id, owner in (await self.leases.owners(running)).items():
            if owner is None and await self.leases.acquire(room_id):
                try:
                    live = self.rooms.get(room_id) or await self.load_room(room_id)
                    if not self.ownership.owns(room_id):
                        info = await self.db.run(store.room_info, room_id)
                        if info.status == "running" and info.match_id:
                            await self.ownership.take(live, info.match_id)
                        else:
                            await self.bus.redis.srem(self.bus.key("running"), room_id)
                            await self.leases.release(room_id)
                            continue
                    taken += 1
                except Exception:
                    await self.leases.release(room_id)
                    raise
        return taken


def _running_room_ids(session) -> list[str]:
    return list(session.scalars(select(Match.room_id).where(Match.status == "running")))
