"""Rematch in the same room: ``POST /api/rooms/{id}/rematch`` is one seated person's "yes";
when every seated person has said yes (bots say yes at once) the new match starts with the same
seats and a new seed. Sockets in the room get ``{"type": "rematch", ...}`` after every vote
(a seated player's socket may vote itself: ``{"type": "rematch"}``, see ``app.routers.live``).
Nobody can answer for a person who is gone: their seat keeps the rematch waiting (a new room
is the way on without them)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter

from app.deps import CurrentPlayer, HubDep
from app.limits.rest import rate_limit
from app.rematch import service
from app.rematch.confirm import confirm
from app.routers.rooms import RATE_LIMITED
from app.schemas import MatchId, RoomId

router = APIRouter(tags=["rematch"])


@router.get("/api/rooms/{room_id}/rematch", summary="Who confirmed a rematch of the room's finished match")
async def rematch_state(room_id: RoomId, hub: HubDep) -> dict:
    return (await asyncio.to_thread(service.state, hub.session_factory, room_id)).as_dict()


@router.post("/api/rooms/{room_id}/rematch", summary="Confirm a rematch (seated players; starts it when everyone has)",
             dependencies=[rate_limit("actions")],
             responses={**RATE_LIMITED, 403: {"description": "`not_seated`"}, 409: {"description": "`no_rematch`: the match is not over"}})
async def confirm_rematch(room_id: RoomId, player: CurrentPlayer, hub: HubDep) -> dict:
    return (await confirm(hub, room_id, player.id)).as_dict()


@router.get("/api/matches/{match_id}/rematch", summary="The match this one rematched, and its own rematch",
            responses={404: {"description": "`not_found`: no such match"}})
async def match_links(match_id: MatchId, hub: HubDep) -> dict:
    return await asyncio.to_thread(service.match_links, hub.session_factory, match_id)
