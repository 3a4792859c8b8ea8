"""Vacation: a player pauses all their correspondence clocks for up to ``ALLOWANCE_DAYS`` days per
calendar year (UTC; a vacation is charged to the year it starts in).

Starting one for ``days`` moves every deadline of the player's seats at running correspondence
tables ``days`` later (the time left is kept, lichess-style), and a decision that becomes theirs
during the vacation gets its deadline from the vacation's end (``pace.next_deadlines``). Ending
early moves them back by the unused part and gives the whole days not begun back. Each change is one transaction
(the player's row and the deadlines); then every table of theirs is refreshed, and the owner of
each running match reads its deadlines again (``Hub.refresh(..., deadlines=True)``; in a cluster
through ``RoomChanged``). The others see "on vacation until …" in the room summary and "my tables"."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select, update

from app.correspondence.pace import DAY
from app.errors import ApiError
from app.models import Match, MatchDeadline, Player, Room, RoomSeat

ALLOWANCE_DAYS = 14


def year_of(moment: float) -> int:
    return datetime.fromtimestamp(moment, timezone.utc).year


def status(player: Player, now: float) -> dict:
    year = year_of(now)
    used = player.vacation_used if player.vacation_year == year else 0.0
    until = player.vacation_until if player.vacation_until is not None and player.vacation_until > now else None
    return {"on_vacation": until is not None, "until": None if until is None else int(until * 1000), "year": year,
            "days_left": max(0, int((ALLOWANCE_DAYS * DAY - used) // DAY)), "allowance_days": ALLOWANCE_DAYS}


def _seats(session, player_id: str) -> list[tuple[str, str, int]]:
    """(room id, match id, seat) of the player's running correspondence matches."""
    return [(row[0], row[1], row[2]) for row in session.execute(
        select(Room.id, Match.id, RoomSeat.seat).join(RoomSeat, RoomSeat.room_id == Room.id)
        .join(Match, Match.id == Room.match_id)
        .where(RoomSeat.player_id == player_id, Room.status == "running", Match.status == "running",
               Match.pace != "live"))]


def _rooms(session, player_id: str) -> list[str]:
    """Every open or running correspondence table of the player (their summaries show the vacation)."""
    return list(session.scalars(select(Room.id).join(RoomSeat, RoomSeat.room_id == Room.id)
                                .where(RoomSeat.player_id == player_id, Room.status.in_(("open", "running")),
                                       Room.pace != "live")))


def _shift(session, seats, seconds: float) -> None:
    for _, match_id, seat in seats:
        session.execute(update(MatchDeadline).where(MatchDeadline.match_id == match_id, MatchDeadline.seat == seat)
                        .values(due_at=MatchDeadline.due_at + seconds, warned=False))


def start(session, player_id: str, days: int, now: float) -> tuple[dict, list[str]]:
    """Start a vacation of ``days`` now: (the new status, the rooms to refresh)."""
    player = session.get(Player, player_id, with_for_update=True)
    assert player is not None, "the caller's player exists"
    if player.vacation_until is not None and player.vacation_until > now:
        raise ApiError(409, "on_vacation", "you are on vacation already: end it first to start another")
    year = year_of(now)
    used = player.vacation_used if player.vacation_year == year else 0.0
    if used + days * DAY > ALLOWANCE_DAYS * DAY + 1e-6:
        left = max(0, int((ALLOWANCE_DAYS * DAY - used) // DAY))
        raise ApiError(409, "vacation_exhausted", f"{days} days is more than the {left} vacation days you have "
                       f"left in {year} (at most {ALLOWANCE_DAYS} a year)")
    seats = _seats(session, player_id)
    _shift(session, seats, days * DAY)
    player.vacation_from, player.vacation_until = now, now + days * DAY
    player.vacation_year, player.vacation_used = year, used + days * DAY
    session.commit()
    return status(player, now), _rooms(session, player_id)


def end(session, player_id: str, now: float) -> tuple[dict, list[str]]:
    """End the current vacation now: the unused part is given back and the deadlines move back by it."""
    player = session.get(Player, player_id, with_for_update=True)
    assert player is not None, "the caller's player exists"
    if player.vacation_until is None or player.vacation_until <= now:
        raise ApiError(409, "not_on_vacation", "you are not on vacation")
    unused = player.vacation_until - now
    _shift(session, _seats(session, player_id), -unused)
    # whole days come back: a day begun counts (so the allowance stays in whole days)
    player.vacation_used = max(0.0, player.vacation_used - (unused // DAY) * DAY)
    player.vacation_until = now
    session.commit()
    return status(player, now), _rooms(session, player_id)
