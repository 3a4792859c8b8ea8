"""A room in memory: who sits where, which sockets are connected, and pushing to them.

Each socket gets messages computed for its own seat only; a player with no seat is a spectator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from app import store
from app.live.connection import Connection
from app.models import Player, Room

if TYPE_CHECKING:
    from app.live.hub import Hub
    from app.live.runner import MatchRunner


class LiveRoom:
    def __init__(self, hub: "Hub", room_id: str):
        self.hub = hub
        self.id = room_id
        self.connections: set[Connection] = set()
        self.runner: MatchRunner | None = None
        self.summary_base: dict = {}
        self.seat_by_player: dict[str, int] = {}
        self.bot_seats: set[int] = set()
        self.bot_think_seconds = hub.settings.bot_think_seconds
        self.teams: list[list[int]] | None = None

    # --- seats and summary (reloaded from the database after every change) ---------------------

    def reload(self, session) -> None:
        room: Room = store.get_room(session, self.id)
        seats = store.room_seats(session, self.id)
        ids = [s.player_id for s in seats if s.player_id]
        players = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(ids)))} if ids else {}
        self.seat_by_player = {s.player_id: s.seat for s in seats if s.player_id}
        self.bot_seats = {s.seat for s in seats if s.player_id and players[s.player_id].is_bot}
        if room.bot_think_seconds is not None:
            self.bot_think_seconds = room.bot_think_seconds
        self.summary_base = {
            "id": self.id, "game": room.game, "options": room.options, "status": room.status,
            "host_id": room.host_id, "match_id": room.match_id, "num_seats": room.num_seats,
            "invite_url": f"{self.hub.settings.invite_base()}/r/{self.id}",
            "bot_think_seconds": self.bot_think_seconds,
            "seats": [
                {"seat": s.seat, "player_id": s.player_id,
                 "name": players[s.player_id].name if s.player_id else None,
                 "bot": bool(s.player_id and players[s.player_id].is_bot), "left": s.left}
                for s in seats
            ],
        }

    def summary(self) -> dict:
        """The public room view: seats with names and presence, status, host, match id."""
        online = {c.player_id for c in self.connections if c.player_id}
        seats = [dict(s, connected=bool(s["player_id"]) and (s["bot"] or s["player_id"] in online))
                 for s in self.summary_base.get("seats", [])]
        seated = {s["player_id"] for s in seats}
        spectators = sum(1 for c in self.connections if c.player_id not in seated)
        return dict(self.summary_base, seats=seats, spectators=spectators)

    def seat_of(self, player_id: str | None) -> int | None:
        return self.seat_by_player.get(player_id) if player_id else None

    # --- pushing -----------------------------------------------------------------------------

    def push_room(self) -> None:
        message = {"type": "room", "room": self.summary()}
        for connection in list(self.connections):
            connection.send(message)

    def push_views(self) -> None:
        if self.runner is None:
            return
        by_seat: dict[int | None, dict] = {}
        for connection in list(self.connections):
            seat = self.seat_of(connection.player_id)
            if seat not in by_seat:
                by_seat[seat] = self.runner.message(seat)
            connection.send(by_seat[seat])

    def push_to(self, message: dict, seats: set[int] | None = None) -> None:
        """Send to everyone, or only to sockets of the given seats (e.g. one team)."""
        for connection in list(self.connections):
            if seats is None or self.seat_of(connection.player_id) in seats:
                connection.send(message)

    def on_match_finished(self) -> None:
        self.summary_base["status"] = "finished"
        self.push_room()
