"""The rematch rules, one transaction each (a vote runs as one of the live path's short writes:
``Hub.write``).

A vote locks the room row before it reads anything (a no-op UPDATE: a row lock on PostgreSQL, the
one write lock on SQLite), so of two last votes arriving together exactly one starts the new
match and neither is lost. The statements are Core and built once: two votes end every match, and
on a busy server the ORM's cost per statement was most of a match's end."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from app import store
from app.errors import ApiError, not_found
from app.limits.tables import check_restart
from app.models import Match, Room, RoomSeat, utcnow
from app.rematch.models import MatchRematch, RematchVote
from app.settings import Settings


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


@dataclass
class Started:
    """The rematch that a vote started, read in the vote's transaction, so the live room can run it
    without reading it back (``Hub.attach_match``)."""

    room: store.RoomInfo
    match: store.MatchInfo


_VOTES = RematchVote.__table__
# Built once (a vote is two per match on a busy server; building a statement costs more than
# running it). The room row is locked by writing it (a no-op UPDATE, which returns the row: one
# statement) before anything else is read: of two last votes arriving together, one starts the
# match and the other sees it. (``SELECT ... FOR UPDATE`` locks nothing on SQLite, whose
# transaction takes the one write lock at its first write.)
_ROOMS = Room.__table__
_LOCK_ROOM = (update(_ROOMS).where(_ROOMS.c.id == bindparam("b_room")).values(status=_ROOMS.c.status)
              .returning(*_ROOMS.c))
_VOTED = select(_VOTES.c.seat).where(_VOTES.c.match_id == bindparam("b_match"))
# The seats, each with whether it voted on the finished match ``b_match``: one statement (one
# round trip on PostgreSQL) instead of the seats and then the votes.
_SEATS_VOTED = (store.SEAT_ROWS.add_columns(_VOTES.c.seat.is_not(None).label("voted"))
                .outerjoin(_VOTES, (_VOTES.c.match_id == bindparam("b_match"))
                           & (_VOTES.c.seat == RoomSeat.__table__.c.seat)))
_ADD_VOTE = insert(_VOTES)
_RESET_SEAT = (update(RoomSeat.__table__)
               .where(RoomSeat.__table__.c.room_id == bindparam("b_room"), RoomSeat.__table__.c.seat == bindparam("b_seat")))
_LINK = insert(MatchRematch.__table__)


def vote(session_factory: sessionmaker[Session], room_id: str, player_id: str,
         settings: Settings | None = None) -> tuple[RematchState, Started | None]:
    """Record ``player_id``'s confirmation; returns the new state and, if this vote completed the
    set, the new match. Refused (nothing changed) unless the caller sits in a finished room."""
    with session_factory() as session, session.begin():
        connection = session.connection()
        room = connection.execute(_LOCK_ROOM, {"b_room": room_id}).first() \
            if isinstance(room_id, str) and len(room_id) <= 64 else None
        if room is None:
            store.get_room(session, room_id)  # raises the usual 404
        assert room is not None, "a room that exists is locked"
        seats = connection.execute(_SEATS_VOTED, {"b_room": room_id, "b_match": room.match_id}).all()
        seat = next((row.seat for row in seats if row.player_id == player_id), None)
        if seat is None:
            raise ApiError(403, "not_seated", "only a player seated in this room can ask for a rematch")
        if room.status != "finished" or not room.match_id:
            raise ApiError(409, "no_rematch", f"a rematch needs a finished match; the room is {room.status}")
        voted = {row.seat for row in seats if row.voted}
        if seat not in voted:
            connection.execute(_ADD_VOTE, {"match_id": room.match_id, "seat": seat, "player_id": player_id,
                                           "created_at": utcnow()})
            voted.add(seat)
        # An empty seat waits like a person who has not answered. A finished room has no rematch
        # yet (starting one makes the room run the new match).
        current = _tally(room_id, room.match_id, seats, voted, None)
        if current.waiting:
            return current, None
        # A fresh notebook for a fresh match; a bot keeps its level.
        reset = [{"b_room": room_id, "b_seat": row.seat, "left": False,
                  "private_data": {"bot_level": row.private_data["bot_level"]}
                  if row.is_bot and "bot_level" in (row.private_data or {}) else {}}
                 for row in seats]
        if settings is not None:  # the caps on one host's running tables and bots, as at Start
            check_restart(session, room_id, room.host_id, room.pace, room.host_address_hash, settings,
                          bots=sum(1 for row in seats if row.is_bot))
        connection.execute(_RESET_SEAT, reset)
        match, running = store.begin_match(session, room, seats)
        connection.execute(_LINK, {"match_id": room.match_id, "rematch_id": match.id, "created_at": utcnow()})
        current.rematch_id = match.id
        # the seats as this transaction left them (not read back: a round trip on PostgreSQL)
        now_seated = [SimpleNamespace(**{**row._mapping, "left": False, "private_data": values["private_data"]})
                      for row, values in zip(seats, reset)]
        return current, Started(store.room_info_of(connection, running, now_seated), match)


def match_links(session_factory: sessionmaker[Session], match_id: str) -> dict:
    """``links`` of a match that exists, else 404 ``not_found``."""
    with session_factory() as session:
        if session.get(Match, match_id) is None:
            raise not_found("match", match_id)
        return links(session, match_id)


def links(session: Session, match_id: str) -> dict:
    """The match this one was a rematch of, and the rematch that followed it (ids or None)."""
    before = session.scalar(select(MatchRematch.match_id).where(MatchRematch.rematch_id == match_id))
    after = session.scalar(select(MatchRematch.rematch_id).where(MatchRematch.match_id == match_id))
    return {"match_id": match_id, "rematch_of": before, "rematch_id": after}


def _state(session: Session, room: Room) -> RematchState:
    match_id = room.match_id if room.status == "finished" else None
    rematch_id = session.scalar(select(MatchRematch.rematch_id).where(MatchRematch.match_id == room.match_id)) \
        if room.match_id else None
    seats = session.execute(store.SEAT_ROWS, {"b_room": room.id}).all()
    voted = set(session.execute(_VOTED, {"b_match": match_id}).scalars()) if match_id else set()
    return _tally(room.id, match_id, seats, voted, rematch_id)


def _tally(room_id: str, match_id: str | None, seats, voted: set[int], rematch_id: str | None) -> RematchState:
    """Who confirmed (bots at once) and who is still asked, for the finished match ``match_id``
    (None: the room's match is not over, so there is nothing to confirm)."""
    if match_id is None:
        return RematchState(room_id, None, [], [], rematch_id, False)
    confirmed = sorted(row.seat for row in seats if row.is_bot or row.seat in voted)
    waiting = sorted(row.seat for row in seats if row.seat not in confirmed)
    return RematchState(room_id, match_id, confirmed, waiting, rematch_id, True)
