"""What the live socket does with each client message: one handler per message model of
``app.protocol.client_messages``, found by the parsed message's class (the frame was read and
checked in one place before, so a handler sees only well-formed fields)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from app.chat import handle_chat
from app.errors import ApiError
from app.limits.sockets import SocketGuard
from app.live.connection import Connection
from app.live.room import LiveRoom
from app.protocol import client_messages as msg
from app.rematch.confirm import confirm as confirm_rematch
from app.rooms.checks import acting_seat
from app.schemas import json_problem


@dataclass
class SocketSession:
    """One open socket's context: its room, its connection, the app's state, its rate guard."""
    live: LiveRoom
    connection: Connection
    state: Any  # the app's ``state`` (hub, db, settings)
    guard: SocketGuard


async def handle(session: SocketSession, message: msg.ClientMessage) -> None:
    """Run the handler of ``message``'s type; raises ``ApiError`` (nothing changed) to refuse it."""
    await HANDLERS[type(message)](session, message)


async def _ping(session: SocketSession, _message: msg.Ping) -> None:
    session.connection.send({"type": "pong"})


async def _sync(session: SocketSession, message: msg.Sync) -> None:
    send_views(session.live, session.connection, message.version)


async def _action(session: SocketSession, message: msg.Action) -> None:
    live, connection = session.live, session.connection
    seat, runner = acting_seat(live, connection.player_id)
    problem = json_problem(message.action)
    if problem:
        raise ApiError(400, "invalid_action", f"the action cannot be taken: {problem}")
    new_version = await runner.submit(seat, message.action, message.version)
    if message.id is not None:  # committed: a client that named its action is told so, apart from the views
        connection.send({"type": "ack", "version": new_version, "ref": message.id})


async def _rematch(session: SocketSession, _message: msg.Rematch) -> None:
    player_id = session.connection.player_id
    if player_id is None:
        raise ApiError(403, "not_seated", "only a player seated in this room can ask for a rematch")
    if await session.guard.admit("actions"):
        await confirm_rematch(session.state.hub, session.live.id, player_id)


async def _chat(session: SocketSession, message: msg.Chat) -> None:
    await handle_chat(session.live, session.connection, message, session.guard, session.state.db, session.state.settings,
                      session.state.hub.notifier)


async def _hello(_session: SocketSession, _message: msg.Hello) -> None:
    raise ApiError(400, "malformed", "hello is only the first frame of a socket; open a new socket to change player")


HANDLERS: dict[type, Callable[[SocketSession, Any], Awaitable[None]]] = {
    msg.Ping: _ping, msg.Sync: _sync, msg.Action: _action, msg.Rematch: _rematch, msg.Chat: _chat, msg.Hello: _hello,
}


def send_views(live: LiveRoom, connection: Connection, since: int | None) -> None:
    """A reconnecting client gets the views it missed, or one full view marked ``resync`` when
    it is further behind than the views kept (``RESYNC_WINDOW``). A match's runner gives the missed
    views already encoded (each seat's view of a version is encoded once, however many sockets
    resync; a cluster's mirror has the owner's texts)."""
    runner = live.runner
    if runner is None:
        return
    seat = live.seat_of(connection.player_id)
    try:
        missed = runner.missed_views(seat, since) if since is not None else None
        if missed is not None:
            for view in missed:
                connection.send_frame(view)
        elif since is None or since != runner.version:
            connection.send(dict(runner.current(seat).message, resync=since is not None))
        else:
            connection.send_frame(runner.current(seat))
    except ApiError as exc:  # a cluster's mirror whose owner is changing: the views follow when it is back
        connection.send({"type": "error", "code": exc.code, "message": exc.message})
