"""The refusals that the room's paths share: only the host, only an open room, only a seated
player of a started match (REST and the socket ask the same)."""

from __future__ import annotations

from app.errors import ApiError
from app.live.match import Match
from app.live.room import LiveRoom
from app.models import Room


def require_host(room: Room, player_id: str, what: str) -> None:
    """403 ``not_host`` "only the host can <what>" unless ``player_id`` hosts ``room``."""
    if room.host_id != player_id:
        raise ApiError(403, "not_host", f"only the host can {what}")


def require_open(room: Room, message: str) -> None:
    """409 ``room_not_open`` unless ``room`` has not started; ``message`` says why, with
    ``{status}`` for the room's status."""
    if room.status != "open":
        raise ApiError(409, "room_not_open", message.format(status=room.status))


def require_started(live: LiveRoom) -> Match:
    """The match ``live`` plays, or 409 ``not_started``."""
    if live.runner is None:
        raise ApiError(409, "not_started", "the match has not started yet")
    return live.runner


def acting_seat(live: LiveRoom, player_id: str | None) -> tuple[int, Match]:
    """The seat ``player_id`` acts for and the match it acts in: 403 ``not_seated`` for a
    spectator, then 409 ``not_started`` before the start."""
    seat = live.seat_of(player_id)
    if seat is None:
        raise ApiError(403, "not_seated", "spectators cannot act: join a seat first")
    return seat, require_started(live)
