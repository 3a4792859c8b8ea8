"""Refuse oversized request bodies with 413 ``too_large``: at once when ``Content-Length`` says so,
and for a chunked body (no length given) as soon as the bytes read pass the limit."""

from __future__ import annotations

import json


class BodyLimitMiddleware:
    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            return await _too_large(send, self.max_bytes)
        received = 0
        refused = False

        async def limited_receive():
            # Past the limit the 413 is sent here, and the app is told the client went away: an
            # exception raised into the app instead would reach FastAPI's body parsing, which
            # turns any error there into 400 "error parsing the body".
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                refused = True
                await _too_large(send, self.max_bytes)
                return {"type": "http.disconnect"}
            return message

        async def send_unless_refused(message):
            if not refused:
                await send(message)

        try:
            await self.app(scope, limited_receive, send_unless_refused)
        except Exception:
            if not refused:
                raise  # (after a 413 the app's complaint about the missing body is moot)


async def _too_large(send, max_bytes: int) -> None:
    body = json.dumps({"error": {"code": "too_large", "message": f"request bodies are limited to {max_bytes} bytes"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
