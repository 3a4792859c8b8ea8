"""Owning running rooms: which matches this process runs, under which fencing epoch.

A process owns a room when it holds the room's lease in Redis (``lease``) *and* the match's
newest epoch in PostgreSQL (``fencing``): taking a room claims ``epoch + 1`` before the match is
reloaded, and every commit carries the epoch check (the writer's ``before_commit`` hook). The
owned match is a ``MatchRunner`` whose listener is an ``OwnerRelay``: the room pushes each
version to this process's sockets, and the relay publishes every seat's view to the others."""

from __future__ import annotations

import logging
from typing import Callable

from app import store
from app.cluster import fencing
from app.cluster.bus import Bus
from app.cluster.lease import Leases
from app.cluster.messages import VIEWS, Views, ViewsAnswer, ViewsAsk, view_texts
from app.errors import ApiError

log = logging.getLogger("asobiba.cluster")


class OwnerRelay:
    """The listener of a match this process owns: the room pushes to its own sockets, then every
    seat's view goes to the other processes; at the end the room is handed back (``over``)."""

    def __init__(self, room, ownership: "Ownership"):
        self.room = room
        self.ownership = ownership
        self.published = -1  # the last version whose views went out

    def on_advanced(self, match) -> None:
        self.room.on_advanced(match)
        if match is self.room.runner:  # the same version again: its deadlines moved (a vacation)
            publish_views(self.room, match, refreshed=match.version == self.published)
            self.published = match.version

    def on_finished(self, match) -> None:
        self.room.on_finished(match)
        if match is self.room.runner:
            self.room.later(self.ownership.over(self.room.id))


def publish_views(room, match, restart: bool = False, refreshed: bool = False) -> None:
    """The owner's views of the current version, for the other processes' sockets. ``restart``:
    a new owner's first views (mirrors start their history over; a stepped-down owner learns it)."""
    room.publish(Views(version=match.version, texts=view_texts(match), restart=restart,
                       zombies=sorted(room.zombie_seats()), refreshed=refreshed or None))


class Ownership:
    def __init__(self, bus: Bus, leases: Leases, db, writer, rooms: dict, make_runner: Callable,
                 watch_absence: Callable):
        self.bus = bus
        self.leases = leases
        self.db = db
        self.writer = writer
        self.rooms = rooms  # the hub's live rooms
        self.make_runner = make_runner  # (match, writer) -> MatchRunner
        self.watch_absence = watch_absence  # starts the zombie-seat watch of a room
        self.epochs: dict[str, int] = {}  # match id -> the fencing epoch this process holds
        self.owned: dict[str, str] = {}  # room id -> match id this process runs
        self.leaving = False  # set by a clean stop: this process takes nothing any more
        writer.before_commit.append(self._fence)
        bus.serve(VIEWS, self._serve_views)

    def owns(self, room_id: str) -> bool:
        return room_id in self.owned

    async def take(self, live, match_id: str) -> None:
        """This process holds the lease: claim the epoch, reload the match, run it, tell everyone."""
        epoch = await self.db.run(self._claim, match_id)
        match = await self.db.run(store.load_match, match_id)
        if live.runner is not None:
            live.runner.stop()
        self.epochs[match_id] = epoch
        self.owned[live.id] = match_id
        runner = self.make_runner(match, fencing.FencedWriter(self.writer, epoch))
        if live.absence is None:  # zombie seats are the owner's to decide (on every process's presence)
            self.watch_absence(live)
        live.attach(runner)
        runner.listener = relay = OwnerRelay(live, self)
        await self.bus.redis.sadd(self.bus.key("running"), live.id)
        if live.runner is not runner:  # a newer take-over of this room (same process) replaced it meanwhile
            runner.stop()
            return
        if runner.finished or runner.status != "running":
            await self.over(live.id)
            return
        runner.start_clocks()
        publish_views(live, runner, restart=True)
        relay.published = runner.version
        live.push_views()
        runner.reschedule()
        log.info("process %s owns room %s (match %s, epoch %s, version %s)", self.bus.node_id, live.id, match_id,
                 epoch, runner.version)

    def _claim(self, session, match_id: str) -> int:
        epoch = fencing.claim(session, match_id, self.bus.node_id)
        session.commit()
        return epoch

    def _fence(self, session, entries) -> None:
        """In the commit's transaction (writer thread)."""
        fencing.check_entries(session, entries, self.epochs)

    def give_up(self, room_id: str) -> None:
        """Forget the room's epoch: a commit of it still in flight is refused."""
        match_id = self.owned.pop(room_id, None)
        if match_id is not None:
            self.epochs.pop(match_id, None)

    async def over(self, room_id: str) -> None:
        """The owned match ended: nothing runs any more, any process can show it."""
        self.give_up(room_id)
        await self.bus.redis.srem(self.bus.key("running"), room_id)
        await self.leases.release(room_id)

    async def renew(self) -> list[str]:
        """Renew every lease of this process; returns the rooms whose lease another process took."""
        running = self.bus.key("running")
        lost = []
        for room_id in list(self.owned):
            if not await self.leases.renew(room_id) and not await self.leases.acquire(room_id):
                lost.append(room_id)
            else:
                await self.bus.redis.sadd(running, room_id)  # (again, after a Redis restart)
        return lost

    async def leave(self) -> None:
        """A clean stop: stop every owned room's timers, forget its epoch (a commit still in
        flight is refused and its client retries elsewhere), release its lease. Forwarded
        actions are refused from now on (``not_owner``: the sender retries)."""
        self.leaving = True
        for room_id in list(self.owned):
            live = self.rooms.get(room_id)
            if live is not None and live.runner is not None:
                live.runner.stop()
            self.give_up(room_id)
            await self.leases.release(room_id)

    async def _serve_views(self, ask: ViewsAsk) -> ViewsAnswer:
        room_id = ask.room
        live = self.rooms.get(room_id)
        if live is None or room_id not in self.owned or live.runner is None:
            raise ApiError(503, "not_owner", "this server does not run that match")
        return ViewsAnswer(version=live.runner.version, texts=view_texts(live.runner))
