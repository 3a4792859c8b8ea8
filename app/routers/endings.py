"""Ending a match early and moving on (app/endings): resign, abort, decline and claim are actions
(``POST /api/rooms/{id}/actions`` or the socket's ``action`` with ``{"platform": ...}``), so they
share the apply path, the log and the cluster's forwarding; leaving mid-match is ``POST /leave``.
Here: ``POST /api/rooms/{id}/next``, a new table with the same people (app/endings/next_table.py,
run by app/rooms/service.py)."""

from __future__ import annotations

from fastapi import APIRouter, Body
from pydantic import BaseModel, Field

import engines
from app.deps import CurrentPlayer, DbDep, HubDep, SettingsDep
from app.limits.rest import rate_limit
from app.rooms import service
from app.routers.rooms import RATE_LIMITED
from app.schemas import MAX_SEATS, JsonObject, RoomId

router = APIRouter(prefix="/api/rooms", tags=["endings"])


class NextTable(BaseModel):
    game: str | None = Field(default=None, max_length=40, json_schema_extra={"enum": [*engines.ids()]},
                             description="default the same game")
    options: JsonObject | None = Field(default=None, description="default the same options (same game) or the game's")
    seats: int | None = Field(default=None, ge=1, le=MAX_SEATS, strict=True, description="default as many as here")


@router.post("/{room_id}/next", summary="A new table with the same people (after a match)",
             dependencies=[rate_limit("rooms")], responses={
                 **RATE_LIMITED, 403: {"description": "`not_seated`"},
                 409: {"description": "`room_not_over`: the match here is not over; `too_many_rooms`"},
                 422: {"description": "`unknown_game`, `bad_seats`, `bad_options`"}})
async def next_table(room_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep,
                     body: NextTable | None = Body(default=None)) -> dict:
    body = body or NextTable()
    return await service.next_table(hub, db, settings, room_id, player.id, body.game, body.options, body.seats)
