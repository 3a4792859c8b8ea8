"""The hub of a process in a cluster: any process serves any room, one process owns each running
match.

- Owning: the process that starts a match, or finds a running one with no lease, takes the room's
  lease in Redis, claims the match's next fencing epoch in PostgreSQL, (re)loads the match from the
  database and runs it (actions, timers, bots) like a single server does; every commit of it
  carries the epoch check (``fencing.check``), and every new version's views are published.
- Mirroring: a process with sockets of a room owned elsewhere keeps a ``MirrorMatch`` (the owner's
  views), forwards actions to the owner over Redis and delivers views to its own sockets.
- Sweeping (every ``cluster_sweep_seconds``): renew this process's leases (a lost lease stops its
  runner at once), take over running matches whose lease expired (the owner died: within the
  lease time plus one sweep), forget presence of processes that stopped their heartbeat, drop
  mirrors nobody here watches.
- Redis restarted: subscriptions come back by themselves; then presence is written again and every
  mirror asks its owner for the current views (its sockets resync), leases are taken again by
  their holders (the fencing epoch in PostgreSQL, not Redis, is what makes an owner the owner)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from typing import Any, cast

from redis.exceptions import RedisError
from sqlalchemy import select

from app import store
from app.cluster import fencing
from app.cluster.bus import Bus, RemoteError, Unanswered, Unreachable
from app.cluster.lease import Leases
from app.cluster.mirror import MirrorMatch
from app.cluster.presence import Presence
from app.cluster.room import ClusterRoom
from app.errors import ApiError
from app.live.hub import Hub
from app.models import Match

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
        self.leases = Leases(self.bus, settings.cluster_lease_seconds)
        self.presence = Presence(self.bus, settings.cluster_lease_seconds)
        self.epochs: dict[str, int] = {}  # match id -> the fencing epoch this process holds
        self.owned: dict[str, str] = {}  # room id -> match id this process runs
        self._used: dict[str, float] = {}
        self._asked: dict[str, float] = {}
        self._owners: dict[str, str] = {}  # room id -> the owner whose views arrived last
        self._background: set[asyncio.Task] = set()
        self._sweeper: asyncio.Task | None = None
        self.leaving = False
        writer.before_commit.append(self._fence)
        self.bus.serve("submit", self._serve_submit)
        self.bus.serve("views", self._serve_views)
        self.bus.on_reconnect.append(self._after_reconnect)

    @property
    def node_id(self) -> str:
        return self.bus.node_id

    def later(self, coroutine) -> None:
        """Run ``coroutine`` in the background (kept referenced; failures logged)."""
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cluster task failed: %r", task.exception())

    # --- life ----------------------------------------------------------------------------------

    async def resume_running(self) -> int:
        await self.bus.start()
        await self.presence.heartbeat()
        self._sweeper = asyncio.create_task(self._sweep_forever())
        return await self._take_orphans(from_database=True)

    def shutdown(self) -> None:
        super().shutdown()
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.bus.stop()

    async def hand_over(self) -> None:
        """Called by ``Hub.drain`` once in-flight actions have committed and pushed."""
        await self.leave()

    async def leave(self) -> None:
        """A clean stop (SIGTERM's drain): hand this process's rooms over at once instead of
        after the lease time: stop their timers, forget their epochs (a commit still in flight is
        refused and its client retries elsewhere), release their leases, drop this process's
        presence. Forwarded actions are refused from now on (``not_owner``: the sender retries)."""
        self.leaving = True
        try:
            for room_id, match_id in list(self.owned.items()):
                live = self.rooms.get(room_id)
                if live is not None and live.runner is not None:
                    live.runner.stop()
                self.owned.pop(room_id, None)
                self.epochs.pop(match_id, None)
                await self.leases.release(room_id)
            await self.presence.leave()
        except Exception as exc:
            log.warning("could not hand rooms over on shutdown: %r", exc)

    # --- rooms ---------------------------------------------------------------------------------

    async def room(self, room_id: str):
        self._used[room_id] = time.monotonic()
        return await super().room(room_id)

    async def _load(self, room_id: str):
        info = await self.db.run(store.room_info, room_id)
        if room_id in self.rooms:
            return self.rooms[room_id]
        live = ClusterRoom(self, room_id, self.settings.invite_base(), self.settings.bot_think_seconds,
                           self.settings.room_push_interval)
        live.apply_info(info)
        subscribed = self.bus.subscribe(live.channel, lambda message, r=room_id: self._on_room_message(r, message))
        self.rooms[room_id] = live
        await asyncio.wait_for(subscribed.wait(), 5)  # before reading what later messages change
        await self.presence.load(room_id)
        await self._settle_match(live, info)
        return live

    async def _settle_match(self, live: ClusterRoom, info) -> None:
        """Own, mirror or just show the room's match, as the room's status says."""
        if not info.match_id:
            return
        if info.status != "running":  # over: nothing will change, any process shows it
            if live.runner is None or isinstance(live.runner, MirrorMatch):
                live.attach(self._runner(await self.db.run(store.load_match, info.match_id)))
            return
        if live.id in self.owned and live.runner is not None and not isinstance(live.runner, MirrorMatch):
            return
        if not self.leaving and await self.leases.acquire(live.id):  # (a leaving process takes nothing)
            await self._take(live, info.match_id)
        elif not isinstance(live.runner, MirrorMatch):
            await self._mirror(live, info.match_id, info.game, info.num_seats)

    async def refresh(self, room_id: str) -> ClusterRoom:
        live = cast(ClusterRoom, await super().refresh(room_id))
        live.publish({"t": "room"})
        if room_id in self.owned and live.summary_base.get("status") != "running":
            await self.match_over(room_id)  # aborted here by an admin
        return live

    async def attach_match(self, room_id: str, match_id: str, started=None):
        """The match just started here: own it (or mirror it, if another process was quicker),
        then tell the others, which mirror it. Of ``started`` only the room is taken: the owner
        reloads the match under its lease."""
        live = await self.room(room_id)
        info = started.room if started is not None else await self.db.run(store.room_info, room_id)
        live.apply_info(info)
        live.push_room(now=True)  # "running" before the first view (as in Hub.attach_match)
        await self._settle_match(live, info)
        live.publish({"t": "room"})
        return live.runner

    def forget_if_idle(self, room_id: str) -> None:
        live = self.rooms.get(room_id)
        if live is None or live.connections or room_id in self.owned:
            return
        if time.monotonic() - self._used.get(room_id, 0) < IDLE_SECONDS:  # (also: still loading)
            return
        if live.runner is not None and not isinstance(live.runner, MirrorMatch) and not live.runner.finished \
                and live.runner.status == "running":
            return
        live.close()
        del self.rooms[room_id]
        for memo in (self._used, self._asked, self._owners):
            memo.pop(room_id, None)
        self.bus.unsubscribe(live.channel)
        self.presence.drop(room_id)

    # --- owning --------------------------------------------------------------------------------

    async def _take(self, live: ClusterRoom, match_id: str) -> None:
        """This process holds the lease: claim the epoch, reload the match, run it, tell everyone."""
        epoch = await self.db.run(self._claim, match_id)
        match = await self.db.run(store.load_match, match_id)
        old = live.runner
        if old is not None:
            old.stop()
        self.epochs[match_id] = epoch
        self.owned[live.id] = match_id
        runner = self._runner(match, writer=fencing.FencedWriter(self.writer, epoch))
        if live.absence is None:  # zombie seats are the owner's to decide (on every process's presence)
            self._watch_absence(live)
        live.attach(runner)
        await self.bus.redis.sadd(self.bus.key("running"), live.id)
        if live.runner is not runner:  # a newer take-over of this room (same process) replaced it meanwhile
            runner.stop()
            return
        if runner.finished or runner.status != "running":
            await self.match_over(live.id)
            return
        runner.start_clocks()
        live.publish_views(restart=True)
        live.push_views()
        runner.reschedule()
        log.info("process %s owns room %s (match %s, epoch %s, version %s)", self.node_id, live.id, match_id,
                 epoch, runner.version)

    def _claim(self, session, match_id: str) -> int:
        epoch = fencing.claim(session, match_id, self.node_id)
        session.commit()
        return epoch

    def _fence(self, session, entries) -> None:
        """In the commit's transaction (writer thread)."""
        fencing.check_entries(session, entries, self.epochs)

    async def match_over(self, room_id: str) -> None:
        """The owned match ended: nothing runs any more, any process can show it."""
        match_id = self.owned.pop(room_id, None)
        if match_id is not None:
            self.epochs.pop(match_id, None)
        await self.bus.redis.srem(self.bus.key("running"), room_id)
        await self.leases.release(room_id)

    async def _step_down(self, room_id: str) -> None:
        """This process's lease is gone (another took the room): stop at once, become a mirror."""
        match_id = self.owned.pop(room_id, None)
        if match_id is not None:
            self.epochs.pop(match_id, None)
        live = self.rooms.get(room_id)
        if live is None:
            return
        if live.runner is not None:
            live.runner.stop()
        if live.absence is not None:
            live.absence.stop()
            live.absence = None
        log.warning("process %s lost room %s", self.node_id, room_id)
        info = await self.db.run(store.room_info, room_id)
        live.runner = None
        await self._settle_match(live, info)

    # --- mirroring -----------------------------------------------------------------------------

    async def _mirror(self, live: ClusterRoom, match_id: str, game: str, num_seats: int) -> None:
        async def forward(seat, action, version):
            return await self._forward(live.id, seat, action, version)

        def behind():  # a client asks for versions after ours: ask the owner (once a second at most)
            if time.monotonic() - self._asked.get(live.id, 0) > 1.0:
                self._asked[live.id] = time.monotonic()
                self.later(self._fetch_views(live))

        mirror = MirrorMatch(match_id, game, num_seats, forward, self.settings.resync_window, on_behind=behind)
        live.attach(mirror)  # type: ignore[arg-type]  # a mirror stands in for the runner: the members a room uses
        for _ in range(5):  # the owner may be a moment from having the match (it is loading it)
            await self._fetch_views(live)
            if mirror.ready or live.runner is not mirror:
                return
            await asyncio.sleep(0.1)

    async def _fetch_views(self, live: ClusterRoom) -> None:
        owner = await self.leases.owner(live.id)
        if owner is None or owner == self.node_id or not isinstance(live.runner, MirrorMatch):
            return  # no owner now: the sweep takes the room over
        try:
            body = await self.bus.request(owner, "views", {"room": live.id}, timeout=3)
        except (Unreachable, RemoteError) as exc:
            log.info("views of room %s not available from %s yet: %s", live.id, owner, exc)
            return
        self._owners[live.id] = owner
        if isinstance(live.runner, MirrorMatch):
            live.runner.receive(body["version"], body["texts"], restart=True)

    async def _forward(self, room_id: str, seat: int, action, version) -> int:
        try:
            owner = self._owners.get(room_id) or await self.leases.owner(room_id)
            here = owner is None or owner == self.node_id  # no owner now: this process may take the room
            if here:
                live = self.rooms.get(room_id)
                if owner is None and live is not None:
                    await self._settle_match(live, await self.db.run(store.room_info, room_id))
                if live is None or room_id not in self.owned:
                    raise ApiError(503, "owner_unavailable", "the server running this match is changing; retry in a moment")
        except (RedisError, OSError):  # nothing was sent or applied yet: the client may retry
            raise ApiError(503, "owner_unavailable",
                           "the server running this match cannot be found right now; retry in a moment") from None
        if here:
            assert live is not None and live.runner is not None, "an owned room runs its match"
            return await live.runner.submit(seat, action, version)
        try:
            body = await self.bus.request(owner, "submit", {"room": room_id, "seat": seat, "action": action,
                                                            "version": version}, timeout=10)
        except RemoteError as exc:
            error = exc.payload
            if error.get("code") == "not_owner":
                self._owners.pop(room_id, None)  # ask Redis next time
            raise ApiError(error.get("status", 503), error.get("code", "remote_failure"),
                           error.get("message", "refused")) from None
        except Unanswered:
            self._owners.pop(room_id, None)
            return await self._settle_unanswered(room_id, seat, action, version)
        except Unreachable:
            self._owners.pop(room_id, None)
            raise ApiError(503, "owner_unavailable",
                           "the server running this match is not answering; retry in a moment") from None
        return body["version"]

    async def _settle_unanswered(self, room_id: str, seat: int, action, version) -> int:
        """The owner got a forwarded action but its answer was lost: the log in PostgreSQL says
        whether it was applied. If that version is not there yet, the action may still be in the
        owner's next commit, so the client is told the truth: unknown (its retry at the same
        version cannot apply twice)."""
        live = self.rooms.get(room_id)
        match_id = getattr(live.runner, "match_id", None) if live is not None else None
        entry = await self.db.run(store.log_entry, match_id, version) if match_id and isinstance(version, int) else None
        if entry is not None:
            if entry == (seat, action):
                return version + 1
            raise ApiError(409, "stale_version", f"version {version} was taken by another action; resync")
        raise ApiError(503, "outcome_unknown", "the server running this match did not answer; your action may "
                       "or may not have been applied: resync before acting again")

    async def _serve_submit(self, body: dict) -> dict:
        room_id = str(body.get("room"))
        live = self.rooms.get(room_id)
        if live is None or room_id not in self.owned or self.leaving:
            raise ApiError(503, "not_owner", "this server does not run that match any more; retry")
        seated = next((s["player_id"] for s in live.summary_base.get("seats", []) if s["seat"] == body.get("seat")), None)
        if seated:
            live.seen(seated)  # an action through another process is a sign of life too
        if live.runner is None:
            raise ApiError(503, "not_owner", "this server does not run that match any more; retry")
        seat: Any = body.get("seat")  # checked by the runner, as from any client
        version = await live.runner.submit(seat, body.get("action"), body.get("version"))
        return {"version": version}

    async def _serve_views(self, body: dict) -> dict:
        room_id = str(body.get("room"))
        live = self.rooms.get(room_id)
        if live is None or room_id not in self.owned or live.runner is None:
            raise ApiError(503, "not_owner", "this server does not run that match")
        runner = live.runner
        texts = {str(seat): runner.current(seat)[1].text for seat in range(runner.num_players)}
        texts["-"] = runner.current(None)[1].text
        return {"version": runner.version, "texts": texts}

    # --- what the room channel says --------------------------------------------------------------

    def _on_room_message(self, room_id: str, message: dict) -> None:
        live = self.rooms.get(room_id)
        if live is None or message.get("node") == self.node_id:
            return
        kind = message.get("t")
        if kind == "views":
            self._owners[room_id] = message["node"]
            if isinstance(live.runner, MirrorMatch):
                live.runner.receive(message["version"], message["texts"], restart=message.get("restart", False))
                live.heard_zombies(message.get("zombies", []))
            elif room_id in self.owned and message.get("restart"):
                self.later(self._step_down(room_id))  # another process took this room over
        elif kind == "presence":
            if self.presence.heard(room_id, message):
                live.check_presence()
                live.push_room()
        elif kind == "to":
            seats = message.get("seats")
            live.push_to(message["message"], set(seats) if seats is not None else None, local_only=True)
        elif kind == "room":
            self.later(self._room_changed(room_id))
        elif kind == "zombies":  # the owner's bots play for absent people (app/live/zombies.py)
            live.heard_zombies(message.get("seats"))

    async def _room_changed(self, room_id: str) -> None:
        """Another process changed the room in the database (seats, bots, start, abort)."""
        live = self.rooms.get(room_id)
        if live is None:
            return
        info = await self.db.run(store.room_info, room_id)
        bots_before = (set(live.bot_seats), dict(getattr(live, "bot_levels", {})))
        status_before = live.summary_base.get("status")
        live.apply_info(info)
        live.push_room(now=info.status != status_before)  # a new status before the views it brings
        runner = live.runner
        if room_id in self.owned and runner is not None:
            if info.status != "running":  # aborted by an admin elsewhere
                async with runner.lock:
                    runner.status = info.status if info.status == "aborted" else runner.status
                    runner.stop()
                await self.match_over(room_id)
            elif (live.bot_seats, getattr(live, "bot_levels", {})) != bots_before:
                async with runner.lock:
                    runner.reschedule()
        else:
            await self._settle_match(live, info)

    async def _after_reconnect(self) -> None:
        await self.presence.heartbeat()
        for room_id, live in list(self.rooms.items()):
            await self.presence.announce(room_id, live.publish)
            await self.presence.load(room_id)
            if room_id in self.owned:
                await self.leases.acquire(room_id)
                live.publish_views(restart=False)
            elif isinstance(live.runner, MirrorMatch):
                await self._fetch_views(live)
        await self._take_orphans(from_database=True)

    # --- the sweep -------------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.cluster_sweep_seconds)
            try:
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis down: try again next sweep
                log.warning("cluster sweep failed: %r", exc)

    async def _sweep(self) -> None:
        if self.leaving:
            return
        await self.presence.heartbeat()
        for room_id in await self.presence.forget_nodes():
            if room_id in self.rooms:
                self.rooms[room_id].check_presence()
                self.rooms[room_id].push_room()
        await self._renew()
        await self._take_orphans()
        for room_id in list(self.rooms):
            self.forget_if_idle(room_id)

    async def _renew(self) -> None:
        running = self.bus.key("running")
        for room_id in list(self.owned):
            if not await self.leases.renew(room_id) and not await self.leases.acquire(room_id):
                await self._step_down(room_id)
            else:
                await self.bus.redis.sadd(running, room_id)  # (again, after a Redis restart)

    async def _take_orphans(self, from_database: bool = False) -> int:
        """Take over running rooms whose lease is gone; returns how many this process took.
        ``from_database``: the list of running rooms comes from PostgreSQL (at start, and after
        a Redis restart lost the ``running`` set), else from Redis."""
        if self.leaving:
            return 0
        if from_database:
            running = await self.db.run(_running_room_ids)
        else:
            running = list(await self.bus.redis.smembers(self.bus.key("running")))
        taken = 0
        for room_id, owner in (await self.leases.owners(running)).items():
            if owner is None and await self.leases.acquire(room_id):
                try:
                    live = self.rooms.get(room_id) or await self.room(room_id)
                    if room_id not in self.owned:
                        info = await self.db.run(store.room_info, room_id)
                        if info.status == "running" and info.match_id:
                            await self._take(live, info.match_id)
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
