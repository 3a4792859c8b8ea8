"""Refuse requests whose path or query string carries control characters (400 ``malformed``) before
any route sees them: ids and filters reach the database as text, and PostgreSQL stores no NUL."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class RequestGuardMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and _has_control(scope):
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 1008, "reason": "malformed path or query"})
            body = json.dumps({"error": {"code": "malformed", "message":
                                         "the path or query contains control characters"}}).encode()
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
            return await send({"type": "http.response.body", "body": body})
        return await self.app(scope, receive, send)


def _has_control(scope) -> bool:
    query = unquote((scope.get("query_string") or b"").decode("latin-1"))
    return bool(CONTROL.search(scope.get("path", "")) or CONTROL.search(query))
