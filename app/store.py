"""Database reads and writes shared by the REST routers and the live layer.

Each write is one transaction: an action row and the match's new version, state and (when the
game ended) outcome are committed together, before anything is pushed to a client."""

from __future__ import annotations

import secrets
from typing import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import engines
from app.errors import ApiError, not_found
from app.models import Match, MatchAction, Player, Room, RoomSeat, utcnow
from app.security import new_id

# Called inside the transaction that records a finished match (ratings plug in here).
finish_hooks: list[Callable[[Session, Match], None]] = []


def get_room(session: Session, room_id: str) -> Room:
    room = session.get(Room, room_id) if isinstance(room_id, str) and len(room_id) <= 64 else None
    if room is None:
        raise not_found("room", room_id)
    return room


def room_seats(session: Session, room_id: str) -> list[RoomSeat]:
    return list(session.scalars(select(RoomSeat).where(RoomSeat.room_id == room_id).order_by(RoomSeat.seat)))


def seat_of(session: Session, room_id: str, player_id: str | None) -> int | None:
    if player_id is None:
        return None
    return session.scalar(select(RoomSeat.seat).where(RoomSeat.room_id == room_id, RoomSeat.player_id == player_id))


def start_match(session: Session, room: Room) -> Match:
    """Create the match for a full room (caller checked host and seats) and mark the room running."""
    engine = engines.get(room.game)
    seats = room_seats(session, room.id)
    players = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_([s.player_id for s in seats])))}
    seed = secrets.randbits(63)
    state = engine.new_game(room.num_seats, seed, room.options)
    match = Match(
        id=new_id(), room_id=room.id, game=room.game, engine_version=getattr(engine, "version", "1"),
        options=room.options, seed=seed, status="running", version=0, state=engine.state_to_json(state),
        seats=[{"player_id": s.player_id, "name": players[s.player_id].name, "bot": players[s.player_id].is_bot}
               for s in seats],
        started_at=utcnow(),
    )
    session.add(match)
    room.status = "running"
    room.match_id = match.id
    return match


def record_action(session_factory: sessionmaker[Session], match_id: str, idx: int, seat: int,
                  action: dict, state_json: dict, outcome: dict | None) -> None:
    """Append action ``idx`` and the match's new snapshot in one transaction.

    The unique (match_id, idx) constraint refuses a second writer for the same version."""
    with session_factory() as session, session.begin():
        match = session.get(Match, match_id)
        if match is None or match.status != "running":
            raise ApiError(409, "match_over", f"match {match_id} is {match.status if match else 'gone'}; no more actions are taken")
        if match.version != idx:
            raise ApiError(409, "stale_version", f"match {match_id} is not at version {idx}")
        session.add(MatchAction(match_id=match_id, idx=idx, seat=seat, action=action))
        match.version = idx + 1
        match.state = state_json
        if outcome is not None:
            match.status = "finished"
            match.outcome = outcome
            match.finished_at = utcnow()
            room = session.get(Room, match.room_id)
            room.status = "finished"
            session.flush()
            for hook in finish_hooks:
                hook(session, match)


def match_log(session: Session, match_id: str) -> list[tuple[int, dict]]:
    rows = session.execute(select(MatchAction.seat, MatchAction.action)
                           .where(MatchAction.match_id == match_id).order_by(MatchAction.idx))
    return [(seat, action) for seat, action in rows]


def replay_state(match: Match, log: list[tuple[int, dict]], upto: int | None = None):
    """Recompute the match state from seed + options + log (the first ``upto`` actions)."""
    engine = engines.get(match.game)
    state = engine.new_game(len(match.seats), match.seed, match.options)
    for seat, action in log[:upto]:
        state = engine.apply(state, seat, action)
    return state
