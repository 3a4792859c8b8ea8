"""The live socket: ``WS /ws/rooms/{id}?token=...&version=n`` (no token = spectator).

Server -> client: ``room`` (seats, presence), ``view`` (this seat's redacted view, versioned),
``error`` (code, message; nothing changed), ``chat``, ``chat_history``, ``pong``.
Client -> server: ``{"type": "action", "action": {...}, "version": n}``, ``{"type": "sync",
"version": n}`` (what did I miss?), ``{"type": "ping"}``, ``{"type": "chat", "text", "channel"?}``.
A reconnect with ``version=n`` receives the views after n (or one full view marked ``resync``).
Close codes: 1003 for binary frames (unsupported data), 1008 for a bad token or unknown room."""

from __future__ import annotations

import json
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.chat import handle_chat, send_history
from app.deps import player_for_token
from app.errors import ApiError
from app.live.connection import Connection
from app.live.room import LiveRoom

router = APIRouter(tags=["live"])
log = logging.getLogger("asobiba.ws")


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str, token: str | None = None, version: int | None = None):
    await websocket.accept()
    app = websocket.app
    hub = app.state.hub
    player = None
    if token:
        with app.state.session_factory() as session:
            try:
                player = player_for_token(session, token)
            except ApiError:
                await websocket.close(1008, "bad token")
                return
    try:
        live = await hub.room(room_id)
    except ApiError:
        await websocket.close(1008, "unknown room")
        return
    connection = Connection(websocket, player.id if player else None)
    live.connections.add(connection)
    live.push_room()
    _send_views(live, connection, version)
    await send_history(live, connection)
    try:
        await _receive_loop(live, connection, app.state.settings.max_frame_bytes)
    except WebSocketDisconnect:
        pass
    finally:
        live.connections.discard(connection)
        await connection.close()
        live.push_room()
        hub.forget_if_idle(room_id)


async def _receive_loop(live: LiveRoom, connection: Connection, max_bytes: int) -> None:
    websocket = connection.websocket
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        if frame.get("bytes") is not None:
            connection.send(_error("unsupported_data", "binary frames are not supported; send JSON text"))
            await connection.close(1003, "binary frames are not supported")
            raise WebSocketDisconnect(1003)
        text = frame.get("text") or ""
        if len(text.encode()) > max_bytes:
            connection.send(_error("too_large", f"frames are limited to {max_bytes} bytes"))
            continue
        try:
            message = json.loads(text)
        except ValueError:
            connection.send(_error("malformed", "the frame is not valid JSON"))
            continue
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            connection.send(_error("malformed", 'a message must be a JSON object with a "type"'))
            continue
        try:
            await _dispatch(live, connection, message)
        except ApiError as exc:
            connection.send({"type": "error", **exc.as_dict()})


async def _dispatch(live: LiveRoom, connection: Connection, message: dict) -> None:
    kind = message["type"]
    if kind == "ping":
        connection.send({"type": "pong"})
    elif kind == "sync":
        version = message.get("version")
        _send_views(live, connection, version if isinstance(version, int) else None)
    elif kind == "action":
        seat = live.seat_of(connection.player_id)
        if seat is None:
            raise ApiError(403, "not_seated", "spectators cannot act: join a seat first")
        if live.runner is None:
            raise ApiError(409, "not_started", "the match has not started yet")
        version = message.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ApiError(400, "malformed", 'an action message needs an integer "version"')
        await live.runner.submit(seat, message.get("action"), version)
    elif kind == "chat":
        await handle_chat(live, connection, message)
    else:
        raise ApiError(400, "unknown_type", f"unknown message type {kind!r}")


def _send_views(live: LiveRoom, connection: Connection, since: int | None) -> None:
    """A reconnecting client gets the views it missed, or one full view marked ``resync``."""
    runner = live.runner
    if runner is None:
        return
    seat = live.seat_of(connection.player_id)
    missed = runner.missed_messages(seat, since) if since is not None else None
    if missed is not None:
        for message in missed:
            connection.send(message)
    elif since is None or since != runner.version:
        connection.send(dict(runner.message(seat), resync=since is not None))
    else:
        connection.send(runner.message(seat))


def _error(code: str, message: str) -> dict:
    return {"type": "error", "code": code, "message": message}
