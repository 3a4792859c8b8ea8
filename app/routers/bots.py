"""Bot seats: the host fills an empty seat of an open room with a server-side bot, or hands the
seat of a player who left a running match to a bot so the match can go on.

A bot is an ordinary ``Player`` row with ``is_bot`` set and a token hash nobody knows, so it can
never log in (``player_for_token`` refuses bots anyway). The runner plays its seat through the same
``submit`` path as people, seeing only that seat's view (``MatchRunner._bot_move``)."""

from __future__ import annotations

from typing import Annotated, cast, get_args, Literal

from fastapi import APIRouter, Body, Path, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from engines.bots import DEFAULT_LEVEL, LEVELS
from app import store
from app.deps import CurrentPlayer, DbDep, HubDep, SettingsDep, client_ip
from app.errors import ApiError, bad_seat, seat_name
from app.limits.rest import rate_limit
from app.limits.tables import check_bot_seat
from app.live.zombies import record_abandonment
from app.names import seat_skeleton
from app.models import Player, RoomSeat
from app.rematch.confirm import confirm as confirm_rematch
from app.schemas import MAX_SEATS, RoomId, SeatNumber
from app.security import hash_token, new_id, new_token

router = APIRouter(prefix="/api/rooms", tags=["bots"])
BotLevel = Literal["easy", "strong"]
assert get_args(BotLevel) == LEVELS, "the API's bot levels are the bots' levels"


class AddBot(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"seat": 1, "level": "strong"}]})
    seat: SeatNumber | None = Field(default=None, description="the seat to fill; default the first empty seat (open rooms only)")
    level: BotLevel = Field(default=cast(BotLevel, DEFAULT_LEVEL), description="easy: rules of thumb; strong: searches sampled "
                            "deals of the cards its seat cannot see, thinking up to 0.4 s a move")


def _bot_name(session, room_id: str) -> str:
    """'Bot <n>', numbered within the room so several bots can be told apart (a Japanese page
    shows "ボット<n>"). Short: the room already says which game it is, and "Bot Mipolin the Game 1"
    was English on a Japanese page and cut short in a phone's seat chip. A number a seated person's
    name already reads as ("Bot 2", "ボット2") is skipped: no two seats may look the same."""
    seated = session.execute(select(Player.name, Player.is_bot).join(RoomSeat, RoomSeat.player_id == Player.id)
                             .where(RoomSeat.room_id == room_id)).all()
    taken = {seat_skeleton(name) for name, _ in seated}
    number = sum(1 for _, is_bot in seated if is_bot) + 1
    while seat_skeleton(f"Bot {number}") in taken:
        number += 1
    return f"Bot {number}"


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
    wanted = body.seat if body else None
    live = await hub.room(room_id)
    online = {player_id for player_id in live.connection_counts() if player_id}

    def seat_bot(session) -> None:
        room = store.get_room(session, room_id, for_update=True)
        if room.host_id != player.id:
            raise ApiError(403, "not_host", "only the host can seat bots")
        if wanted is not None and not 0 <= wanted < room.num_seats:
            raise bad_seat(wanted, room.num_seats)
        seats = store.room_seats(session, room_id)
        if room.status == "open":
            free = [s for s in seats if s.player_id is None and (wanted is None or s.seat == wanted)]
            if not free:
                raise ApiError(409, "seat_taken" if wanted is not None else "room_full",
                               f"{seat_name(wanted)} is taken" if wanted is not None else "the room is full")
            seat = free[0]
        elif room.status == "running":
            if wanted is None:
                raise ApiError(422, "bad_seat", "name the seat of the player who left")
            seat = seats[wanted]
            if not seat.left:
                raise ApiError(409, "seat_taken", f"{seat_name(wanted)} is played by someone who has not left")
            if seat.player_id == player.id:  # (a host losing by leaving must not hand the loss to a bot)
                raise ApiError(409, "own_seat", "you left this seat: take it back (join) to play on; a bot "
                               "already plays it until then")
            # The leaver's abandonment, in this transaction: written before the bot sits, however
            # soon after the leave, so the match counts it (a rated loss for the leaver, app.ratings).
            if room.match_id and seat.player_id:
                record_abandonment(session, room.match_id, seat.player_id, seat.seat, commit=False)
        elif room.status == "finished":
            if wanted is None:
                raise ApiError(422, "bad_seat", "name the seat of the player who is gone")
            seat = seats[wanted]
            occupant = session.get(Player, seat.player_id) if seat.player_id else None
            if occupant is None or occupant.is_bot or seat.player_id == player.id or seat.player_id in online:
                raise ApiError(409, "seat_taken", f"{seat_name(wanted)} is played by someone who is here")
        else:
            raise ApiError(409, "room_closed", f"the room is {room.status}")
        check_bot_seat(session, room, settings, client_ip(request))  # (app/limits/tables.py)
        bot = Player(id=new_id(), name=_bot_name(session, room_id),
                     token_hash=hash_token(new_token()), is_bot=True)
        session.add(bot)
        session.flush()
        seat.player_id = bot.id
        seat.left = False
        seat.private_data = {"bot_level": body.level if body else DEFAULT_LEVEL}
        session.commit()

    async with hub.lock(room_id):
        await db.run(seat_bot)
        live = await hub.refresh(room_id)
        if live.summary_base.get("status") == "finished":
            await confirm_rematch(hub, room_id, player.id)  # the bot's yes and the host's
            return (await hub.room(room_id)).summary()
        if live.runner is not None:
            # Under the runner's lock, so no automatic step is cancelled half-way through its commit.
            async with live.runner.lock:
                live.runner.reschedule()
        return live.summary()


@router.delete("/{room_id}/bots/{seat}", summary="Remove a bot from an open room (host only)")
async def remove_bot(room_id: RoomId, seat: Annotated[int, Path(ge=0, lt=MAX_SEATS)], player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """Bots cannot call ``/leave`` themselves, so the host frees their seat before the start."""
    def unseat(session) -> None:
        room = store.get_room(session, room_id, for_update=True)
        if room.host_id != player.id:
            raise ApiError(403, "not_host", "only the host can remove bots")
        if room.status != "open":
            raise ApiError(409, "room_not_open", f"the room is {room.status}; bots stay until the end")
        row = session.get(RoomSeat, (room_id, seat))
        occupant = session.get(Player, row.player_id) if row and row.player_id else None
        if occupant is None or not occupant.is_bot:
            raise ApiError(409, "not_a_bot", f"{seat_name(seat)} has no bot")
        row.player_id = None
        row.private_data = {}
        session.commit()

    async with hub.lock(room_id):
        await db.run(unseat)
        return (await hub.refresh(room_id)).summary()
