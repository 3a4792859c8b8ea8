"""A stream subscriber that a ``LiveRoom`` treats like a socket.

``LiveRoom`` pushes to everything in ``connections`` through ``send(message)`` and reads
``player_id`` to pick the seat's view; an object with just those two members therefore receives
exactly what a WebSocket of the same player would (its seat's views, room updates, its chat),
with no change to the push code. Messages wait in a queue until the HTTP response writes them."""

from __future__ import annotations

import asyncio

from starlette.responses import StreamingResponse

from app.limits.sockets import Admission
from app.live.connection import MAX_QUEUED


SHUTTING_DOWN = {"type": "error", "code": "shutting_down",
                 "message": "the server is restarting: reconnect for a full view"}


class StreamSubscriber:
    def __init__(self, player_id: str | None):
        self.player_id = player_id
        self.queue: asyncio.Queue[dict | None] = asyncio.Queue()
        self.overflowed = False

    def send(self, message: dict) -> None:
        """Called by the room; a reader this far behind is cut off (it reconnects for a full view)."""
        if self.overflowed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)

    async def close_after_flush(self, _code: int, _reason: str) -> None:
        """End the stream after what is queued (the server restarts: the hub's drain), with an
        ``error`` line ``shutting_down`` as its last, so a reader knows to reconnect rather than
        take the end for a finished match or a network fault."""
        if not self.overflowed:
            self.queue.put_nowait(SHUTTING_DOWN)
        self.queue.put_nowait(None)

    def send_frame(self, encoded) -> None:
        self.send(encoded.message)  # the stream writes its own NDJSON lines


class NdjsonResponse(StreamingResponse):
    """An NDJSON stream's response (a room's, or "my tables"): closes the line generator however
    the response ends, so a subscriber is always removed, and gives the stream's place in the
    bounds back."""

    def __init__(self, lines, admission: Admission, **kwargs):
        super().__init__(lines, **kwargs)
        self.admission = admission

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            try:
                await self.body_iterator.aclose()
            finally:
                await self.admission.release()
