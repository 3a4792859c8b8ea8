"""Rooms: private by link (the id is the secret), seats, start, the caller's view and actions.

Each endpoint parses the request and calls the rooms service (app/rooms/service.py), which runs
the change in a database worker under the room's lock and returns the room's summary."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Request

from app.deps import CurrentPlayer, DbDep, HubDep, OptionalPlayer, SettingsDep, client_ip
from app.limits.rest import rate_limit
from app.protocol import ViewMessage
from app.rooms import service
from app.schemas import ActionIn, JoinRoom, JsonObject, NewRoom, RoomId, RoomSettings

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


RATE_LIMITED: dict[int | str, dict[str, Any]] = {429: {"description": "`rate_limited`: too many requests from this token or address; see `Retry-After`"}}
ROOM_CHANGE: dict[str, Any] = dict(dependencies=[rate_limit("actions")], responses=RATE_LIMITED)


@router.post("", status_code=201, dependencies=[rate_limit("rooms")], responses={
    **RATE_LIMITED, 409: {"description": "`too_many_rooms`: the caller already hosts the most rooms not yet started"},
    422: {"description": "`bad_seats`, `bad_options`: outside the game's range; `timing_too_short`: a clock or the "
                         "grace is neither 0 nor at least its floor"}})
async def create_room(body: NewRoom, player: CurrentPlayer, db: DbDep, hub: HubDep,
                      settings: SettingsDep, request: Request) -> dict:
    return await service.create_room(hub, db, settings, player.id, body, client_ip(request))


@router.patch("/{room_id}", **{**ROOM_CHANGE, "responses": {
    **RATE_LIMITED, 403: {"description": "`not_host`: only the host changes the table"},
    409: {"description": "`room_not_open`: the match has started; `too_many_players`: more people sit than the new size holds"},
    422: {"description": "`bad_seats` or `bad_options`: outside the game's range; `timing_too_short`: a clock "
                         "neither 0 nor at least its floor"}}})
async def change_room(room_id: RoomId, body: RoomSettings, player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """The host sets the table's size and the game's options in the lobby, until Start; everyone in
    the room gets the new summary. Shrinking moves seated people (and bots) from the seats that go
    into the free seats that stay, in order; it is refused when they do not fit."""
    return await service.change_room(hub, db, room_id, player.id, body)


@router.get("/{room_id}")
async def get_room(room_id: RoomId, hub: HubDep) -> dict:
    return (await hub.room(room_id)).summary()


@router.post("/{room_id}/join", **ROOM_CHANGE)
async def join_room(room_id: RoomId, player: CurrentPlayer, hub: HubDep,
                    body: JoinRoom | None = Body(default=None)) -> dict:
    return await service.join_room(hub, room_id, player.id, body.seat if body else None)


@router.post("/{room_id}/leave", **ROOM_CHANGE)
async def leave_room(room_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """Before the start, free the seat. During a match, leave it: a bot plays it at once (recorded
    as an abandonment) until the player takes it back with ``POST /join``."""
    return await service.leave_room(hub, db, room_id, player.id)


@router.post("/{room_id}/start", **{**ROOM_CHANGE, "responses": {
    **RATE_LIMITED, 409: {"description": "`room_not_open`, `seats_empty`, `no_players`; `too_many_tables`: the host "
                          "(or their address) runs the most live tables; `too_many_bots`: their live tables seat the most bots"}}})
async def start_room(room_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep,
                     request: Request) -> dict:
    return await service.start_room(hub, db, settings, room_id, player.id, client_ip(request))


@router.get("/{room_id}/view", response_model=ViewMessage, response_model_exclude_unset=True)
async def get_view(room_id: RoomId, player: OptionalPlayer, hub: HubDep) -> dict:
    return await service.view(hub, room_id, player.id if player is not None else None)


@router.post("/{room_id}/actions", response_model=ViewMessage, response_model_exclude_unset=True, dependencies=[rate_limit("actions")], responses={
    **RATE_LIMITED,
    200: {"description": "Accepted: the caller's new view (streams and sockets get it too)"},
    409: {"description": "Refused, nothing changed: `stale_version`, `not_your_turn`, `match_over`, `not_started`",
          "content": {"application/json": {"example": {"error": {"code": "stale_version", "message":
                      "version 11 is stale: the match is at version 12; resync"}}}}},
    422: {"description": "`illegal_action`: well formed but not legal now"},
})  # documented for stream clients (issue 9)
async def post_action(room_id: RoomId, body: ActionIn, player: CurrentPlayer, hub: HubDep) -> dict:
    return await service.act(hub, room_id, player.id, body.action, body.version)


@router.get("/{room_id}/seat-data")
async def get_seat_data(room_id: RoomId, player: CurrentPlayer, db: DbDep) -> dict[str, Any]:
    return await service.seat_data(db, room_id, player.id)


@router.put("/{room_id}/seat-data", **ROOM_CHANGE)
async def put_seat_data(room_id: RoomId, data: JsonObject, player: CurrentPlayer, db: DbDep,
                        settings: SettingsDep) -> dict[str, Any]:
    """A private JSON object kept with the caller's seat (e.g. a deduction notebook)."""
    return await service.save_seat_data(db, settings, room_id, player.id, data)
