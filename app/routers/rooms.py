"""Rooms: private by link (the id is the secret), seats, start, the caller's view and actions.

Changes run in a database worker (``db.run``) under the room's lock (``hub.lock``), so racing
requests for one room are applied one at a time while other rooms go on."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Body, Request
from sqlalchemy import func, select

import engines
from app import store
from app.deps import CurrentPlayer, DbDep, HubDep, OptionalPlayer, SettingsDep, client_ip
from app.errors import ApiError, bad_seat, seat_name
from app.limits.rest import rate_limit
from app.limits.tables import address_hash, check_start
from app.models import Room, RoomSeat
from app.protocol import ViewMessage
from app.names import check_seat_mates, name_to_seat
from app.schemas import ActionIn, JoinRoom, JsonObject, NewRoom, RoomId, RoomSettings
from app.security import new_room_id

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


RATE_LIMITED: dict[int | str, dict[str, Any]] = {429: {"description": "`rate_limited`: too many requests from this token or address; see `Retry-After`"}}
ROOM_CHANGE: dict[str, Any] = dict(dependencies=[rate_limit("actions")], responses=RATE_LIMITED)


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


@router.post("", status_code=201, dependencies=[rate_limit("rooms")], responses={
    **RATE_LIMITED, 409: {"description": "`too_many_rooms`: the caller already hosts the most rooms not yet started"},
    422: {"description": "`bad_seats`, `bad_options`: outside the game's range; `timing_too_short`: a clock or the "
                         "grace is neither 0 nor at least its floor"}})
async def create_room(body: NewRoom, player: CurrentPlayer, db: DbDep, hub: HubDep,
                      settings: SettingsDep, request: Request) -> dict:
    try:
        engine = engines.get(body.game)
    except ValueError as exc:
        raise ApiError(422, "unknown_game", str(exc)) from None
    seats = body.seats if body.seats is not None else engine.min_players
    check_table(engine, seats, body.options)
    check_timing(engine, body.options, body.grace_seconds, settings.min_grace_seconds)

    def create(session) -> str:
        hosting = session.scalar(select(func.count()).select_from(Room)
                                 .where(Room.host_id == player.id, Room.status == "open"))
        if hosting >= settings.max_open_rooms_per_player:
            raise ApiError(409, "too_many_rooms", f"you already host {hosting} rooms that have not started "
                           f"(at most {settings.max_open_rooms_per_player}): start or leave one first")
        room = Room(id=new_room_id(), game=engine.id, options=body.options, num_seats=seats, host_id=player.id,
                    status="open", bot_think_seconds=body.bot_think_seconds, grace_seconds=body.grace_seconds,
                    rated=body.rated, pace=body.pace, on_deadline=body.on_deadline,
                    host_address_hash=address_hash(client_ip(request)))
        session.add(room)
        session.flush()
        session.add_all([RoomSeat(room_id=room.id, seat=i, player_id=player.id if i == 0 else None, private_data={})
                         for i in range(seats)])
        session.commit()
        return room.id

    room_id = await db.run(create)
    return (await hub.refresh(room_id)).summary()


@router.patch("/{room_id}", **{**ROOM_CHANGE, "responses": {
    **RATE_LIMITED, 403: {"description": "`not_host`: only the host changes the table"},
    409: {"description": "`room_not_open`: the match has started; `too_many_players`: more people sit than the new size holds"},
    422: {"description": "`bad_seats` or `bad_options`: outside the game's range; `timing_too_short`: a clock "
                         "neither 0 nor at least its floor"}}})
async def change_room(room_id: RoomId, body: RoomSettings, player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """The host sets the table's size and the game's options in the lobby, until Start; everyone in
    the room gets the new summary. Shrinking moves seated people (and bots) from the seats that go
    into the free seats that stay, in order; it is refused when they do not fit."""

    def change(session) -> None:
        room = store.get_room(session, room_id, for_update=True)
        if room.host_id != player.id:
            raise ApiError(403, "not_host", "only the host can change the table")
        if room.status != "open":
            raise ApiError(409, "room_not_open", f"the room is {room.status}: the table can change only before the start")
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

    async with hub.lock(room_id):
        await db.run(change)
        return (await hub.refresh(room_id)).summary()


@router.get("/{room_id}")
async def get_room(room_id: RoomId, hub: HubDep) -> dict:
    return (await hub.room(room_id)).summary()


@router.post("/{room_id}/join", **ROOM_CHANGE)
async def join_room(room_id: RoomId, player: CurrentPlayer, hub: HubDep,
                    body: JoinRoom | None = Body(default=None)) -> dict:
    wanted = body.seat if body else None

    def join(session_factory) -> None:
        with session_factory() as session:
            room = store.get_room(session, room_id, for_update=True)
            seats = store.room_seats(session, room_id)
            mine = next((s for s in seats if s.player_id == player.id), None)
            if mine is not None:
                if wanted is not None and wanted != mine.seat:
                    raise ApiError(409, "already_seated", f"you already sit in {seat_name(mine.seat)}; leave it first")
                if mine.left and room.status == "running":
                    mine.left = False
                    session.commit()
                return
            if room.status != "open":
                raise ApiError(409, "room_not_open", f"the room is {room.status}; you can watch as a spectator")
            if wanted is not None and not 0 <= wanted < room.num_seats:
                raise bad_seat(wanted, room.num_seats)
            free = [s for s in seats if s.player_id is None and (wanted is None or s.seat == wanted)]
            if not free:
                raise ApiError(409, "seat_taken", f"{seat_name(wanted)} is taken" if wanted is not None else "the room is full")
            # no two look-alike names at one table: the name as committed now (a rename waits for this seat)
            check_seat_mates(session, room_id, player.id, name_to_seat(session, player.id))
            free[0].player_id = player.id
            session.commit()

    async with hub.lock(room_id):
        await hub.write(join)  # (on SQLite one at a time with renames: Hub.write)
        live = await hub.refresh(room_id)
        live.seen(player.id)  # back in a running match: a bot that played for them gives the seat back
        return live.summary()


@router.post("/{room_id}/leave", **ROOM_CHANGE)
async def leave_room(room_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """Before the start, free the seat. During a match, leave it: a bot plays it at once (recorded
    as an abandonment) until the player takes it back with ``POST /join``."""
    def leave(session) -> None:
        room = store.get_room(session, room_id, for_update=True)
        mine = session.scalar(select(RoomSeat).where(RoomSeat.room_id == room_id, RoomSeat.player_id == player.id))
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

    async with hub.lock(room_id):
        await db.run(leave)
        return (await hub.refresh(room_id)).summary()


@router.post("/{room_id}/start", **{**ROOM_CHANGE, "responses": {
    **RATE_LIMITED, 409: {"description": "`room_not_open`, `seats_empty`, `no_players`; `too_many_tables`: the host "
                          "(or their address) runs the most live tables; `too_many_bots`: their live tables seat the most bots"}}})
async def start_room(room_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep,
                     request: Request) -> dict:
    def start(session) -> str:
        room = store.get_room(session, room_id, for_update=True)
        if room.host_id != player.id:
            raise ApiError(403, "not_host", "only the host can start the match")
        if room.status != "open":
            raise ApiError(409, "room_not_open", f"the room is already {room.status}")
        seats = session.execute(store.SEAT_ROWS, {"b_room": room_id}).all()
        empty = [s.seat for s in seats if s.player_id is None]
        if empty:  # seats numbered from 1, as the room page shows them
            names = ", ".join(seat_name(seat) for seat in empty)
            raise ApiError(409, "seats_empty", f"{names} {'is' if len(empty) == 1 else 'are'} empty: "
                                               "invite players or add bots")
        # (a table of bots alone would play by itself, for nobody: app/live/timers.py)
        if all(s.is_bot for s in seats) and not settings.unattended_tables_play:
            raise ApiError(409, "no_players", "every seat is a bot's: a match needs a player at the table")
        check_start(session, room, settings, client_ip(request))  # (app/limits/tables.py)
        match = store.start_match(session, room)
        session.commit()
        return match.id

    async with hub.lock(room_id):
        match_id = await db.run(start)
        await hub.attach_match(room_id, match_id)
        live = await hub.room(room_id)
        live.seen(player.id)  # a host who starts over REST is at the table (app/live/attendance.py)
        return live.summary()


@router.get("/{room_id}/view", response_model=ViewMessage, response_model_exclude_unset=True)
async def get_view(room_id: RoomId, player: OptionalPlayer, hub: HubDep) -> dict:
    live = await hub.current_room(room_id)
    if live.runner is None:
        raise ApiError(409, "not_started", "the match has not started yet")
    if player is not None:
        live.seen(player.id)  # a REST-only player is present while they call (zombie seats)
    await live.runner.caught_up()  # in a cluster: what the owner has now, not what reached this process
    return live.runner.current(live.seat_of(player.id if player else None)).message


@router.post("/{room_id}/actions", response_model=ViewMessage, response_model_exclude_unset=True, dependencies=[rate_limit("actions")], responses={
    **RATE_LIMITED,
    200: {"description": "Accepted: the caller's new view (streams and sockets get it too)"},
    409: {"description": "Refused, nothing changed: `stale_version`, `not_your_turn`, `match_over`, `not_started`",
          "content": {"application/json": {"example": {"error": {"code": "stale_version", "message":
                      "version 11 is stale: the match is at version 12; resync"}}}}},
    422: {"description": "`illegal_action`: well formed but not legal now"},
})  # documented for stream clients (issue 9)
async def post_action(room_id: RoomId, body: ActionIn, player: CurrentPlayer, hub: HubDep) -> dict:
    live = await hub.current_room(room_id)
    seat = live.seat_of(player.id)
    if seat is None:
        raise ApiError(403, "not_seated", "spectators cannot act: join a seat first")
    if live.runner is None:
        raise ApiError(409, "not_started", "the match has not started yet")
    live.seen(player.id)
    await live.runner.submit(seat, body.action, body.version)
    return live.runner.current(seat).message


@router.get("/{room_id}/seat-data")
async def get_seat_data(room_id: RoomId, player: CurrentPlayer, db: DbDep) -> dict[str, Any]:
    return await db.run(lambda session: _my_seat(session, room_id, player.id).private_data or {})


@router.put("/{room_id}/seat-data", **ROOM_CHANGE)
async def put_seat_data(room_id: RoomId, data: JsonObject, player: CurrentPlayer, db: DbDep,
                        settings: SettingsDep) -> dict[str, Any]:
    """A private JSON object kept with the caller's seat (e.g. a deduction notebook)."""
    if len(json.dumps(data)) > settings.max_frame_bytes:
        raise ApiError(413, "too_large", f"seat data is limited to {settings.max_frame_bytes} bytes")

    def save(session) -> None:
        _my_seat(session, room_id, player.id).private_data = data
        session.commit()

    await db.run(save)
    return data


def _my_seat(session, room_id: str, player_id: str) -> RoomSeat:
    store.get_room(session, room_id)
    seat = session.scalar(select(RoomSeat).where(RoomSeat.room_id == room_id, RoomSeat.player_id == player_id))
    if seat is None:
        raise ApiError(403, "not_seated", "only a seated player has seat data")
    return seat
