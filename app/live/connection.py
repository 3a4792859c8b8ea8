"""One client socket with its own ordered send queue, so a slow client never stalls a room.

A message goes straight onto the socket as its prebuilt frame when the server offers that
(``app.live.socket_protocol``) and nothing is queued before it. Otherwise it is queued, and a
writer task (started when first needed) sends the queue in order through ASGI, waiting while the
transport applies back-pressure. A socket whose queue reaches its limit (a client that stopped
reading) is closed with 1013 (try again later) and sent nothing more; it resyncs when it reconnects.

The queue is a plain deque and its writer task is woken only when it has gone idle (an
``asyncio.Queue`` costs several times more per message, and every move pushes one to each socket)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Callable

from starlette.websockets import WebSocket

from app.live.socket_protocol import FRAMES_EXTENSION
from app.live.wire import Encoded

# A client this far behind is disconnected; on reconnect it resyncs.
MAX_QUEUED = 256


class Connection:
    def __init__(self, websocket: WebSocket, player_id: str | None, max_queued: int = MAX_QUEUED):
        self.websocket = websocket
        self.player_id = player_id
        self.max_queued = max_queued
        self.overflowed = False
        # Set when the session that opened the socket ended: frames still arriving are not handled.
        self.ended = False
        # Called once with this connection when the socket is dropped as too slow (the room
        # forgets it at once, even while a client that reads nothing still holds the TCP
        # connection open). Given the connection rather than closing over it: a closure held
        # here would make a reference cycle, left for the cyclic collector at every close.
        self.on_drop: Callable[[Connection], None] | None = None
        frames = (websocket.scope.get("extensions") or {}).get(FRAMES_EXTENSION)
        self._write_frame: Callable[[bytes], bool] | None = frames["write"] if frames else None
        self._queue: deque[Encoded | tuple[int, str]] = deque()
        self._idle: asyncio.Future | None = None  # set while the writer waits for a message
        self._writer: asyncio.Task | None = None
        self._closed = False

    def send(self, message: dict) -> None:
        self.send_frame(Encoded.of(message))

    def send_frame(self, encoded: Encoded) -> None:
        """Send a message encoded once (and shared with other sockets): now, or queued in order."""
        if self.overflowed or self._closed:
            return
        if not self._queue and self._write_frame is not None and self._write_frame(encoded.frame):
            return
        if len(self._queue) >= self.max_queued:
            self.overflowed = True
            asyncio.get_running_loop().create_task(self._drop_slow_consumer())
            return
        self._put(encoded)

    async def close_after_flush(self, code: int, reason: str) -> None:
        """Close with ``code`` once everything queued before has been written (server restart)."""
        self._put((code, reason))
        if self._writer is not None:
            await asyncio.wait([self._writer])

    def _put(self, item: Encoded | tuple[int, str]) -> None:
        self._queue.append(item)
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())
        idle, self._idle = self._idle, None
        if idle is not None and not idle.done():
            idle.set_result(None)

    async def _drop_slow_consumer(self) -> None:
        """Stop writing (the writer may be stuck on a full TCP buffer) and close; if even the close
        frame cannot be written in time, the receive side ends when the transport does."""
        self._stop_writer()
        if self.on_drop is not None:
            self.on_drop(self)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(1013, "too far behind: reconnect to resync"), timeout=5)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self._stop_writer()
        with contextlib.suppress(Exception):
            await self.websocket.close(code, reason)

    def _stop_writer(self) -> None:
        self._closed = True
        if self._writer is not None:
            self._writer.cancel()

    async def _write(self) -> None:
        """Send the queue in order; a message leaves the queue only once written, so a direct
        write (which needs an empty queue) never overtakes one still being sent."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not self._queue:
                    self._idle = loop.create_future()
                    await self._idle
                    continue
                item = self._queue[0]
                if isinstance(item, tuple):  # close_after_flush
                    await self.websocket.close(*item)
                    return
                await self.websocket.send_text(item.text)
                self._queue.popleft()
        except (asyncio.CancelledError, Exception):
            return
