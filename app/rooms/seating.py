"""Seats of people: joining (or taking one's seat back mid-match), leaving, a seat's private data."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import store
from app.errors import ApiError, bad_seat, seat_name
from app.models import RoomSeat
from app.names import check_seat_mates, name_to_seat
from app.rooms.checks import require_open


def join(session_factory, room_id: str, player_id: str, wanted: int | None) -> None:
    """Seat ``player_id`` in ``wanted`` (default the first free seat) of an open room; a seated
    player who left a running match takes their seat back. Run by ``Hub.write`` (on SQLite one at
    a time with renames), so it opens its own session."""
    with session_factory() as session:
        room = store.get_room(session, room_id, for_update=True)
        seats = store.room_seats(session, room_id)
        mine = next((s for s in seats if s.player_id == player_id), None)
        if mine is not None:
            if wanted is not None and wanted != mine.seat:
                raise ApiError(409, "already_seated", f"you already sit in {seat_name(mine.seat)}; leave it first")
            if mine.left and room.status == "running":
                mine.left = False
                session.commit()
            return
        require_open(room, "the room is {status}; you can watch as a spectator")
        if wanted is not None and not 0 <= wanted < room.num_seats:
            raise bad_seat(wanted, room.num_seats)
        free = [s for s in seats if s.player_id is None and (wanted is None or s.seat == wanted)]
        if not free:
            raise ApiError(409, "seat_taken", f"{seat_name(wanted)} is taken" if wanted is not None else "the room is full")
        # no two look-alike names at one table: the name as committed now (a rename waits for this seat)
        check_seat_mates(session, room_id, player_id, name_to_seat(session, player_id))
        free[0].player_id = player_id
        session.commit()


def leave(session: Session, room_id: str, player_id: str) -> None:
    """Before the start, free the caller's seat; during a match, mark it left (a bot plays it)."""
    room = store.get_room(session, room_id, for_update=True)
    mine = session.scalar(select(RoomSeat).where(RoomSeat.room_id == room_id, RoomSeat.player_id == player_id))
    if mine is None:
        raise ApiError(409, "not_seated", "you have no seat in this room")
    if room.status == "open":
        mine.player_id = None
        mine.private_data = {}
    elif room.status == "running":
        mine.left = True
    else:
        raise ApiError(409, "room_closed", f"the room is {room.status}")
    session.commit()


def my_seat(session: Session, room_id: str, player_id: str) -> RoomSeat:
    """The caller's seat in the room (404 for no room), or 403 ``not_seated``."""
    store.get_room(session, room_id)
    seat = session.scalar(select(RoomSeat).where(RoomSeat.room_id == room_id, RoomSeat.player_id == player_id))
    if seat is None:
        raise ApiError(403, "not_seated", "only a seated player has seat data")
    return seat


def seat_data(session: Session, room_id: str, player_id: str) -> dict[str, Any]:
    return my_seat(session, room_id, player_id).private_data or {}


def save_seat_data(session: Session, room_id: str, player_id: str, data: dict[str, Any]) -> None:
    my_seat(session, room_id, player_id).private_data = data
    session.commit()
