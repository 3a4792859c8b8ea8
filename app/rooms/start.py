"""The start of a room's match: every seat taken, a person at the table, within the caps."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app import store
from app.errors import ApiError, seat_name
from app.limits.tables import check_start
from app.rooms.checks import require_host, require_open
from app.settings import Settings


def start(session: Session, room_id: str, player_id: str, settings: Settings, address: str | None) -> str:
    """Start the match of the host's open room (``address``: the host's client address, for the
    caps of app/limits/tables.py). Returns the match's id."""
    room = store.get_room(session, room_id, for_update=True)
    require_host(room, player_id, "start the match")
    require_open(room, "the room is already {status}")
    seats = session.execute(store.SEAT_ROWS, {"b_room": room_id}).all()
    empty = [s.seat for s in seats if s.player_id is None]
    if empty:  # seats numbered from 1, as the room page shows them
        names = ", ".join(seat_name(seat) for seat in empty)
        raise ApiError(409, "seats_empty", f"{names} {'is' if len(empty) == 1 else 'are'} empty: "
                                           "invite players or add bots")
    # (a table of bots alone would play by itself, for nobody: app/live/timers.py)
    if all(s.is_bot for s in seats) and not settings.unattended_tables_play:
        raise ApiError(409, "no_players", "every seat is a bot's: a match needs a player at the table")
    check_start(session, room, settings, address)  # (app/limits/tables.py)
    match = store.start_match(session, room)
    session.commit()
    return match.id
