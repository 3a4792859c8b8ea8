"""Graceful shutdown: what happens between SIGTERM and exit 0.

1. Readiness turns false (``/readyz`` answers 503 "shutting down") while everything else still
   serves, for ``shutdown_unready_seconds``: long enough for a load balancer to stop sending new
   players here.
2. Draining: new requests get 503 ``shutting_down`` and new sockets close at once with 1012; each
   drain step registered with ``on_drain`` runs (the hub lets actions already being applied commit
   and push their views, then closes every socket with 1012 "server restarting" so clients
   reconnect at once and resync with their version).
3. Uvicorn closes the listener, waits for what is left and runs the app's shutdown.
All of it within ``shutdown_timeout`` seconds; then the process exits 0.

``GracefulServer`` is how step 1 comes before uvicorn's own shutdown: uvicorn's signal handler
would close every socket first, before the app could finish in-flight actions."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import time
from collections.abc import Awaitable, Callable

import uvicorn

from app.observability.middleware import expected_unavailable

log = logging.getLogger("asobiba.lifecycle")

# Requests still served while draining: the probes and the metrics an operator watches the drain with.
ALWAYS_SERVED = frozenset({"/healthz", "/readyz", "/metrics"})
RESTART_CODE = 1012
RESTART_REASON = "server restarting"


class Lifecycle:
    """The process's shutdown state, shared by the readiness probe, the gate and the drain steps."""

    def __init__(self, unready_seconds: float, timeout: float):
        self.unready_seconds = unready_seconds
        self.timeout = timeout
        self.shutting_down = False  # readiness is false
        self.draining = False  # new work is refused
        self._drain_steps: list[Callable[[], Awaitable[None]]] = []

    def on_drain(self, step: Callable[[], Awaitable[None]]) -> None:
        """Run ``await step()`` while draining (cut off at the deadline)."""
        self._drain_steps.append(step)

    async def shutdown(self) -> None:
        """Steps 1 and 2; returns within ``timeout`` minus a margin left for uvicorn's own shutdown."""
        started = time.monotonic()
        deadline = started + max(self.timeout - 1.0, self.timeout * 0.8)
        self.shutting_down = True
        log.info("shutting down: readiness is false", extra={"event": "shutdown_started"})
        await asyncio.sleep(max(0.0, min(self.unready_seconds, (deadline - started) / 2)))
        self.draining = True
        log.info("draining", extra={"event": "drain_started"})
        for step in self._drain_steps:
            remaining = deadline - time.monotonic()
            try:
                await asyncio.wait_for(step(), timeout=max(remaining, 0.01))
            except asyncio.TimeoutError:
                log.error("drain step %s did not finish in time", getattr(step, "__qualname__", step),
                          extra={"event": "drain_timeout"})
            except Exception:
                log.exception("drain step %s failed", getattr(step, "__qualname__", step))
        log.info("drained in %.2f s", time.monotonic() - started,
                 extra={"event": "drain_finished", "seconds": round(time.monotonic() - started, 3)})


class DrainGate:
    """While draining: HTTP requests (except probes and metrics) get 503 ``shutting_down`` with
    ``Retry-After``; WebSockets are accepted and closed at once with 1012 so clients retry elsewhere."""

    def __init__(self, app, lifecycle: Lifecycle):
        self.app = app
        self.lifecycle = lifecycle

    async def __call__(self, scope, receive, send):
        if not self.lifecycle.draining or scope["type"] not in ("http", "websocket") or scope["path"] in ALWAYS_SERVED:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": RESTART_CODE, "reason": RESTART_REASON})
            return
        expected_unavailable(scope)  # a drain's refusal is expected: an info line, not an error
        body = json.dumps({"error": {"code": "shutting_down",
                                     "message": "this server is restarting; retry in a moment"}}).encode()
        await send({"type": "http.response.start", "status": 503, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"retry-after", b"1"), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class GracefulServer(uvicorn.Server):
    """Uvicorn, with the first SIGTERM (or SIGINT) running ``lifecycle.shutdown()`` before uvicorn's
    own shutdown; a second signal stops at once. The signal is not re-raised after a drained
    shutdown, so the process exits 0."""

    def __init__(self, config: uvicorn.Config, lifecycle: Lifecycle):
        super().__init__(config)
        self.lifecycle = lifecycle
        self._loop: asyncio.AbstractEventLoop | None = None
        self._shutdown: asyncio.Task | None = None

    async def serve(self, sockets=None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame) -> None:
        if self._loop is None or self._shutdown is not None or self.should_exit:
            if self.should_exit or self._shutdown is not None:
                self.force_exit = True
            self.should_exit = True
            return
        log.info("received %s", signal.Signals(sig).name, extra={"event": "signal"})
        self._loop.call_soon_threadsafe(self._begin)

    def _begin(self) -> None:
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._shut_down_then_exit())

    async def _shut_down_then_exit(self) -> None:
        started = time.monotonic()
        try:
            await self.lifecycle.shutdown()
        except Exception:
            log.exception("graceful shutdown failed; stopping anyway")
        # What is left of the budget bounds uvicorn's wait for open connections (streams, sockets).
        self.config.timeout_graceful_shutdown = max(  # type: ignore[assignment]  # seconds; fractions work
            0.2, self.lifecycle.timeout - (time.monotonic() - started) - 0.3)
        self.should_exit = True

