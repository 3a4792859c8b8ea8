"""Match history for everyone: a finished match's record, its replay (the spectator view, any
seat's view, or every hand at once with ``seat=all``: after the end, everything, as every game's
rules page says) and its export. Running matches are refused to non-admins; the admin bearer token
is accepted here too, so one client can do both."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request

from app import history
from app.deps import DbDep, SessionDep, SettingsDep, bearer_token, check_secret, client_ip, player_for_token
from app.errors import ApiError
from app.models import Player
from app.security import same_secret
from app.schemas import MAX_INT, MatchId

router = APIRouter(prefix="/api/matches", tags=["matches"])


@dataclass
class Viewer:
    player: Player | None
    admin: bool


async def get_viewer(request: Request, db: DbDep, settings: SettingsDep,
                     authorization: Annotated[str | None, Header()] = None) -> Viewer:
    """A player token, the admin token, or nobody (a spectator). A token that is neither counts
    as a wrong admin-token guess (``Limiter.guess``)."""
    token = bearer_token(authorization)
    if not token:
        return Viewer(None, False)
    if same_secret(token, settings.admin_token):
        await check_secret(request, token, settings.admin_token)  # (429 while this IP is over its guesses)
        return Viewer(None, True)
    try:
        return Viewer(await db.run(player_for_token, token), False)
    except ApiError:
        await request.app.state.limiter.guess(client_ip(request), False)
        raise


ViewerDep = Annotated[Viewer, Depends(get_viewer)]


@router.get("/{match_id}")
def get_match(match_id: MatchId, session: SessionDep, viewer: ViewerDep) -> dict:
    """Game, options, seats with names, outcome, scores, rating changes and duration."""
    match = history.get_match(session, match_id)
    history.require_over(match, viewer.admin)
    return history.match_record(session, match, admin=viewer.admin)


@router.get("/{match_id}/replay")
def replay(match_id: MatchId, session: SessionDep, viewer: ViewerDep,
           seat: Annotated[str | None, Query(max_length=12, description="omit for the spectator view; your own seat number")] = None,
           step: Annotated[int | None, Query(ge=-MAX_INT, le=MAX_INT, description="actions applied so far; default the last step")] = None) -> dict:
    """One step of a finished match: the spectator view, any seat's view, or everything (``all``)."""
    match = history.get_match(session, match_id)
    history.require_over(match, viewer.admin)  # a running match: admins only
    return history.replay_step(session, match, history.parse_seat(match, seat), step)


@router.get("/{match_id}/export")
def export(match_id: MatchId, session: SessionDep, viewer: ViewerDep) -> dict:
    """A self-contained JSON record (seed, options, seats, timed actions); `python -m app.cli replay FILE`."""
    match = history.get_match(session, match_id)
    history.require_over(match, viewer.admin)
    return history.export_record(session, match)
