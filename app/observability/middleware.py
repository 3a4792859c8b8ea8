"""Per request: an id (the caller's ``X-Request-ID`` when it is sane, else a new one, echoed back),
one log line and the HTTP metrics when the response is sent, and every unhandled exception logged
once with its context and answered with a clear 500 (``{"error": {"code": "internal", ...}}``)
instead of travelling on to the server's own error log."""

from __future__ import annotations

import json
import logging
import re
import secrets
import time

from app.observability import logs, metrics

log = logging.getLogger("asobiba.http")

# The longest path a log line holds. A request head may be 16 KiB, and every id in a logged path is
# hashed to its ref (logs.scrub_ids_of) on the event loop: a path of thousands of ids cost ~0.1 s
# of the loop per line (found by review). A real path is far shorter; the rest is cut and counted.
MAX_LOGGED_PATH = 512


def logged_path(path: str) -> str:
    if len(path) <= MAX_LOGGED_PATH:
        return path
    return f"{path[:MAX_LOGGED_PATH]}…(+{len(path) - MAX_LOGGED_PATH} characters)"

_SANE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# Probes and scrapes come every few seconds: their lines are debug-level.
QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
# Set in a request's scope (by ``expected_unavailable``) when its 5xx is the server saying what it
# should: the readiness probe's 503 "shutting down", a drain's 503 ``shutting_down``. Such a line is
# info-level; every other 5xx stays an error line.
EXPECTED_UNAVAILABLE = "asobiba.expected_unavailable"


def expected_unavailable(scope) -> None:
    """Mark this request's 5xx answer as expected (logged at INFO, not ERROR)."""
    scope[EXPECTED_UNAVAILABLE] = True


def _route_of(scope) -> str:
    """The route template (``/api/rooms/{room_id}``): a bounded label, and no ids in it."""
    route = scope.get("route")
    path = getattr(route, "path", None) or getattr(route, "path_format", None)
    return path or "unmatched"


def _request_id(scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = value.decode("latin-1")
            if _SANE_ID.match(text):
                return text
    return secrets.token_hex(8)


# The methods a metric's label names; any other (a client may send any token as its method, each
# answered 405) is counted as "OTHER", so nobody can add series to /metrics without end.
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class ObservabilityMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            with logs.bind(request_id=_request_id(scope)):
                try:
                    await self.app(scope, receive, send)
                except Exception:
                    log.exception("unhandled error on a socket", extra={"path": scope.get("path")})
                    try:
                        await send({"type": "websocket.close", "code": 1011})
                    except Exception:
                        pass
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _request_id(scope)
        started = time.perf_counter()
        status = {"code": 500, "sent": False, "logged": False}

        async def send_with_id(message):
            if message["type"] == "http.response.start":
                status["code"], status["sent"] = message["status"], True
                message = dict(message, headers=list(message.get("headers", [])) + [(b"x-request-id", request_id.encode())])
                self._record(scope, status["code"], started, already_logged=status["logged"])
            await send(message)

        with logs.bind(request_id=request_id):
            try:
                await self.app(scope, receive, send_with_id)
            except Exception:
                path = logged_path(scope["path"])
                log.exception("unhandled error answering %s %s", scope["method"], path,
                              extra={"method": scope["method"], "path": path, "route": _route_of(scope)})
                status["logged"] = True
                if status["sent"]:
                    return  # the response already started: nothing more can be said to this client
                body = json.dumps({"error": {"code": "internal", "message": f"internal error (request id {request_id}); it has been logged"}}).encode()
                await send_with_id({"type": "http.response.start", "status": 500,
                                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})

    @staticmethod
    def _record(scope, status: int, started: float, already_logged: bool = False) -> None:
        """One line per request; a 5xx is an error line (once: an unhandled exception's own line
        already says it), except an expected one (``expected_unavailable``), an info line."""
        seconds = time.perf_counter() - started
        route = _route_of(scope)
        method = scope["method"] if scope["method"] in KNOWN_METHODS else "OTHER"
        metrics.HTTP_REQUESTS.labels(method, route, str(status)).inc()
        metrics.HTTP_LATENCY.labels(route).observe(seconds)
        if status >= 500 and not already_logged and not scope.get(EXPECTED_UNAVAILABLE):
            level = logging.ERROR
        elif status >= 500:
            level = logging.INFO
        else:
            level = logging.DEBUG if scope["path"] in QUIET_PATHS and status < 500 else logging.INFO
        params = scope.get("path_params") or {}
        path = logged_path(scope["path"])
        # The path's ids are logged as refs (logs.scrub_ids_of): a room's in room_id too; a
        # match's raw id only where the server itself names the match (the live code's lines).
        log.log(level, "%s %s %s", scope["method"], path, status,
                extra={"method": scope["method"], "path": path, "route": route, "status": status,
                       "duration_ms": round(seconds * 1000, 1), "room_id": params.get("room_id")})
