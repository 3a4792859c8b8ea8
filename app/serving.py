"""How uvicorn serves the app, the same for every start path (``python -m app``, scripts/serve, the
Docker image, the tests' servers): a server reachable without a proxy must survive clients that
send huge or never-ending request heads and clients that open connections by the thousand.

- HTTP is parsed by h11, whose buffer for an unfinished request head is capped
  (``MAX_HEADER_BYTES``; past it: 400 and close). httptools, uvicorn's default, has no cap and
  takes quadratic time on a long header: two clients streaming one stalled the whole server.
- A request's head and body must arrive within ``REQUEST_READ_TIMEOUT`` seconds of the
  connection opening (or of the previous response): a client that trickles a byte at a time is
  cut off (uvicorn's keep-alive timer restarts on every byte received). A loop held up past the
  deadline does not cut a request that waits unread: the loop reads its sockets before it runs
  due timers (libuv since 1.45, as asyncio), so the guard cuts only clients that were late.
- At most ``MAX_CONNECTIONS`` connections (HTTP and WebSockets) at once, and never more than the
  open-file limit leaves room for (database, logs): the next one is answered 503 and closed,
  instead of the process running out of file descriptors.
- At most ``MAX_CONNECTIONS_PER_ADDRESS`` of them from one client address (an IPv6 client's /64),
  and never more than half the bound: the next one from there is answered 503 and closed at
  accept, so one client holding half-sent requests cannot take every connection. A WebSocket is
  the connection it was upgraded from, counted until it closes. A peer in
  ``FORWARDED_ALLOW_IPS`` (a proxy: every client behind it shares its address) is not bounded
  here; that is the proxy's job (deploy/haproxy.cfg bounds connections per client address).
- ``LISTEN_BACKLOG`` connections wait in the kernel to be accepted (uvicorn's 2048 overflowed when
  thousands of sockets reconnected in one second; the kernel caps it at ``net.core.somaxconn``).
- Client addresses come from ``app/proxy.py`` (uvicorn's proxy headers are off)."""

from __future__ import annotations

import asyncio
import json
import resource

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.limits.addresses import address_key
from app.live.socket_protocol import uvicorn_ws
from app.observability.metrics import CONNECTIONS_CUT
from app.proxy import TrustedProxies
from app.settings import Settings

# File descriptors kept for everything that is not a client connection: database connections, the
# writer's, Redis, log files, the bot threads' pipes.
RESERVED_FILES = 256


def _raw_response(status: str, code: str, message: str, *extra: str) -> bytes:
    """A whole response written straight to a connection the app never sees, in the API's shape."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = [f"HTTP/1.1 {status}", "content-type: application/json", "connection: close",
            f"content-length: {len(body)}", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


_BUSY = _raw_response("503 Service Unavailable", "busy", "too many connections; try again in a moment", "retry-after: 5")
_BUSY_ADDRESS = _raw_response("503 Service Unavailable", "busy", "too many connections from your address; "
                              "try again in a moment", "retry-after: 5")
_TIMEOUT = _raw_response("408 Request Timeout", "timeout", "the request did not arrive in time")


def raise_open_file_limit() -> int:
    """Lift this process's soft limit on open files to its hard limit; the soft limit that holds."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def connection_bound(settings: Settings) -> int:
    """``MAX_CONNECTIONS``, lowered to what the open-file limit leaves room for."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = settings.max_connections if soft == resource.RLIM_INFINITY else soft - RESERVED_FILES
    return max(16, min(settings.max_connections, room))


def per_address_bound(settings: Settings, bound: int) -> int:
    """``MAX_CONNECTIONS_PER_ADDRESS`` (0: none), at most half the server's bound."""
    if settings.max_connections_per_address <= 0:
        return 0
    return max(1, min(settings.max_connections_per_address, bound // 2))


def guarded_h11(read_timeout: float, max_connections: int, per_address: int = 0,
                trusted: str = "") -> type[H11Protocol]:
    proxies = TrustedProxies(trusted)
    open_from: dict[str, int] = {}  # open connections (HTTP or upgraded to WebSockets) by address_key

    def release(key: str) -> None:
        left = open_from.get(key, 0) - 1
        if left > 0:
            open_from[key] = left
        else:
            open_from.pop(key, None)

    class GuardedH11Protocol(H11Protocol):
        """uvicorn's h11 protocol with a deadline for each request to arrive, a bound on the
        connections of the whole server, and one on the connections of each client address."""

        _deadline: asyncio.TimerHandle | None = None
        _heard = False  # a byte of the awaited request has arrived
        _address: str | None = None  # counted in open_from under this key until the connection closes

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            key = address_key(host) if per_address and host not in proxies else None
            if key is not None and open_from.get(key, 0) >= per_address:
                CONNECTIONS_CUT.labels("busy_address").inc()
                transport.write(_BUSY_ADDRESS)
                transport.close()
                return
            if len(self.connections) > max_connections:
                CONNECTIONS_CUT.labels("busy").inc()
                transport.write(_BUSY)
                transport.close()
                return
            if key is not None:
                open_from[key] = open_from.get(key, 0) + 1
                self._address = key
            self._arm()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            key, self._address = self._address, None
            try:
                super().handle_websocket_upgrade(event)
            except BaseException:
                self._address = key  # (still this connection's: released when it is lost)
                raise
            protocol = self.transport.get_protocol()
            if key is None:
                return
            if protocol is self:  # (not upgraded after all)
                self._address = key
                return
            # the same connection, now the WebSocket protocol's: counted until it closes
            lost = protocol.connection_lost

            def connection_lost(exc, lost=lost) -> None:
                release(key)
                lost(exc)

            protocol.connection_lost = connection_lost  # type: ignore[method-assign]

        def data_received(self, data: bytes) -> None:
            self._heard = True
            super().data_received(data)
            if self.transport.get_protocol() is not self or self.conn.their_state is not h11.SEND_BODY and \
                    self.conn.their_state is not h11.IDLE:
                self._disarm()  # the request is in (or the connection became a WebSocket)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on this connection gets the same time

        def connection_lost(self, exc) -> None:
            self._disarm()
            if self._address is not None:
                release(self._address)
                self._address = None
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._heard = False
            self._deadline = self.loop.call_later(read_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            CONNECTIONS_CUT.labels("slow_request" if self._heard else "no_request").inc()
            if self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE:
                self.transport.write(_TIMEOUT)  # (mid-body, the app's response may have begun: just close)
            self.transport.close()

    return GuardedH11Protocol


def uvicorn_config(app, settings: Settings, **overrides) -> uvicorn.Config:
    """The one uvicorn configuration: parser, bounds and WebSocket settings from ``settings``."""
    bound = connection_bound(settings)
    values = dict(host=settings.host, port=settings.port, log_config=None,
                  http=guarded_h11(settings.request_read_timeout, bound, per_address_bound(settings, bound),
                                   settings.forwarded_allow_ips),
                  h11_max_incomplete_event_size=settings.max_header_bytes, backlog=settings.listen_backlog,
                  ws_max_size=settings.max_frame_bytes * 4, ws=uvicorn_ws(settings.ws_protocol),
                  ws_per_message_deflate=settings.ws_per_message_deflate,
                  proxy_headers=False,  # app/proxy.py decides who the client is
                  timeout_graceful_shutdown=settings.shutdown_timeout)
    values.update(overrides)
    return uvicorn.Config(app, **values)
