"""A table: a new room, and the host's changes to its size, options and pace until the start."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import engines
from app import store
from app.errors import ApiError
from app.models import Room, RoomSeat
from app.rooms.checks import require_host, require_open
from app.schemas import NewRoom, RoomSettings
from app.security import new_room_id
from app.settings import Settings


def game_of(game: str):
    """The engine of ``game``, or 422 ``unknown_game``."""
    try:
        return engines.get(game)
    except ValueError as exc:
        raise ApiError(422, "unknown_game", str(exc)) from None


def check_table(engine, seats: int, options: dict) -> None:
    """A table of ``seats`` with ``options`` is one ``engine`` plays (its metadata: players, options);
    else 422 ``bad_seats`` / ``bad_options``. For a new room and for the host's changes in the lobby."""
    if not engine.min_players <= seats <= engine.max_players:
        raise ApiError(422, "bad_seats", f"{engine.title} takes {engine.min_players}–{engine.max_players} players, not {seats}")
    try:
        engine.new_game(seats, 0, options)
    except (ValueError, TypeError) as exc:
        raise ApiError(422, "bad_options", f"options {options!r} are not valid for {engine.id}: {exc}") from None


def check_timing(engine, options: dict, grace_seconds: float | None = None, min_grace: float = 0.0) -> None:
    """The host's timing choices leave people time to act: each per-decision clock (an option spec
    with a ``floor``: ``turn_seconds``, Peribit's ``placement_clock``) is 0 (none) or at least its
    floor, and the grace before an away player's seat goes to a bot is 0 (never) or at least
    ``min_grace`` (MIN_GRACE_SECONDS); else 422 ``timing_too_short``, nothing changed. (A grace of
    a fraction of a second made a reconnect an abandonment, a rated loss: issue 48, point 1.)"""
    for spec in engine.options:
        floor = spec.get("floor")
        value = options.get(spec["name"])
        if floor and isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < floor:
            raise ApiError(422, "timing_too_short", f"{spec['name']} {value} is too short: 0 (no clock) or at "
                           f"least {floor} seconds")
    if grace_seconds is not None and 0 < grace_seconds < min_grace:
        raise ApiError(422, "timing_too_short", f"grace_seconds {grace_seconds} is too short: 0 (never hand the "
                       f"seat of an away player to a bot) or at least {min_grace:g} seconds")


def create(session: Session, player_id: str, engine, seats: int, body: NewRoom, settings: Settings,
           address_hash: str | None) -> str:
    """A new open room of ``seats`` hosted by ``player_id``, who sits in the first seat; 409
    ``too_many_rooms`` when they already host the most rooms not yet started. Returns its id."""
    hosting = session.scalar(select(func.count()).select_from(Room)
                             .where(Room.host_id == player_id, Room.status == "open")) or 0
    if hosting >= settings.max_open_rooms_per_player:
        raise ApiError(409, "too_many_rooms", f"you already host {hosting} rooms that have not started "
                       f"(at most {settings.max_open_rooms_per_player}): start or leave one first")
    room = Room(id=new_room_id(), game=engine.id, options=body.options, num_seats=seats, host_id=player_id,
                status="open", bot_think_seconds=body.bot_think_seconds, grace_seconds=body.grace_seconds,
                rated=body.rated, pace=body.pace, on_deadline=body.on_deadline,
                host_address_hash=address_hash)
    session.add(room)
    session.flush()
    session.add_all([RoomSeat(room_id=room.id, seat=i, player_id=player_id if i == 0 else None, private_data={})
                     for i in range(seats)])
    session.commit()
    return room.id


def change(session: Session, room_id: str, player_id: str, body: RoomSettings) -> None:
    """The host's new size, options, rating or pace for an open room. Shrinking moves seated people
    (and bots) from the seats that go into the free seats that stay, in order; 409
    ``too_many_players`` when they do not fit."""
    room = store.get_room(session, room_id, for_update=True)
    require_host(room, player_id, "change the table")
    require_open(room, "the room is {status}: the table can change only before the start")
    engine = engines.get(room.game)
    seats = body.seats if body.seats is not None else room.num_seats
    options = {**(room.options or {}), **(body.options or {})}
    check_table(engine, seats, options)
    check_timing(engine, options)
    rows = store.room_seats(session, room_id)
    if seats < len(rows):
        leaving = [r for r in rows[seats:] if r.player_id is not None]
        free = [r for r in rows[:seats] if r.player_id is None]
        if len(leaving) > len(free):
            taken = sum(1 for r in rows if r.player_id is not None)
            raise ApiError(409, "too_many_players", f"{taken} seats are taken: a table of {seats} cannot hold them")
        for source, target in zip(leaving, free):
            target.player_id, target.private_data = source.player_id, source.private_data
        session.flush()
        for row in rows[seats:]:
            session.delete(row)
    else:
        session.add_all([RoomSeat(room_id=room_id, seat=i, player_id=None, private_data={})
                         for i in range(len(rows), seats)])
    room.num_seats = seats
    room.options = options
    if body.rated is not None:
        room.rated = body.rated
    if body.pace is not None:
        room.pace = body.pace
    if body.on_deadline is not None:
        room.on_deadline = body.on_deadline
    session.commit()
