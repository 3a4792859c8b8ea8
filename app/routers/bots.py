"""Bot seats over REST: the host seats a bot (an empty seat of an open room, the seat of a player
who left a running match, or after a match the seat of one who is gone) or removes one before the
start. The rules and the transactions are app/rooms/bots.py's; the hub's part app/rooms/service.py's."""

from __future__ import annotations

from typing import Annotated, cast, get_args, Literal

from fastapi import APIRouter, Body, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from engines.bots import DEFAULT_LEVEL, LEVELS
from app.deps import CurrentPlayer, DbDep, HubDep, SettingsDep, client_ip
from app.limits.rest import rate_limit
from app.rooms import service
from app.schemas import MAX_SEATS, RoomId, SeatNumber

router = APIRouter(prefix="/api/rooms", tags=["bots"])
BotLevel = Literal["easy", "strong"]
assert get_args(BotLevel) == LEVELS, "the API's bot levels are the bots' levels"


class AddBot(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"seat": 1, "level": "strong"}]})
    seat: SeatNumber | None = Field(default=None, description="the seat to fill; default the first empty seat (open rooms only)")
    level: BotLevel = Field(default=cast(BotLevel, DEFAULT_LEVEL), description="easy: rules of thumb; strong: searches sampled "
                            "deals of the cards its seat cannot see, thinking up to 0.4 s a move")


@router.post("/{room_id}/bots", summary="Seat a bot (host only)", dependencies=[rate_limit("actions")], responses={
    429: {"description": "`rate_limited`: too many room changes; see `Retry-After`"},
    200: {"description": "The room summary with the bot seated"},
    403: {"description": "`not_host`: only the host seats bots"},
    409: {"description": "`seat_taken`, `room_full`, `room_closed`: the seat is not free for a bot; `own_seat`: "
                         "the host's own seat (left mid-match: taken back by joining); `too_many_bots`: the "
                         "host's (or their address's) live tables seat the most bots"},
    422: {"description": "`bad_seat`: no such seat"},
})
async def add_bot(room_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep,
                  request: Request, body: AddBot | None = Body(default=None)) -> dict:
    """In an open room, seat a bot in an empty seat. In a running match, replace a player who
    left (``POST /leave``) with a bot, which acts at once if its seat is awaited. After a match,
    replace a player who is gone (no socket, stream or REST call in the room) so the others can
    play the rematch without them: the bot says yes at once, and so does the host by choosing it."""
    level = body.level if body else DEFAULT_LEVEL
    return await service.add_bot(hub, db, settings, room_id, player.id, body.seat if body else None, level,
                                 client_ip(request))


@router.delete("/{room_id}/bots/{seat}", summary="Remove a bot from an open room (host only)")
async def remove_bot(room_id: RoomId, seat: Annotated[int, Path(ge=0, lt=MAX_SEATS)], player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """Bots cannot call ``/leave`` themselves, so the host frees their seat before the start."""
    return await service.remove_bot(hub, db, room_id, player.id, seat)
