"""Mirroring rooms owned by another process: which rooms this process mirrors, and keeping each
mirror (``MirrorMatch``) up to date: from the views the owner publishes after every version, and
by asking the owner for its current views (when the mirror starts, when a client syncs from the
mirror's own version, after a Redis reconnect)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

from app.cluster.bus import Bus, RemoteError, Unreachable
from app.cluster.lease import Leases
from app.cluster.messages import VIEWS, ViewsAsk
from app.cluster.mirror import MirrorMatch

log = logging.getLogger("asobiba.cluster")


class Mirrors:
    def __init__(self, bus: Bus, leases: Leases, owners: dict[str, str], resync_window: int, later: Callable,
                 forward: Callable):
        self.bus = bus
        self.leases = leases
        self.owners = owners  # room id -> the owner whose views arrived last (shared with forwarding)
        self.resync_window = resync_window
        self.later = later
        self.forward = forward  # (room id, seat, action, version) -> new version
        self.held: dict[str, MirrorMatch] = {}  # room id -> its mirror (while the room shows it)
        self._asked: dict[str, float] = {}

    def holds(self, live) -> bool:
        """True while the room shows this process's mirror of its match."""
        return live.runner is not None and self.held.get(live.id) is live.runner

    async def mirror(self, live, match_id: str, game: str, num_seats: int) -> MirrorMatch:
        async def forward(seat, action, version):
            return await self.forward(live.id, seat, action, version)

        def behind():  # a client asks for versions after ours: ask the owner (once a second at most)
            if time.monotonic() - self._asked.get(live.id, 0) > 1.0:
                self._asked[live.id] = time.monotonic()
                self.later(self.fetch_views(live))

        async def catch_up():  # the owner's views now, as the next version if they are (history kept)
            await self.fetch_views(live, restart=False)

        mirror = self.held[live.id] = MirrorMatch(match_id, game, num_seats, forward, self.resync_window,
                                                  on_behind=behind, catch_up=catch_up)
        live.attach(mirror)
        for _ in range(5):  # the owner may be a moment from having the match (it is loading it)
            await self.fetch_views(live)
            if mirror.ready or live.runner is not mirror:
                break
            await asyncio.sleep(0.1)
        return mirror

    async def fetch_views(self, live, restart: bool = True) -> None:
        """Ask the room's owner for its current views (``restart``: the mirror's history starts over)."""
        owner = await self.leases.owner(live.id)
        if owner is None or owner == self.bus.node_id or not self.holds(live):
            return  # no owner now: the sweep takes the room over
        try:
            answer = await self.bus.request(owner, VIEWS, ViewsAsk(room=live.id), timeout=3)
        except (Unreachable, RemoteError) as exc:
            log.info("views of room %s not available from %s yet: %s", live.id, owner, exc)
            return
        self.owners[live.id] = owner
        if self.holds(live):
            live.runner.receive(answer.version, dict(answer.texts), restart=restart)

    def heard(self, live, owner: str, version: int, texts: dict[str, str], restart: bool,
              refreshed: bool = False) -> bool:
        """The owner ``owner`` published views of the room: False when this process mirrors no
        match there (it may be the owner)."""
        self.owners[live.id] = owner
        if not self.holds(live):
            return False
        live.runner.receive(version, texts, restart=restart, refreshed=refreshed)
        return True

    def forget(self, room_id: str) -> None:
        for memo in (self.held, self._asked, self.owners):
            memo.pop(room_id, None)
