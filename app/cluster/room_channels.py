"""What a room's channel says to this process, and acting on it: the owner's views (kept by this
process's mirror, or, heard by an owner, telling it that another process took the room over),
presence counts, pushes to this process's sockets, room changes made by another process (seats,
bots, start, abort, moved deadlines) and zombie seats."""

from __future__ import annotations

import logging
from typing import Awaitable, Callable

from pydantic import ValidationError

from app import store
from app.cluster.messages import PresenceCounts, RoomChanged, ToSockets, Views, ZombieSeats, parse
from app.cluster.mirroring import Mirrors
from app.cluster.ownership import Ownership
from app.cluster.placement import Placement
from app.cluster.presence import Presence

log = logging.getLogger("asobiba.cluster")


class RoomChannels:
    def __init__(self, bus, db, rooms: dict, presence: Presence, mirrors: Mirrors, ownership: Ownership,
                 placement: Placement, later: Callable, step_down: Callable[[str], Awaitable[None]]):
        self.bus = bus
        self.db = db
        self.rooms = rooms  # the hub's live rooms
        self.presence = presence
        self.mirrors = mirrors
        self.ownership = ownership
        self.placement = placement
        self.later = later
        self.step_down = step_down

    def heard(self, room_id: str, raw: dict) -> None:
        live = self.rooms.get(room_id)
        if live is None or raw.get("node") == self.bus.node_id:
            return
        try:
            message = parse(raw)
        except ValidationError as exc:
            log.warning("a malformed message on room %s's channel was dropped: %s", room_id, exc)
            return
        match message:
            case Views():
                mirrored = self.mirrors.heard(live, message.node, message.version, message.texts, message.restart,
                                              bool(message.refreshed))
                if mirrored:
                    live.heard_zombies(message.zombies)
                elif self.ownership.owns(room_id) and message.restart:
                    self.later(self.step_down(room_id))  # another process took this room over
            case PresenceCounts():
                if self.presence.heard(room_id, message):
                    live.check_presence()
                    live.push_room()
            case ToSockets():
                live.push_to(message.message, set(message.seats) if message.seats is not None else None, local_only=True)
            case RoomChanged():
                self.later(self.changed(room_id, bool(message.deadlines)))
            case ZombieSeats():  # the owner's bots play for absent people (app/live/zombies.py)
                live.heard_zombies(message.seats)
            case _:
                log.warning("a %s message on room %s's channel was dropped", message.t, room_id)

    async def changed(self, room_id: str, deadlines: bool = False) -> None:
        """Another process changed the room in the database (seats, bots, start, abort; a vacation
        that moved the deadlines of the match, which its owner reads again)."""
        live = self.rooms.get(room_id)
        if live is None:
            return
        info = await self.db.run(store.room_info, room_id)
        bots_before = (set(live.bot_seats), dict(live.bot_levels))
        status_before = live.summary_base.get("status")
        live.apply_info(info)
        live.push_room(now=info.status != status_before)  # a new status before the views it brings
        runner = live.runner
        if self.ownership.owns(room_id) and runner is not None:
            if info.status != "running":  # aborted by an admin elsewhere
                async with runner.lock:
                    runner.status = info.status if info.status == "aborted" else runner.status
                    runner.stop()
                await self.ownership.over(room_id)
            elif (live.bot_seats, live.bot_levels) != bots_before:
                async with runner.lock:
                    runner.reschedule()
            if deadlines and info.status == "running":
                await runner.reload_deadlines()
        else:
            await self.placement.settle(live, info)
