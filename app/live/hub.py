"""All live rooms of this server process: it owns the rooms and their runners, loads them from
the database on demand and at start-up (a running match resumes from its latest snapshot plus
the actions after it, its timers restarted), and serializes REST changes per room.

Imports go one way: hub -> room -> match (the ``Match`` protocol); hub -> runner -> timers, views
-> store. Every database call runs off the
event loop (``Database.run``); the action log goes through the group-committing ``ActionWriter``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import select

from app import chat, store
from app.correspondence.path import correspondence_path
from app.db import Database
from app.errors import ApiError
from app.keyed_locks import KeyedLocks
from app.live.match import Match as LiveMatch
from app.live.room import LiveRoom
from app.live.runner import MatchRunner, Writer
from app.live.writer import ActionWriter
from app.live.zombies import AbsenceWatch, record_abandonment
from app.models import Match
from app.push.events import MatchEvents
from app.settings import Settings

log = logging.getLogger("asobiba.hub")
# A new name is pushed to the player's tables that people are looking at: open and running rooms,
# newest first, at most this many (a player hosts at most MAX_OPEN_ROOMS_PER_PLAYER open rooms).
RENAMED_PUSH_ROOMS = 50


def rooms_remembered(hub: Hub) -> set[str]:
    """Every room ``hub`` keeps anything for: loaded, asked for lately, or with its lock held or
    waited for (requests for rooms that do not exist must leave none: memory is bounded by real
    rooms). A function, not a method: the class stays within its size bound."""
    return set(hub.rooms) | set(hub._used) | {str(key) for key in hub._locks.keys()}


class Hub:
    def __init__(self, settings: Settings, db: Database, writer: ActionWriter, clock):
        self.settings = settings
        self.db = db
        self.session_factory = db.session_factory  # for code that runs its own sessions in threads
        self.writer = writer
        self.clock = clock
        self.rooms: dict[str, LiveRoom] = {}
        self._loading: dict[str, asyncio.Future] = {}
        self._locks = KeyedLocks()  # per room, living only while used (a 404 leaves none)
        self._used: dict[str, float] = {}  # room id -> when last asked for (``room``); idle ones are swept
        self._idle_sweeper: asyncio.Task | None = None
        # Work the caller does not wait for (a zombie notice, a new name), kept till it ends.
        self._background: set[asyncio.Task] = set()
        self.bot_threads = ThreadPoolExecutor(max_workers=settings.bot_workers, thread_name_prefix="bots")
        self.notifier = None  # Web Push (app/push/): set by the app; each match run here notifies through it

    async def write(self, fn, *args):
        """``fn(session_factory, *args)``: a short write in its own transaction (a rematch vote). On
        SQLite (one write lock) on the action writer's thread between batches, so neither waits for
        the other; on PostgreSQL in a worker thread (8-13 % fewer moves/s on the writer's path)."""
        if self.writer.one_write_lock:
            return await self.writer.call(fn, *args)
        return await asyncio.to_thread(fn, self.session_factory, *args)

    def lock(self, room_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Held by REST changes to one room (join, leave, start, bots), so racing requests are
        applied one at a time; other rooms are not affected. The lock is dropped when its last
        holder or waiter is done."""
        return self._locks.hold(room_id)

    async def room(self, room_id: str) -> LiveRoom:
        """The live room for ``room_id`` (``ApiError`` 404 if there is none)."""
        self._used[room_id] = self.clock.now()
        live = self.rooms.get(room_id)
        if live is not None:
            return live
        pending = self._loading.get(room_id)
        if pending is None:
            pending = self._loading[room_id] = asyncio.ensure_future(self._load(room_id))
            pending.add_done_callback(lambda _f: self._loading.pop(room_id, None))
        try:
            return await asyncio.shield(pending)
        except BaseException:
            if room_id not in self.rooms:  # a 404 (or an outage) leaves nothing behind
                self._used.pop(room_id, None)
            raise

    async def current_room(self, room_id: str) -> LiveRoom:
        """The room with every change already acknowledged (read your writes): all made here."""
        return await self.room(room_id)

    async def refresh(self, room_id: str, deadlines: bool = False) -> LiveRoom:
        """Re-read seats after a REST change, tell every socket (``deadlines``: a vacation moved them)."""
        live = await self.room(room_id)
        live.apply_info(await self.db.run(store.room_info, room_id))
        live.push_room()
        await (live.runner.reload_deadlines() if deadlines and live.runner is not None else asyncio.sleep(0))
        return live

    def renamed(self, player_id: str, room_ids: list[str]) -> None:
        """A player's name changed: their tables show the new name (``tell_new_name``)."""
        self._in_background(tell_new_name(self, player_id, room_ids[:RENAMED_PUSH_ROOMS]))

    async def attach_match(self, room_id: str, match_id: str, started=None) -> LiveMatch:
        """Run the match just started in ``room_id``. ``started`` (room and match as the starting
        transaction read them, e.g. ``rematch.service.Started``) spares reading them back."""
        live = await self.room(room_id)
        info = started.room if started is not None else await self.db.run(store.room_info, room_id)
        match = started.match if started is not None else await self.db.run(store.load_match, match_id)
        if self.rooms.get(room_id) is not live:  # forgotten meanwhile (its last socket closed): loaded
            live = await self.room(room_id)  # again, it runs the match already; a second runner would race it
        runner = live.runner if live.runner is not None and live.runner.match_id == match_id else None
        if runner is None:
            live.apply_info(info)
            live.push_room(now=True)  # "running" before the first view: no page shows a table beside the lobby
            runner = self._runner(match)
            log.info("match started", extra={"event": "match_started", "game": runner.engine.id,
                                             "room_id": room_id, "match_id": match_id})
            live.attach(runner)
            runner.start_clocks()
            live.push_views()
            runner.reschedule()
        if runner.events is not None:
            runner.events.started(runner)
        return runner

    async def resume_running(self) -> int:
        """Load every running match (after a restart) so its timers and bots go on, and start
        sweeping idle rooms out of memory."""
        room_ids = await self.db.run(lambda s: list(s.scalars(select(Match.room_id).where(Match.status == "running"))))
        await asyncio.gather(*(self.room(room_id) for room_id in room_ids))
        self._idle_sweeper = asyncio.create_task(self._sweep_idle_forever())
        return len(room_ids)

    def forget_if_idle(self, room_id: str) -> None:
        """Drop a room nobody watches and nothing runs in; it is reloaded from the database on demand."""
        live = self.rooms.get(room_id)
        if live and not live.connections and (live.runner is None or live.runner.finished):
            live.close()
            del self.rooms[room_id]
            self._used.pop(room_id, None)

    async def _sweep_idle_forever(self) -> None:
        """Rooms loaded by a request (a GET, a join) and not asked for since ``room_idle_seconds``
        leave memory; a socket's room leaves when its last socket closes. Only rooms used that
        long ago are swept, so a socket between its room lookup and joining keeps its room."""
        idle = self.settings.room_idle_seconds
        while True:
            # Idleness is measured on the hub's clock (a test's clock stands still while it loads
            # rooms); the sweep itself wakes on real time, so it is not a timer of that clock.
            await asyncio.sleep(max(idle / 2, 0.05))
            cutoff = self.clock.now() - idle
            for room_id in [r for r in self.rooms if self._used.get(r, 0) < cutoff]:
                self.forget_if_idle(room_id)

    async def drain(self, code: int = 1012, reason: str = "server restarting") -> None:
        """Graceful shutdown (app/lifecycle.py): actions not yet started are refused; those being
        applied (and those already queued for a runner's lock) commit and push their views; timers
        stop; the rooms are handed over (``hand_over``); then every socket is closed with ``code``
        once its queued messages are written, and every stream ends."""
        runners = [live.runner for live in self.rooms.values() if live.runner is not None]
        for runner in runners:
            runner.closing = True
        for runner in runners:
            async with runner.lock:  # fair: whoever was waiting for it goes first
                runner.stop()
        await self.hand_over()
        await asyncio.gather(*(connection.close_after_flush(code, reason)
                               for live in list(self.rooms.values()) for connection in list(live.connections)))

    async def hand_over(self) -> None:
        """Let other processes take this one's rooms at once (a cluster releases its leases)."""

    def shutdown(self) -> None:
        if self._idle_sweeper is not None:
            self._idle_sweeper.cancel()
        for live in self.rooms.values():
            live.close()
            if live.runner:
                live.runner.stop()
        self.bot_threads.shutdown(wait=False, cancel_futures=True)

    def _runner(self, match: store.MatchInfo, writer: Writer | None = None) -> MatchRunner:
        runner = MatchRunner(match.id, match.game, match.seed, match.num_players, match.state, match.version,
                             match.options, clock=self.clock, writer=writer or self.writer,
                             resync_window=self.settings.resync_window, snapshot_every=self.settings.snapshot_every,
                             status=match.status, bot_threads=self.bot_threads, table=match.table,
                             corr=correspondence_path(match.pace, match.on_deadline, match.stored, self.write))
        if self.notifier is not None and match.room_id:
            room_id = match.room_id
            runner.events = MatchEvents(self.notifier, room_id, lambda: self.rooms.get(room_id))
        return runner

    def _watch_absence(self, live: LiveRoom) -> None:
        """Zombie seats for ``live``: abandonments are recorded before the bot takes the seat, and
        every replacement and return is said in the room's chat (a stored notice)."""
        async def abandoned(seat: int, player_id: str) -> None:
            assert live.runner is not None, "only a running match has zombie seats"
            await self.db.run(record_abandonment, live.runner.match_id, player_id, seat)

        def notice(kind: str, seat: int, player_id: str) -> None:
            self._in_background(self._notice(live, kind, seat, player_id))

        live.absence = AbsenceWatch(self.clock, self.settings.zombie_grace_seconds, abandoned, live.zombies_changed,
                                    notice)

    def _in_background(self, work) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _notice(self, live: LiveRoom, kind: str, seat: int, player_id: str) -> None:
        try:
            stored = await self.db.run(chat.store_notice, live.id, player_id, seat, kind)
        except Exception:  # said in the seats anyway; a lost notice must not break the watch
            log.exception("could not store the %s notice of room %s", kind, live.id)
            return
        live.push_to({"type": "chat", "message": stored})

    async def _load(self, room_id: str) -> LiveRoom:
        def read(session):
            info = store.room_info(session, room_id)
            return info, (store.load_match(session, info.match_id) if info.match_id else None)

        info, match = await self.db.run(read)
        if room_id in self.rooms:  # loaded meanwhile by attach_match/refresh
            return self.rooms[room_id]
        live = LiveRoom(room_id, self.settings)
        self._watch_absence(live)
        live.apply_info(info)
        if match is not None:
            runner = self._runner(match)
            live.attach(runner)
            if not runner.finished and runner.status == "running":
                runner.start_clocks()
                runner.reschedule()
        self.rooms[room_id] = live
        return live


async def tell_new_name(hub: Hub, player_id: str, room_ids: list[str]) -> None:
    """A player's name changed (a rename, a claim under a new name): the tables they sit at
    (``room_ids``: open and running ones, from the database) and any other room loaded here where
    they sit (a finished table still on someone's screen) show the new name. Run in the
    background: the name is stored, and the caller's answer (a claim's only copy of its new
    session token) must neither wait for tables a cluster loads one by one nor fail with one."""
    loaded = [room_id for room_id, live in list(hub.rooms.items())
              if room_id not in room_ids and live.seat_of(player_id) is not None]
    for room_id in [*room_ids, *loaded]:
        try:
            await hub.refresh(room_id)
        except Exception as exc:  # (stored: that table shows the name when it is reachable again)
            log.warning("room %s not told of a new name: %s", room_id, type(exc).__name__)  # (no statement text)
