"""The streaming client API (like lichess's board API), for programs that would rather read lines
than speak WebSocket: ``GET /api/rooms/{id}/stream`` with a bearer token is an NDJSON stream of
what the caller's socket would receive; actions go through ``POST /api/rooms/{id}/actions``."""

from __future__ import annotations

import asyncio
import json
import logging
import time

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from app.accounts.live_sessions import end_stream
from app.deps import CurrentPlayer, HubDep
from app.limits.rest import rate_limit
from app.limits.sockets import admit
from app.live.stream import NdjsonResponse, StreamSubscriber
from app.schemas import RoomId

log = logging.getLogger("asobiba.stream")
router = APIRouter(prefix="/api/rooms", tags=["stream"])

# Seconds of silence after which a ``{"type": "ping"}`` line is sent (proxies drop idle streams).
KEEPALIVE_SECONDS = 10.0

_EXAMPLE = "\n".join(json.dumps(line, separators=(",", ":"), ensure_ascii=False) for line in [
    {"type": "view", "version": 3, "seat": 1, "match_id": "9f1c…", "view": {"phase": "predict", "hand": [2, 7]},
     "awaiting": [1], "legal_actions": [{"type": "predict", "card": 2}, {"type": "predict", "card": 7}],
     "deadlines": {}, "outcome": None},
    {"type": "room", "room": {"id": "Qm…", "game": "synomilia", "status": "running", "seats": ["…"]}},
    {"type": "ping"},
    {"type": "chat", "message": {"id": 4, "channel": "room", "player_id": "…", "name": "Aki", "text": "gg",
                                 "at": "2026-01-01T12:00:00+00:00"}},
    {"type": "view", "version": 4, "seat": 1, "match_id": "9f1c…", "view": {"phase": "reveal"},
     "awaiting": [-1], "legal_actions": [], "deadlines": {}, "outcome": None},
]) + "\n"

_DESCRIPTION = """\
One JSON object per line (`application/x-ndjson`), for the caller's seat only (a caller without a
seat gets the spectator view):

* first line: the full `view` message (the same object as `GET /view` and the WebSocket `view`),
  or, before the match starts, a `room` message;
* then one line per change: `view` (new version), `room` (seats, presence, status), `chat`
  (room chat, and team chat of the caller's team);
* `{"type": "ping"}` when nothing else was sent for 10 seconds.

The stream ends after the line of the view that carries the `outcome` (and anything pushed with
it), or after an `error` line `session_ended` when the token's session ends (logged out, revoked,
expired, password changed, guest name claimed), or after an `error` line `shutting_down` when the
server restarts (reconnect, to this or another process). A reader that falls far behind is cut off: reconnect to get a full view. To act, send
`POST /api/rooms/{id}/actions` with `{"action": <one of legal_actions>, "version": <view version>}`.
"""


@router.get("/{room_id}/stream", response_class=StreamingResponse, summary="Stream this seat's updates (NDJSON)",
            description=_DESCRIPTION, dependencies=[rate_limit("sockets")], responses={
                200: {"description": "NDJSON, one message per line, until the outcome (or until the client disconnects).",
                      "content": {"application/x-ndjson": {"schema": {"type": "string"}, "example": _EXAMPLE}}},
                401: {"description": "`bad_token`: a player token is required"},
                404: {"description": "`not_found`: no such room"},
                429: {"description": "`too_many_sockets`: the player holds `MAX_SOCKETS_PER_PLAYER` sockets and "
                                     "streams, or (not seated) the address `MAX_SPECTATORS_PER_IP`; `rate_limited`: "
                                     "too many sockets and streams opened (limit `sockets`)"},
                503: {"description": "`too_many_spectators`: the room has `MAX_SPECTATORS_PER_ROOM` spectators"},
            })
async def stream_room(room_id: RoomId, player: CurrentPlayer, hub: HubDep, request: Request) -> StreamingResponse:
    live = await hub.room(room_id)  # 404 before the stream starts
    # A stream counts against the same bounds as a socket (players, spectators per room and per IP).
    admission = await admit(request.app.state.limiter, request.app.state.settings, live, player.id,
                            request.client.host if request.client else None)
    subscriber = StreamSubscriber(player.id)

    async def lines():
        # Registered when the body starts (and removed in ``finally``), with no await between the
        # first line and joining the room's pushes, so no change falls in between.
        first = (live.runner.current(live.seat_of(player.id)).message if live.runner is not None
                 else {"type": "room", "room": live.summary()})
        live.connections.add(subscriber)
        # Ends with its session or guest token (revoked, expired, retired by a claim).
        untrack = request.app.state.live_sessions.track(getattr(request.state, "credential", None),
                                                        end_stream(subscriber, live))
        live.check_presence()  # a streaming player is present (zombie seats)
        ids = {"room_id": live.id, "seat": live.seat_of(player.id)}
        log.info("stream opened", extra={"event": "stream_opened", **ids})
        try:
            live.push_room()  # presence: the streaming client counts as connected (coalesced push)
            yield _line(first)
            if first.get("outcome") is not None:
                return
            last_sent = time.monotonic()
            while True:
                wait = last_sent + KEEPALIVE_SECONDS - time.monotonic()
                try:
                    message = await asyncio.wait_for(subscriber.queue.get(), timeout=max(wait, 0.001))
                except asyncio.TimeoutError:
                    message = {"type": "ping"}
                if message is None:
                    return  # too far behind
                if message.get("type") == "view" and message.get("version", 0) <= first.get("version", -1):
                    continue  # already covered by the first line
                yield _line(message)
                last_sent = time.monotonic()
                if message.get("type") == "view" and message.get("outcome") is not None:
                    while not subscriber.queue.empty():  # what was pushed with the final view
                        rest = subscriber.queue.get_nowait()
                        if rest is not None:
                            yield _line(rest)
                    return
        finally:
            untrack()
            live.leave(subscriber)
            log.info("stream closed", extra={"event": "stream_closed", **ids})

    return NdjsonResponse(lines(), admission, media_type="application/x-ndjson",
                          headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _line(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"
