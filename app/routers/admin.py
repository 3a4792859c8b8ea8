"""Admin API (bearer = settings.admin_token): list matches, replay any match, running or over,
from any seat or omnisciently, and abort a stuck one."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

from fastapi import APIRouter, Query, Request
from sqlalchemy import func, select

from app import history
from app.deps import AdminDep, SessionDep
from app.models import Match, MatchAction
from app.schemas import MAX_INT, MAX_OFFSET, MatchId

router = APIRouter(prefix="/api/admin", tags=["admin"])


@router.get("/matches")
def list_matches(_admin: AdminDep, session: SessionDep,
                 status: Annotated[str | None, Query(pattern="^(running|finished|aborted)$")] = None,
                 game: Annotated[str | None, Query(max_length=40)] = None,
                 limit: Annotated[int, Query(ge=1, le=500)] = 100,
                 offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> dict:
    """Newest first; running matches included (they are what an admin usually looks for)."""
    steps = (select(func.coalesce(func.max(MatchAction.idx) + 1, 0)).where(MatchAction.match_id == Match.id)
             .correlate(Match).scalar_subquery())
    query = select(Match)
    if status:
        query = query.where(Match.status == status)
    if game:
        query = query.where(Match.game == game)
    total = session.scalar(select(func.count()).select_from(query.subquery()))
    rows = session.execute(query.add_columns(steps).order_by(Match.started_at.desc(), Match.id).limit(limit).offset(offset))
    return {"total": total, "matches": [
        {"id": m.id, "room_id": m.room_id, "game": m.game, "status": m.status, "ending": m.ending, "rated": m.rated, "steps": n,
         "seats": history.seat_list(m), "outcome": m.outcome,
         "started_at": history.iso(m.started_at), "finished_at": history.iso(m.finished_at)} for m, n in rows]}


@router.get("/matches/{match_id}")
def get_match(match_id: MatchId, _admin: AdminDep, session: SessionDep) -> dict:
    return history.match_record(session, history.get_match(session, match_id), admin=True)


@router.get("/matches/{match_id}/replay")
def replay(match_id: MatchId, _admin: AdminDep, session: SessionDep,
           seat: Annotated[str | None, Query(max_length=12, description="a seat number, omit for the spectator view, or 'all'")] = None,
           step: Annotated[int | None, Query(ge=-MAX_INT, le=MAX_INT)] = None) -> dict:
    """Any step of any match; ``seat=all`` returns the full engine state plus every seat's view."""
    match = history.get_match(session, match_id)
    return history.replay_step(session, match, history.parse_seat(match, seat), step)


@router.post("/matches/{match_id}/abort")
async def abort(match_id: MatchId, _admin: AdminDep, request: Request) -> dict:
    """Record the match as aborted (not rated), mark the room aborted, stop the live runner's
    timers and bots, and tell the room's sockets."""
    hub = request.app.state.hub
    db = request.app.state.db
    room_id = await db.run(lambda session: history.get_match(session, match_id).room_id)
    live = hub.rooms.get(room_id)
    runner = live.runner if live is not None and live.runner is not None and live.runner.match_id == match_id else None
    # Hold the runner's apply lock so no action is half-recorded while we abort; a stuck apply
    # (the reason to abort) must not block us forever.
    locked = False
    if runner is not None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(runner.lock.acquire(), timeout=5)
            locked = True
    try:
        await db.run(lambda _session: history.abort_match(db.session_factory, match_id))
        if runner is not None:
            runner.status = "aborted"
            runner.stop()
    finally:
        if locked and runner is not None:
            runner.lock.release()
    if live is not None:
        await hub.refresh(room_id)
    return await db.run(lambda session: history.match_record(session, history.get_match(session, match_id), admin=True))
