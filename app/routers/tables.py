""""My tables" (issue 31.3) and vacations (issue 31.6): the caller's own tables, as a list, an
NDJSON stream and a chat-read mark; the caller's vacation. Every route is the caller's alone (a
player sees only the tables they sit at), rate limited, and bounded (``tables.MAX_TABLES``)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from app.correspondence import tables, vacation
from app.deps import CurrentPlayer, DbDep, HubDep
from app.errors import ApiError, not_found
from app.limits.rest import rate_limit
from app.limits.sockets import Admission, Refused
from app.live.stream import NdjsonResponse
from app.schemas import RoomId

router = APIRouter(prefix="/api/me", tags=["players"])

RATE_LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"description": "`rate_limited`: too many requests from this token or address; see `Retry-After`"}}
# Seconds between two looks at the caller's tables on the stream (a line goes out only when they changed).
STREAM_LOOK_SECONDS = 5.0
KEEPALIVE_SECONDS = 10.0


class VacationIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"days": 7}]})
    days: int = Field(ge=1, le=vacation.ALLOWANCE_DAYS, strict=True,
                      description=f"whole days, 1–{vacation.ALLOWANCE_DAYS} (at most {vacation.ALLOWANCE_DAYS} a year)")


async def my_tables(player_id: str, db, hub) -> dict:
    """Every table the caller sits at, the caller's turn first, and how many those are."""
    rows = await db.run(tables.read, player_id)
    now = hub.clock.now()
    entries = []
    for row in rows:
        awaiting, deadlines, owed = None, {}, False  # type: tuple[list | None, dict, bool]
        if row.status == "running":
            try:
                live = await hub.room(row.room_id)
                if live.runner is not None:
                    message = live.runner.current(row.seat).message  # the caller's own seat's view
                    if message.get("outcome") is None:
                        awaiting, deadlines = message.get("awaiting"), message.get("deadlines") or {}
                        if row.seat in (awaiting or []) and not tables.decides(message.get("legal_actions")):
                            awaiting = [s for s in awaiting or [] if s != row.seat]
                        owed = tables.answer_owed(message, live.summary().get("seats") or [], row.seat)
            except ApiError:  # (a cluster between owners: listed without its turn for now)
                pass
        entries.append(tables.entry(row, awaiting, deadlines, now, owed))
    listed = tables.ordered(entries)
    return {"tables": listed, "your_turn": sum(1 for e in listed if e["your_turn"]),
            "answers_owed": sum(1 for e in listed if e["answer_owed"]),
            "waiting_for_you": sum(1 for e in listed if e["your_turn"] or e["answer_owed"]), "now": int(now * 1000)}


@router.get("/tables", summary="The tables the caller sits at, those awaiting the caller first",
            dependencies=[rate_limit("actions")], responses=RATE_LIMITED)
async def list_tables(player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """Open and running tables the caller sits at (at most 100, newest first before ordering): whose
    turn (`awaiting`), the deadline and `time_left` (seconds) — the caller's own when it is their
    turn, else the soonest — the last move, unread room chat, each player's vacation, and
    `answer_owed` (a proposal waits for the caller's answer); `your_turn` counts the tables awaiting
    the caller's move, `answers_owed` those awaiting an answer, `waiting_for_you` either (the badge
    on every page)."""
    return await my_tables(player.id, db, hub)


@router.post("/tables/{room_id}/read", summary="The caller has read the room's chat",
             dependencies=[rate_limit("actions")], responses={
                 **RATE_LIMITED, 404: {"description": "`not_found`: no such room among the caller's tables"}})
async def read_chat(room_id: RoomId, player: CurrentPlayer, db: DbDep) -> dict:
    def mark(session) -> int:
        try:
            return tables.mark_read(session, player.id, room_id)
        except LookupError:
            raise not_found("room", room_id) from None

    return {"room_id": room_id, "read_up_to": await db.run(mark)}


@router.get("/tables/stream", response_class=StreamingResponse, dependencies=[rate_limit("sockets")],
            summary="The caller's tables as an NDJSON stream", responses={
                200: {"description": "NDJSON: a `tables` line (the same object as `GET /api/me/tables`) at "
                                     "once and whenever it changes; `{\"type\": \"ping\"}` after 10 s of silence",
                      "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
                429: {"description": "`too_many_sockets`: the player holds `MAX_SOCKETS_PER_PLAYER` sockets and "
                                     "streams; `rate_limited`: too many opened (limit `sockets`)"}})
async def stream_tables(player: CurrentPlayer, db: DbDep, hub: HubDep, request: Request) -> StreamingResponse:
    limiter = request.app.state.limiter
    if not await limiter.open_socket(player.id):  # counts like a socket (MAX_SOCKETS_PER_PLAYER)
        settings = request.app.state.settings
        raise Refused(429, "too_many_sockets", f"a player may hold {settings.max_sockets_per_player} sockets and "
                      "streams at once; close another first", 1008)
    admission = Admission(limiter, player.id, None)
    ended = asyncio.Event()  # set when the token's session ends (logged out, revoked, expired)
    untrack = request.app.state.live_sessions.track(getattr(request.state, "credential", None), ended.set)

    async def lines():
        try:
            last, last_sent = None, time.monotonic()
            while not ended.is_set():
                current = await my_tables(player.id, db, hub)
                shown = {k: v for k, v in current.items() if k != "now"}
                for entry in shown["tables"]:
                    entry.pop("time_left", None)  # (counts down by itself: not a change)
                if shown != last:
                    last = shown
                    yield _line({"type": "tables", **current})
                    last_sent = time.monotonic()
                elif time.monotonic() - last_sent >= KEEPALIVE_SECONDS:
                    yield _line({"type": "ping"})
                    last_sent = time.monotonic()
                try:
                    await asyncio.wait_for(ended.wait(), STREAM_LOOK_SECONDS)
                except asyncio.TimeoutError:
                    pass
            yield _line({"type": "error", "code": "session_ended", "message": "this session has ended"})
        finally:
            untrack()

    return NdjsonResponse(lines(), admission, media_type="application/x-ndjson",
                          headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _line(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


# --- vacation ----------------------------------------------------------------------------------


@router.get("/vacation", summary="The caller's vacation and the days left this year",
            dependencies=[rate_limit("actions")], responses=RATE_LIMITED)
async def get_vacation(player: CurrentPlayer, hub: HubDep) -> dict:
    return vacation.status(player, hub.clock.now())


@router.post("/vacation", summary="Pause the caller's correspondence clocks for some days",
             dependencies=[rate_limit("actions")], responses={
                 **RATE_LIMITED, 409: {"description": "`on_vacation`: one is running; `vacation_exhausted`: "
                                                     "not that many days left this year"}})
async def start_vacation(body: VacationIn, player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    now = hub.clock.now()
    state, rooms = await db.run(lambda session: vacation.start(session, player.id, body.days, now))
    await _tell(hub, rooms)
    return state


@router.delete("/vacation", summary="End the caller's vacation now (the unused days come back)",
               dependencies=[rate_limit("actions")], responses={
                   **RATE_LIMITED, 409: {"description": "`not_on_vacation`"}})
async def end_vacation(player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    now = hub.clock.now()
    state, rooms = await db.run(lambda session: vacation.end(session, player.id, now))
    await _tell(hub, rooms)
    return state


async def _tell(hub, rooms: list[str]) -> None:
    """Every table of the player shows the vacation; each running match's owner re-arms its deadlines."""
    for room_id in rooms:
        try:
            await hub.refresh(room_id, deadlines=True)
        except ApiError:  # (the change is stored; an owner also reads its deadlines before firing)
            pass
