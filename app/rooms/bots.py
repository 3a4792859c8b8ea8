"""Bot seats: the host fills an empty seat of an open room with a server-side bot, hands the seat
of a player who left a running match to a bot so the match can go on, or, after a match, the seat
of a player who is gone so the others can play the rematch; and frees a bot's seat before the start.

A bot is an ordinary ``Player`` row with ``is_bot`` set and a token hash nobody knows, so it can
never log in (``player_for_token`` refuses bots anyway). The runner plays its seat through the same
``submit`` path as people, seeing only that seat's view (``MatchRunner._bot_move``)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import store
from app.errors import ApiError, bad_seat, seat_name
from app.limits.tables import check_bot_seat
from app.live.zombies import record_abandonment
from app.models import Player, RoomSeat
from app.names import seat_skeleton
from app.rooms.checks import require_host, require_open
from app.security import hash_token, new_id, new_token
from app.settings import Settings


def bot_name(session: Session, room_id: str) -> str:
    """'Bot <n>', numbered within the room so several bots can be told apart (a Japanese page
    shows "ボット<n>"). Short: the room already says which game it is, and "Bot Mipolin the Game 1"
    was English on a Japanese page and cut short in a phone's seat chip. A number a seated person's
    name already reads as ("Bot 2", "ボット2") is skipped: no two seats may look the same."""
    seated = session.execute(select(Player.name, Player.is_bot).join(RoomSeat, RoomSeat.player_id == Player.id)
                             .where(RoomSeat.room_id == room_id)).all()
    taken = {seat_skeleton(name) for name, _ in seated}
    number = sum(1 for _, is_bot in seated if is_bot) + 1
    while seat_skeleton(f"Bot {number}") in taken:
        number += 1
    return f"Bot {number}"


def seat_bot(session: Session, room_id: str, player_id: str, wanted: int | None, level: str, online: set[str],
             settings: Settings, address: str | None) -> None:
    """The host seats a bot of ``level`` in ``wanted`` (open rooms: default the first free seat).
    ``online``: the players connected to the room now (after a match, a seat of one of them is
    not given away); ``address``: the host's client address, for the caps of app/limits/tables.py."""
    room = store.get_room(session, room_id, for_update=True)
    require_host(room, player_id, "seat bots")
    if wanted is not None and not 0 <= wanted < room.num_seats:
        raise bad_seat(wanted, room.num_seats)
    seats = store.room_seats(session, room_id)
    if room.status == "open":
        free = [s for s in seats if s.player_id is None and (wanted is None or s.seat == wanted)]
        if not free:
            raise ApiError(409, "seat_taken" if wanted is not None else "room_full",
                           f"{seat_name(wanted)} is taken" if wanted is not None else "the room is full")
        seat = free[0]
    elif room.status == "running":
        if wanted is None:
            raise ApiError(422, "bad_seat", "name the seat of the player who left")
        seat = seats[wanted]
        if not seat.left:
            raise ApiError(409, "seat_taken", f"{seat_name(wanted)} is played by someone who has not left")
        if seat.player_id == player_id:  # (a host losing by leaving must not hand the loss to a bot)
            raise ApiError(409, "own_seat", "you left this seat: take it back (join) to play on; a bot "
                           "already plays it until then")
        # The leaver's abandonment, in this transaction: written before the bot sits, however
        # soon after the leave, so the match counts it (a rated loss for the leaver, app.ratings).
        if room.match_id and seat.player_id:
            record_abandonment(session, room.match_id, seat.player_id, seat.seat, commit=False)
    elif room.status == "finished":
        if wanted is None:
            raise ApiError(422, "bad_seat", "name the seat of the player who is gone")
        seat = seats[wanted]
        occupant = session.get(Player, seat.player_id) if seat.player_id else None
        if occupant is None or occupant.is_bot or seat.player_id == player_id or seat.player_id in online:
            raise ApiError(409, "seat_taken", f"{seat_name(wanted)} is played by someone who is here")
    else:
        raise ApiError(409, "room_closed", f"the room is {room.status}")
    check_bot_seat(session, room, settings, address)  # (app/limits/tables.py)
    bot = Player(id=new_id(), name=bot_name(session, room_id), token_hash=hash_token(new_token()), is_bot=True)
    session.add(bot)
    session.flush()
    seat.player_id = bot.id
    seat.left = False
    seat.private_data = {"bot_level": level}
    session.commit()


def unseat_bot(session: Session, room_id: str, player_id: str, seat: int) -> None:
    """The host frees a bot's seat before the start (bots cannot call ``/leave`` themselves)."""
    room = store.get_room(session, room_id, for_update=True)
    require_host(room, player_id, "remove bots")
    require_open(room, "the room is {status}; bots stay until the end")
    row = session.get(RoomSeat, (room_id, seat))
    occupant = session.get(Player, row.player_id) if row and row.player_id else None
    if row is None or occupant is None or not occupant.is_bot:  # (no row: no occupant)
        raise ApiError(409, "not_a_bot", f"{seat_name(seat)} has no bot")
    row.player_id = None
    row.private_data = {}
    session.commit()
