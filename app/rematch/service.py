"""The rematch rules, one transaction each (called through ``asyncio.to_thread``).

A vote locks the room row (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite has one writer at a
time), so of two last votes arriving together exactly one starts the new match and neither is lost."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app import store
from app.errors import ApiError
from app.models import Match, Player, Room
from app.rematch.models import MatchRematch, RematchVote


@dataclass
class RematchState:
    room_id: str
    match_id: str | None  # the finished match a rematch would follow
    confirmed: list[int]  # seats that said yes (bots included)
    waiting: list[int]  # seated people who have not confirmed yet
    rematch_id: str | None  # the new match, once started
    available: bool  # the room's match is over and finished normally

    def as_dict(self) -> dict:
        return {"room_id": self.room_id, "match_id": self.match_id, "confirmed": self.confirmed,
                "waiting": self.waiting, "rematch_id": self.rematch_id, "available": self.available}


def state(session_factory: sessionmaker[Session], room_id: str) -> RematchState:
    with session_factory() as session:
        room = store.get_room(session, room_id)
        return _state(session, room)


def vote(session_factory: sessionmaker[Session], room_id: str, player_id: str) -> tuple[RematchState, Match | None]:
    """Record ``player_id``'s confirmation; returns the new state and the new match if this vote
    completed the set. Refused (nothing changed) unless the caller sits in a finished room."""
    with session_factory() as session, session.begin():
        room = session.scalar(select(Room).where(Room.id == room_id).with_for_update()) \
            if isinstance(room_id, str) and len(room_id) <= 64 else None
        if room is None:
            store.get_room(session, room_id)  # raises the usual 404
        seat = store.seat_of(session, room_id, player_id)
        if seat is None:
            raise ApiError(403, "not_seated", "only a player seated in this room can ask for a rematch")
        if room.status != "finished" or not room.match_id:
            raise ApiError(409, "no_rematch", f"a rematch needs a finished match; the room is {room.status}")
        if session.get(RematchVote, (room.match_id, seat)) is None:
            session.add(RematchVote(match_id=room.match_id, seat=seat, player_id=player_id))
            session.flush()
        current = _state(session, room)
        if current.waiting:
            return current, None
        old_match_id = room.match_id
        for row in store.room_seats(session, room_id):
            row.private_data = {}  # a fresh notebook for a fresh match
            row.left = False
        match = store.start_match(session, room)
        session.flush()
        session.add(MatchRematch(match_id=old_match_id, rematch_id=match.id))
        current.rematch_id = match.id
        return current, match


def links(session: Session, match_id: str) -> dict:
    """The match this one was a rematch of, and the rematch that followed it (ids or None)."""
    before = session.scalar(select(MatchRematch.match_id).where(MatchRematch.rematch_id == match_id))
    after = session.scalar(select(MatchRematch.rematch_id).where(MatchRematch.match_id == match_id))
    return {"match_id": match_id, "rematch_of": before, "rematch_id": after}


def _state(session: Session, room: Room) -> RematchState:
    match_id = room.match_id
    finished = room.status == "finished" and match_id is not None
    rematch_id = session.scalar(select(MatchRematch.rematch_id).where(MatchRematch.match_id == match_id)) if match_id else None
    seats = store.room_seats(session, room.id)
    ids = [s.player_id for s in seats if s.player_id]
    bots = set(session.scalars(select(Player.id).where(Player.id.in_(ids), Player.is_bot.is_(True)))) if ids else set()
    voted = set(session.scalars(select(RematchVote.seat).where(RematchVote.match_id == match_id))) if match_id else set()
    confirmed = sorted(s.seat for s in seats if s.player_id in bots or s.seat in voted)
    waiting = sorted(s.seat for s in seats if s.seat not in confirmed)
    return RematchState(room.id, match_id if finished else None, confirmed if finished else [],
                        waiting if finished else [], rematch_id, finished)
