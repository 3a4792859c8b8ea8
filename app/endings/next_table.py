"""A new table with the same people: after a match (finished or aborted), any seated person opens
a new room, of the same game or another, with the same options when the game is the same. The
people here now sit in the same seats (a seat that no longer exists is given the next free one),
bots keep their seats and levels when the game is the same, and the seat of anyone who is gone
stays free for them. The old room points to the new one (``next_room_id``), so its link leads
there: a friend who comes back later opens the same link and takes their seat before the start,
or the host fills it with a bot. One new table per room: asking again returns the same one."""

from __future__ import annotations

from sqlalchemy import func, select

import engines
from app import store
from app.errors import ApiError
from app.models import Player, Room, RoomSeat
from app.security import new_room_id


def open_next(session, room_id: str, player_id: str, online: set[str], game: str | None, options: dict | None,
              seats: int | None, max_open_rooms: int) -> str:
    """The id of the room's new table, opened now by ``player_id`` unless it exists already."""
    old = store.get_room(session, room_id, for_update=True)
    rows = store.room_seats(session, room_id)
    if not any(row.player_id == player_id for row in rows):
        raise ApiError(403, "not_seated", "only a player seated in this room can open a new table with its people")
    if old.next_room_id:
        return old.next_room_id
    if old.status not in ("finished", "aborted"):
        raise ApiError(409, "room_not_over", f"the room is {old.status}; a new table follows a match that is over")
    try:
        engine = engines.get(game or old.game)
    except ValueError as exc:
        raise ApiError(422, "unknown_game", str(exc)) from None
    same_game = engine.id == old.game
    options = options if options is not None else (old.options if same_game else {})
    count = seats if seats is not None else old.num_seats
    if seats is None and not same_game:  # as many as the other game takes
        count = max(engine.min_players, min(engine.max_players, count))
    if not engine.min_players <= count <= engine.max_players:
        raise ApiError(422, "bad_seats", f"{engine.title} takes {engine.min_players}–{engine.max_players} players, "
                       f"not {count}: say how many seats")
    try:
        engine.new_game(count, 0, options)
    except (ValueError, TypeError) as exc:
        raise ApiError(422, "bad_options", f"options {options!r} are not valid for {engine.id}: {exc}") from None
    hosting = session.scalar(select(func.count()).select_from(Room).where(Room.host_id == player_id, Room.status == "open"))
    if hosting >= max_open_rooms:
        raise ApiError(409, "too_many_rooms", f"you already host {hosting} rooms that have not started")
    bots = {row.player_id for row in rows if row.player_id and session.get(Player, row.player_id).is_bot}
    keep = [row for row in rows if row.player_id and (row.player_id in online or row.player_id == player_id
                                                      or (same_game and row.player_id in bots))]
    new = Room(id=new_room_id(), game=engine.id, options=options, num_seats=count, host_id=player_id, status="open",
               bot_think_seconds=old.bot_think_seconds, grace_seconds=old.grace_seconds, rated=old.rated,
               night_id=old.night_id,  # a night's table stays the night's
               pace=old.pace, on_deadline=old.on_deadline)
    session.add(new)
    session.flush()
    placed: dict[int, RoomSeat] = {}
    overflow = []
    for row in keep:
        if row.seat < count and row.seat not in placed:
            placed[row.seat] = row
        else:
            overflow.append(row)
    free = [i for i in range(count) if i not in placed]
    for row in overflow:
        if free:
            placed[free.pop(0)] = row
    for i in range(count):
        taken = placed.get(i)
        data = {"bot_level": taken.private_data["bot_level"]} if taken is not None and taken.player_id in bots \
            and "bot_level" in (taken.private_data or {}) else {}
        session.add(RoomSeat(room_id=new.id, seat=i, player_id=taken.player_id if taken else None, private_data=data))
    old.next_room_id = new.id
    session.commit()
    return new.id
