"""One client socket with its own ordered send queue, so a slow client never stalls a room."""

from __future__ import annotations

import asyncio
import contextlib
import json

from starlette.websockets import WebSocket

# A client this far behind is disconnected; on reconnect it resyncs.
MAX_QUEUED = 256


class Connection:
    def __init__(self, websocket: WebSocket, player_id: str | None):
        self.websocket = websocket
        self.player_id = player_id
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, message: dict) -> None:
        if self._queue.qsize() >= MAX_QUEUED:
            self._queue.put_nowait(None)
            return
        self._queue.put_nowait(json.dumps(message, separators=(",", ":")))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self._writer.cancel()
        with contextlib.suppress(Exception):
            await self.websocket.close(code, reason)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    await self.websocket.close(1008, "too far behind; reconnect to resync")
                    return
                await self.websocket.send_text(text)
        except (asyncio.CancelledError, Exception):
            return
