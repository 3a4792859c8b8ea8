"""A room in memory: who sits where, which sockets are connected, and pushing to them.

Each socket gets messages computed for its own seat only; a player with no seat is a spectator.
The room listens to its match runner (``on_advanced``, ``on_finished``) and decides what to push:
each seat's view is encoded once per version and the same text goes to every socket of that seat.
Room summaries (seats, presence) are coalesced: at most one per ``push_interval`` seconds, encoded
once for every socket, so a crowd joining costs O(sockets) per push, not per join."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Protocol

from app.live.attendance import Attendance
from app.live.match import Match
from app.live.wire import Encoded
from app.live.zombies import AbsenceWatch
from app.settings import Settings
from app.store import RoomInfo


class Subscriber(Protocol):
    """A socket or stream of one player (``player_id`` None = anonymous spectator)."""

    player_id: str | None

    def send(self, message: dict) -> None: ...
    def send_frame(self, encoded: Encoded) -> None: ...
    async def close_after_flush(self, code: int, reason: str, /) -> None: ...


class LiveRoom:
    def __init__(self, room_id: str, settings: Settings):
        self.id = room_id
        self.invite_base = settings.invite_base()
        self.push_interval = settings.room_push_interval
        # UNATTENDED_TABLES_PLAY: a table nobody is at plays on (else its bots wait: app/live/timers.py)
        self.plays_unattended = settings.unattended_tables_play
        self.connections: set[Subscriber] = set()
        self.runner: Match | None = None
        self.summary_base: dict = {}
        self.seat_by_player: dict[str, int] = {}
        self.bot_seats: set[int] = set()
        self.bot_levels: dict[int, str] = {}  # bot seat -> "easy" | "strong" (zombie seats: easy)
        self.default_bot_think_seconds = self.bot_think_seconds = settings.bot_think_seconds
        self.default_grace_seconds = settings.zombie_grace_seconds
        self._room_push: asyncio.TimerHandle | None = None
        self.absence: AbsenceWatch | None = None  # zombie seats; set by the hub
        self.attendance = Attendance(self)  # is a person here? (app/live/attendance.py)

    # --- seats and summary (set from the database after every change) --------------------------

    def apply_info(self, info: RoomInfo) -> None:
        self.seat_by_player = {s["player_id"]: s["seat"] for s in info.seats if s["player_id"]}
        self.bot_seats = {s["seat"] for s in info.seats if s["bot"]}
        self.bot_levels = {s["seat"]: s["bot_level"] for s in info.seats if s["bot"]}
        self.bot_think_seconds = (info.bot_think_seconds if info.bot_think_seconds is not None
                                  else self.default_bot_think_seconds)
        self.summary_base = {
            "id": self.id, "game": info.game, "options": info.options, "status": info.status,
            "host_id": info.host_id, "match_id": info.match_id, "num_seats": info.num_seats,
            "invite_url": f"{self.invite_base}/r/{self.id}",
            "bot_think_seconds": self.bot_think_seconds,
            # seconds an away player's seat waits before a bot plays it (0 = never): shown before one sits
            "grace_seconds": info.grace_seconds if info.grace_seconds is not None else self.default_grace_seconds,
            "seats": info.seats, "rated": info.rated, "next_room_id": info.next_room_id,
            "night_id": info.night_id, "pace": info.pace, "on_deadline": info.on_deadline,
        }
        if self.absence is not None and info.grace_seconds is not None:
            self.absence.grace = info.grace_seconds
        if self.runner is not None:
            self.configure(self.runner)
        self.check_presence()

    def attach(self, runner: Match) -> None:
        """Take ``runner`` as this room's match and listen to it."""
        self.runner = runner
        runner.listener = self
        self.configure(runner)
        self.check_presence()

    def configure(self, runner: Match) -> None:
        runner.bot_seats = set(self.bot_seats) | self.zombie_seats()
        runner.zombie_seats = self.zombie_seats()
        seats = {s["seat"] for s in self.summary_base.get("seats", [])}
        live = self.summary_base.get("pace", "live") == "live"  # (a correspondence table: its seats attend)
        nobody = (bool(seats) and seats <= runner.bot_seats) or (live and not self.attendance.here()[0])
        runner.unattended = not self.plays_unattended and nobody
        runner.bot_levels = dict(self.bot_levels)
        runner.bot_think_seconds = self.bot_think_seconds

    def connection_counts(self) -> Counter:
        """Sockets and streams per player id (None = without a player); a cluster counts every process's."""
        return Counter(c.player_id for c in self.connections)

    def summary(self) -> dict:
        """The public room view: seats with names and presence, status, host, match id."""
        counts = self.connection_counts()
        online = {player_id for player_id in counts if player_id}
        zombies = self.zombie_seats()
        seats = [dict(s, connected=bool(s["player_id"]) and (s["bot"] or s["player_id"] in online),
                      zombie=s["seat"] in zombies)
                 for s in self.summary_base.get("seats", [])]
        seated = {s["player_id"] for s in seats if s["player_id"]}
        # a socket without a player yet (a visitor still typing a name) is a spectator too
        spectators = sum(n for player_id, n in counts.items() if not player_id or player_id not in seated)
        return dict(self.summary_base, seats=seats, spectators=spectators)

    def seat_of(self, player_id: str | None) -> int | None:
        return self.seat_by_player.get(player_id) if player_id else None

    # --- sockets ----------------------------------------------------------------------------

    def join(self, connection: Subscriber) -> None:
        """Add a socket: it gets the summary at once, everyone else with the next coalesced push."""
        self.connections.add(connection)
        self.check_presence()
        connection.send({"type": "room", "room": self.summary()})
        self.push_room()

    def leave(self, connection: Subscriber) -> None:
        self.connections.discard(connection)
        self.check_presence()
        self.push_room()

    # --- zombie seats (app/live/zombies.py) ----------------------------------------------------

    def zombie_seats(self) -> set[int]:
        return set(self.absence.zombies) if self.absence is not None else set()

    def _running(self) -> bool:
        runner = self.runner
        return runner is not None and runner.status == "running" and not runner.finished

    def check_presence(self) -> None:
        """Tell the absence watch and the attendance who is seated and connected (after any change)."""
        if self.absence is None:
            return
        seats = self.summary_base.get("seats", [])
        humans = {s["seat"]: s["player_id"] for s in seats if s["player_id"] and not s["bot"]}
        left = {s["seat"] for s in seats if s.get("left") and s["seat"] in humans}
        online = {player_id for player_id in self.connection_counts() if player_id}
        if self.absence.update(humans, online, self._running(), left):
            self.zombies_changed()
        self.attendance.check()

    def seen(self, player_id: str) -> None:
        """A REST call of ``player_id`` about this room: present now (takes a zombie seat back)."""
        seat = self.seat_of(player_id)
        if self.absence is None or seat is None:
            return
        connected = any(c.player_id == player_id for c in self.connections)
        if self._running() and seat in self.absence.humans and self.absence.back(seat, seen=not connected):
            self.zombies_changed()
        self.attendance.seen(player_id)

    def zombies_changed(self) -> None:
        """A bot took an absent player's seat, or the player took it back: the runner learns which
        seats its bots play (and starts or cancels their moves), every socket sees the seats."""
        if self.runner is not None:
            self.configure(self.runner)
            if self._running():
                self.runner.reschedule()
        self.push_room()

    # --- pushing -----------------------------------------------------------------------------

    def push_room(self, now: bool = False) -> None:
        """Schedule one summary push for every socket (coalesced with others due in the interval),
        or push it ``now`` (a status change that must follow the view that caused it)."""
        if now:
            self._cancel_room_push()
            self._push_room_now()
            return
        if self._room_push is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._room_push = loop.call_later(self.push_interval, self._push_room_now)

    def _cancel_room_push(self) -> None:
        if self._room_push is not None:
            self._room_push.cancel()
            self._room_push = None

    def _push_room_now(self) -> None:
        self._room_push = None
        if not self.connections:
            return
        encoded = Encoded.of({"type": "room", "room": self.summary()})
        for connection in list(self.connections):
            connection.send_frame(encoded)

    def push_views(self) -> None:
        runner = self.runner
        if runner is None:
            return
        for connection in list(self.connections):
            connection.send_frame(runner.current(self.seat_of(connection.player_id)))

    def push_to(self, message: dict, seats: set[int] | None = None) -> None:
        """Send to everyone, or only to sockets of the given seats (e.g. one team)."""
        encoded = Encoded.of(message)
        for connection in list(self.connections):
            if seats is None or self.seat_of(connection.player_id) in seats:
                connection.send_frame(encoded)

    # --- the runner's events -------------------------------------------------------------------

    def on_advanced(self, runner: Match) -> None:
        self.push_views()

    def on_finished(self, runner: Match) -> None:
        self.summary_base["status"] = "finished"
        self.check_presence()
        self.push_room(now=True)

    def close(self) -> None:
        """The hub forgets this room: nothing of it runs on. (The absence watch holds this room's
        ``zombies_changed`` and the hub's closures over it, and its match listens through it: both
        dropped here, the room and its match are freed by reference counting, not left for a full
        collection.)"""
        self._cancel_room_push()
        self.attendance.stop()
        if self.absence is not None:
            self.absence.stop()
            self.absence = None
        if self.runner is not None:
            self.runner.listener = None
