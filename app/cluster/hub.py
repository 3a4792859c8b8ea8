"""The hub of a process in a cluster: any process serves any room, one process owns each running
match. The hub loads rooms and wires the cluster's parts, each with one job:

- ``placement``: own, mirror or just show a room's match (returns it as a ``Match``);
- ``ownership``: leases and fencing epochs of the rooms this process runs, publishing their views;
- ``mirroring``: mirrors of matches owned elsewhere, kept up to date from the owner's views;
- ``forwarding``: a mirror's actions to the owner, and the actions forwarded here;
- ``sweep``: heartbeat, lease renewal, take-overs of rooms whose owner died, idle rooms;
- ``room_channels``: what each room's channel says (views, presence, pushes, room changes).

The hub itself loads and drops rooms (a room that cannot be loaded to the end while Redis is down
is not kept), and resyncs after Redis restarted: subscriptions come back by themselves; then presence is written
again and every mirror asks its owner for the current views (its sockets resync), leases are taken
again by their holders (the fencing epoch in PostgreSQL, not Redis, is what makes an owner the
owner)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from typing import cast

from redis.exceptions import RedisError

from app import store
from app.cluster.background import Background
from app.cluster.bus import Bus
from app.cluster.forwarding import Forwarding
from app.cluster.lease import Leases
from app.cluster.messages import RoomChanged
from app.cluster.mirroring import Mirrors
from app.cluster.ownership import Ownership, publish_views
from app.cluster.placement import Placement
from app.cluster.presence import Presence
from app.cluster.room import ClusterRoom
from app.cluster.room_channels import RoomChannels
from app.cluster.sweep import Sweep
from app.errors import ApiError
from app.live.hub import Hub

log = logging.getLogger("asobiba.cluster")

# A room nobody here has used for this long, and this process does not run, is dropped from memory
# (it is rebuilt on demand).
IDLE_SECONDS = 30.0


class ClusterHub(Hub):
    rooms: dict[str, ClusterRoom]  # type: ignore[assignment]  # Hub's, which ClusterHub fills with ClusterRoom

    def __init__(self, settings, db, writer, clock):
        super().__init__(settings, db, writer, clock)
        # The node id names the process in logs and in match_owners: host, port, then a random part.
        self.bus = Bus(settings.redis_url, settings.cluster_prefix,
                       f"{socket.gethostname()[:16]}:{settings.port}:{secrets.token_hex(3)}")
        self.background = Background()
        self.leases = Leases(self.bus, settings.cluster_lease_seconds)
        self.presence = Presence(self.bus, settings.cluster_lease_seconds)
        owners: dict[str, str] = {}  # room id -> the owner whose views arrived last
        self.ownership = Ownership(self.bus, self.leases, db, writer, self.rooms,
                                   lambda match, fenced: self._runner(match, writer=fenced), self._watch_absence)
        self.mirrors = Mirrors(self.bus, self.leases, owners, settings.resync_window, self.background.later,
                               lambda *action: self.forwarding.forward(*action))
        self.placement = Placement(db, self.leases, self.ownership, self.mirrors, self._runner)
        self.forwarding = Forwarding(self.bus, self.leases, db, self.rooms, self.ownership, owners,
                                     self.placement.settle)
        self.sweep = Sweep(settings.cluster_sweep_seconds, db, self.bus, self.leases, self.presence,
                           self.ownership, self.rooms, self.room, self._step_down, self.forget_if_idle)
        self.channels = RoomChannels(self.bus, db, self.rooms, self.presence, self.mirrors, self.ownership,
                                     self.placement, self.background.later, self._step_down)
        self._sweeper: asyncio.Task | None = None
        self.bus.on_reconnect.append(self._after_reconnect)

    @property
    def node_id(self) -> str:
        return self.bus.node_id

    # --- life ----------------------------------------------------------------------------------

    async def resume_running(self) -> int:
        await self.bus.start()
        await self.presence.heartbeat()
        self._sweeper = asyncio.create_task(self.sweep.forever())
        return await self.sweep.take_orphans(from_database=True)

    def shutdown(self) -> None:
        super().shutdown()
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.bus.stop()

    async def hand_over(self) -> None:
        """Called by ``Hub.drain`` once in-flight actions have committed and pushed: a clean stop
        hands this process's rooms over at once instead of after the lease time, and drops its
        presence."""
        try:
            await self.ownership.leave()
            await self.presence.leave()
        except Exception as exc:
            log.warning("could not hand rooms over on shutdown: %r", exc)

    # --- rooms ---------------------------------------------------------------------------------

    async def room(self, room_id: str) -> ClusterRoom:
        return cast(ClusterRoom, await super().room(room_id))

    async def current_room(self, room_id: str) -> ClusterRoom:
        """Read your writes: another process may have started the match a moment ago, its
        RoomChanged still on the way here; a room without a match reads the database as hearing
        that message would (a view asked for through this process right after a start got 409)."""
        live = await self.room(room_id)
        if live.runner is None:
            await self.channels.changed(room_id)
        return live

    async def _load(self, room_id: str):
        info = await self.db.run(store.room_info, room_id)
        if room_id in self.rooms:
            return self.rooms[room_id]
        live = ClusterRoom(self.bus, self.presence, self.background.later, room_id, self.settings)
        live.apply_info(info)
        subscribed = self.bus.subscribe(live.channel, lambda message, r=room_id: self.channels.heard(r, message))
        self.rooms[room_id] = live
        try:
            await asyncio.wait_for(subscribed.wait(), 5)  # before reading what later messages change
            await self.presence.load(room_id)
            await self.placement.settle(live, info)
        except (asyncio.TimeoutError, RedisError, OSError) as exc:
            # Redis is down (or was, a moment ago): a room kept half loaded would show no match to
            # its sockets for as long as they stay (a sync finds no runner): the next use loads it again.
            log.warning("room %s could not be loaded while Redis is unreachable: %r", room_id, exc)
            self._unload(room_id)
            raise ApiError(503, "owner_unavailable", "the server running this match is changing; retry in a moment") \
                from None
        except BaseException:
            self._unload(room_id)
            raise
        return live

    async def refresh(self, room_id: str, deadlines: bool = False) -> ClusterRoom:
        live = cast(ClusterRoom, await super().refresh(room_id, deadlines))
        live.publish(RoomChanged(deadlines=deadlines or None))
        if self.ownership.owns(room_id) and live.summary_base.get("status") != "running":
            await self.ownership.over(room_id)  # aborted here by an admin
        return live

    async def attach_match(self, room_id: str, match_id: str, started=None):
        """The match just started here: own it (or mirror it, if another process was quicker),
        then tell the others, which mirror it. Of ``started`` only the room is taken: the owner
        reloads the match under its lease."""
        live = await self.room(room_id)
        info = started.room if started is not None else await self.db.run(store.room_info, room_id)
        live.apply_info(info)
        live.push_room(now=True)  # "running" before the first view (as in Hub.attach_match)
        match = await self.placement.settle(live, info)
        live.publish(RoomChanged())
        if match is not None and match.events is not None:  # run here: its first turn is told from here
            match.events.started(match)
        return match

    def forget_if_idle(self, room_id: str) -> None:
        live = self.rooms.get(room_id)
        if live is None or live.connections or self.ownership.owns(room_id):
            return
        if time.monotonic() - self._used.get(room_id, 0) < IDLE_SECONDS:  # (also: still loading)
            return
        runner = live.runner
        if runner is not None and not self.mirrors.holds(live) and not runner.finished and runner.status == "running":
            return
        self._unload(room_id)

    def _unload(self, room_id: str) -> None:
        """Drop a room from memory (idle, or not loaded to the end): nothing here runs or mirrors it
        any more. (A lease taken on the way expires by itself; its epoch is forgotten here, so a
        commit still in flight is refused.)"""
        live = self.rooms.pop(room_id, None)
        if live is None:
            return
        self.ownership.give_up(room_id)
        if live.runner is not None:
            live.runner.stop()
        live.close()
        self._used.pop(room_id, None)
        self.mirrors.forget(room_id)
        self.bus.unsubscribe(live.channel)
        self.presence.drop(room_id)

    async def _step_down(self, room_id: str) -> None:
        self.ownership.give_up(room_id)
        live = self.rooms.get(room_id)
        if live is not None:
            await self.placement.step_down(live)

    async def _after_reconnect(self) -> None:
        await self.presence.heartbeat()
        for room_id, live in list(self.rooms.items()):
            await self.presence.announce(room_id, live.publish)
            await self.presence.load(room_id)
            if self.ownership.owns(room_id):
                await self.leases.acquire(room_id)
                publish_views(live, live.runner)
            elif self.mirrors.holds(live):
                await self.mirrors.fetch_views(live)
        await self.sweep.take_orphans(from_database=True)
