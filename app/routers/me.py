"""The caller's own rooms, for a returning player: running and open rooms first (rejoin in one
click), then the latest finished ones (replay)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import case, select

from app import history
from app.deps import CurrentPlayer, SessionDep
from app.models import Match, Room, RoomSeat

router = APIRouter(prefix="/api/me", tags=["players"])

ACTIVE_FIRST = case((Room.status == "running", 0), (Room.status == "open", 1), else_=2)


@router.get("/rooms", summary="Rooms the caller sits in, running and open ones first")
def my_rooms(player: CurrentPlayer, session: SessionDep,
             limit: Annotated[int, Query(ge=1, le=50)] = 12) -> dict:
    rows = session.execute(
        select(Room, RoomSeat.seat, Match)
        .join(RoomSeat, RoomSeat.room_id == Room.id)
        .outerjoin(Match, Match.id == Room.match_id)
        .where(RoomSeat.player_id == player.id)
        .order_by(ACTIVE_FIRST, Room.created_at.desc(), Room.id)
        .limit(limit)).all()
    return {"rooms": [{
        "room_id": room.id, "game": room.game, "status": room.status, "seat": seat,
        "num_seats": room.num_seats, "match_id": room.match_id, "url": f"/r/{room.id}",
        "players": [s["name"] for s in match.seats] if match else None,
        "ranks": (match.outcome or {}).get("ranks") if match else None,
        "created_at": history.iso(room.created_at),
        "finished_at": history.iso(match.finished_at) if match else None,
    } for room, seat, match in rows]}
