"""One client socket with its own ordered send queue, so a slow client never stalls a room: pushes
only queue, and a socket whose queue reaches its limit (a client that stopped reading) is closed
with 1013 (try again later) and sent nothing more; it resyncs when it reconnects.

The queue is a plain deque and its writer task is woken only when it has gone idle (an
``asyncio.Queue`` costs several times more per message, and every move pushes one to each socket)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Callable

from starlette.websockets import WebSocket

from app.live.wire import encode

# A client this far behind is disconnected; on reconnect it resyncs.
MAX_QUEUED = 256


class Connection:
    def __init__(self, websocket: WebSocket, player_id: str | None, max_queued: int = MAX_QUEUED):
        self.websocket = websocket
        self.player_id = player_id
        self.max_queued = max_queued
        self.overflowed = False
        # Called once when the socket is dropped as too slow (the room forgets it at once, even
        # while a client that reads nothing still holds the TCP connection open).
        self.on_drop: Callable[[], None] | None = None
        self._queue: deque[str | tuple[int, str]] = deque()
        self._idle: asyncio.Future | None = None  # set while the writer waits for a message
        self._writer = asyncio.create_task(self._write())

    def send(self, message: dict) -> None:
        self.send_encoded(message, encode(message))

    def send_encoded(self, message: dict, text: str) -> None:
        """Queue ``text`` (``message`` already encoded, shared with other sockets)."""
        if self.overflowed:
            return
        if len(self._queue) >= self.max_queued:
            self.overflowed = True
            asyncio.get_running_loop().create_task(self._drop_slow_consumer())
            return
        self._put(text)

    async def close_after_flush(self, code: int, reason: str) -> None:
        """Close with ``code`` once everything queued before has been written (server restart)."""
        self._put((code, reason))
        await asyncio.wait([self._writer])

    def _put(self, item: str | tuple[int, str]) -> None:
        self._queue.append(item)
        idle, self._idle = self._idle, None
        if idle is not None and not idle.done():
            idle.set_result(None)

    async def _drop_slow_consumer(self) -> None:
        """Stop writing (the writer may be stuck on a full TCP buffer) and close; if even the close
        frame cannot be written in time, the receive side ends when the transport does."""
        self._writer.cancel()
        if self.on_drop is not None:
            self.on_drop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(1013, "too far behind: reconnect to resync"), timeout=5)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self._writer.cancel()
        with contextlib.suppress(Exception):
            await self.websocket.close(code, reason)

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not self._queue:
                    self._idle = loop.create_future()
                    await self._idle
                    continue
                text = self._queue.popleft()
                if isinstance(text, tuple):  # close_after_flush
                    await self.websocket.close(*text)
                    return
                await self.websocket.send_text(text)
        except (asyncio.CancelledError, Exception):
            return
