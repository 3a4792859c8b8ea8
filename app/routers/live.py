"""The live socket: ``WS /ws/rooms/{id}?version=n``, whose first frame is ``{"type": "hello",
"token": ...}`` (a null or absent token = spectator). The token travels in a frame, never in the
URL that proxies, browsers and access logs keep. A socket that sends anything else first, or
nothing within ``WS_HELLO_SECONDS``, is closed (1008). Deprecated: ``?token=`` in the URL is still
taken in place of the hello (programs written before it; the browser client never does that).

Server -> client: ``room`` (seats, presence), ``view`` (this seat's redacted view, versioned),
``error`` (code, message; nothing changed), ``ack`` (an action with an ``id`` was committed),
``chat``, ``chat_history``, ``pong``.
Client -> server: ``{"type": "action", "action": {...}, "version": n}``, ``{"type": "sync",
"version": n}`` (what did I miss?), ``{"type": "ping"}``, ``{"type": "chat", "text", "channel"?}``, ``{"type": "rematch"}`` (a seated
player's yes to a rematch once the match is over, as ``POST /api/rooms/{id}/rematch``: every socket
of the room gets the ``rematch`` state, and the new match's views once everyone has said yes).
Any of them may carry an ``id`` (a string of up to 64 characters or an integer): an error that
answers that message repeats it as ``ref``. An accepted action with an ``id`` is answered, once
committed, by ``{"type": "ack", "ref": id, "version": n}`` (after its views on a process that owns
the match); without an ``id`` the next view is the only sign, and it may as well be another seat's
action or a timer's step that took the version first (the refusal then follows it).
A reconnect with ``version=n`` receives the views after n (or one full view marked ``resync``).
Close codes: 4401 when the session or guest token that opened the socket ends (logged out,
revoked, expired, password changed, guest name claimed; ``error`` ``session_ended`` first), 1003 for binary frames (unsupported data), 1008 for a missing hello, a bad token, an unknown room, too many
sockets of one player or a client that keeps flooding past its rate limit (``error`` ``rate_limited``
first), 1013 (try again later) when sockets are opened too often (limit ``sockets``, ``error``
``rate_limited`` first), when the room has its most spectators, when the socket fell too far
behind (a slow consumer) or when the database cannot be reached; actions meanwhile get ``unavailable``."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.accounts.live_sessions import SESSION_ENDED, close_socket_later
from app.chat import send_history
from app.deps import player_and_credential
from app.errors import ApiError
from app.limits.sockets import SocketGuard, admit_socket, charge_socket_open
from app.live.connection import Connection
from app.live.socket_handlers import SocketSession, handle, send_views
from app.observability import logs
from app.protocol import Hello, MalformedFrame, parse_client_frame
from app.schemas import MAX_INT
from app.unavailable import is_outage, unavailable

router = APIRouter(tags=["live"])
log = logging.getLogger("asobiba.ws")


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str, token: str | None = None, version: str | None = None):
    app = websocket.app
    hub = app.state.hub
    limiter = app.state.limiter
    await websocket.accept()
    if not await charge_socket_open(websocket, limiter):  # per IP, before any other work
        return
    # Read here rather than by FastAPI: a query it cannot convert refuses the upgrade with a bare
    # 403, which tells a client author nothing; this says what is wrong, then closes (1008).
    try:
        seen = _version(version)
    except ValueError:
        await websocket.send_json(_error("malformed", f"version must be an integer from 0 to {MAX_INT}"))
        await websocket.close(1008, "malformed version")
        return
    try:
        await hub.room(room_id)
    except ApiError as exc:
        if exc.status != 404:  # a cluster's process that cannot reach Redis: come back later
            await websocket.send_json({"type": "error", **exc.as_dict()})
            await websocket.close(1013, exc.message)
        else:
            await websocket.close(1008, "unknown room")
        return
    except Exception as exc:  # the database is unreachable: come back later
        if not is_outage(exc):
            raise
        await _refuse_unavailable(websocket)
        return
    if token is None:  # (a deprecated ?token= stands in for the hello)
        hello = await _receive_hello(websocket, app.state.settings)
        if hello is None:
            return
        token = hello.token
    if token and not await charge_socket_open(websocket, limiter, token):
        return
    player = credential = None
    try:
        if token:
            player, credential = await app.state.db.run(player_and_credential, token)
    except ApiError as exc:
        await websocket.send_json({"type": "error", **exc.as_dict()})
        await websocket.close(1008, "bad token")
        return
    except Exception as exc:
        if not is_outage(exc):
            raise
        await _refuse_unavailable(websocket)
        return
    live = hub.rooms.get(room_id) or await hub.room(room_id)
    admission = await admit_socket(websocket, limiter, live, player.id if player else None)
    if admission is None:
        return
    connection = Connection(websocket, player.id if player else None, app.state.settings.send_queue_limit)
    connection.on_drop = live.leave  # a slow consumer leaves the room at once
    guard = SocketGuard(limiter, connection, websocket.client.host if websocket.client else None, token,
                        app.state.settings.ws_flood_strikes)
    logs.set_ids(room_id=room_id, seat=live.seat_of(connection.player_id),
                  match_id=live.runner.match_id if live.runner else None)
    log.info("socket opened", extra={"event": "socket_opened"})
    close_code = None
    # Ends with its session or guest token (revoked, expired, retired by a claim): 4401.
    untrack = app.state.live_sessions.track(credential, close_socket_later(connection, live))
    try:
        live.join(connection)
        send_views(live, connection, seen)
        await send_history(live, connection, app.state.db)
        # In a task of its own: each time a move's await resumes, Python passes through every
        # coroutine frame of the task, and this one's is ~20 deep (uvicorn, the middleware stack,
        # routing). Awaiting the task cancels it with this one. (Issue 34: ~4 % of a move's CPU.)
        await asyncio.get_running_loop().create_task(_receive_loop(SocketSession(live, connection, app.state, guard)))
    except WebSocketDisconnect as exc:
        close_code = exc.code
    finally:
        log.info("socket closed", extra={"event": "socket_closed", "close_code": close_code})
        untrack()
        try:
            live.leave(connection)
            await connection.close()
            hub.forget_if_idle(room_id)
        finally:  # (a cancelled close must not leave the socket counted)
            await admission.release()


async def _receive_loop(session: SocketSession) -> None:
    """Read frames until the client goes: each is rate-checked, parsed into its message model in
    one place (``parse_client_frame``) and handed to that model's handler."""
    connection, guard = session.connection, session.guard
    max_bytes = session.state.settings.max_frame_bytes
    websocket = connection.websocket
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        if connection.ended:  # its session ended: nothing it still sends is handled
            raise WebSocketDisconnect(SESSION_ENDED)
        if not await guard.admit("frames"):
            continue
        if frame.get("bytes") is not None:
            connection.send(_error("unsupported_data", "binary frames are not supported; send JSON text"))
            await connection.close(1003, "binary frames are not supported")
            raise WebSocketDisconnect(1003)
        text = frame.get("text") or ""
        if len(text.encode()) > max_bytes:
            connection.send(_error("too_large", f"frames are limited to {max_bytes} bytes"))
            continue
        try:
            message = parse_client_frame(text)
        except MalformedFrame as exc:
            connection.send(exc.as_error())
            continue
        ref = {} if message.id is None else {"ref": message.id}
        try:
            await handle(session, message)
        except ApiError as exc:
            connection.send({"type": "error", **exc.as_dict(), **ref})
        except Exception as exc:
            if not is_outage(exc):
                raise
            connection.send({"type": "error", **unavailable().as_dict(), **ref})


async def _receive_hello(websocket: WebSocket, settings) -> Hello | None:
    """The socket's first frame, which must be a ``hello``; None (the socket closed, after an
    ``error`` saying why) when it is something else or does not come in time."""
    try:
        frame = await asyncio.wait_for(websocket.receive(), settings.ws_hello_seconds)
    except asyncio.TimeoutError:
        await _close_with_error(websocket, "hello_expected", f"send a hello frame within {settings.ws_hello_seconds:g} s")
        return None
    if frame["type"] == "websocket.disconnect":
        return None
    text = frame.get("text")
    if text is None or len(text.encode()) > settings.max_frame_bytes:
        await _close_with_error(websocket, "hello_expected", 'the first frame must be {"type": "hello", "token": ...}')
        return None
    try:
        message = parse_client_frame(text)
    except MalformedFrame as exc:
        await websocket.send_json(exc.as_error())
        await websocket.close(1008, "hello expected")
        return None
    if not isinstance(message, Hello):
        await _close_with_error(websocket, "hello_expected", 'the first frame must be {"type": "hello", "token": ...}')
        return None
    return message


async def _close_with_error(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json(_error(code, message))
        await websocket.close(1008, "hello expected")


async def _refuse_unavailable(websocket: WebSocket) -> None:
    await websocket.send_json({"type": "error", **unavailable().as_dict()})
    await websocket.close(1013, "the database is unavailable; try again shortly")


def _version(text: str | None) -> int | None:
    """The ``?version=`` a reconnect names (None when absent); ValueError when it is not one."""
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 16 or int(text) > MAX_INT:
        raise ValueError(text)
    return int(text)


def _error(code: str, message: str) -> dict:
    return {"type": "error", "code": code, "message": message}
