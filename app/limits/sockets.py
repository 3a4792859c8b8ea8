"""Rate limits on the live socket. Every frame takes a credit from the ``frames`` buckets and every
chat message one from the ``chat`` buckets; a refused frame gets an ``error`` ``rate_limited`` and
is dropped. Each refusal is a strike; a client that collects ``ws_flood_strikes`` strikes within a
minute keeps flooding despite the errors, and its socket is closed with 1008 (policy)."""

from __future__ import annotations

import contextlib

from fastapi import WebSocketDisconnect

from app.errors import ApiError
from app.limits.limiter import Limiter, RateLimited, client_keys
from app.limits.store import Rule, take

STRIKE_PERIOD = 60.0


class SocketGuard:
    def __init__(self, limiter: Limiter, connection, ip: str | None, token: str | None, strikes: int):
        self.limiter = limiter
        self.connection = connection
        self.keys = client_keys(ip, token)
        self.strike_rule = Rule(strikes, STRIKE_PERIOD)
        self._strikes = (float(strikes), limiter.clock.now())

    async def admit(self, name: str) -> bool:
        """True if the frame may be handled; False if it was refused (the client was told). Raises
        ``WebSocketDisconnect`` after closing the socket of a client that keeps flooding."""
        try:
            await self.limiter.check(name, *self.keys)
            return True
        except RateLimited as exc:
            self.connection.send({"type": "error", **exc.as_dict()})
            now = self.limiter.clock.now()
            credits, wait = take(*self._strikes, self.strike_rule, 1.0, now)
            self._strikes = (credits, now)
            if wait > 0:
                await self.connection.close(1008, "rate limit: too many messages")
                raise WebSocketDisconnect(1008) from None
            return False


class Refused(ApiError):
    """A socket or stream refused by a bound: ``close_code`` is what a WebSocket is closed with
    (1008 a policy, 1013 try again later); a stream gets the HTTP status (429 / 503)."""

    def __init__(self, status: int, code: str, message: str, close_code: int):
        super().__init__(status, code, message)
        self.close_code = close_code
        if status == 503:
            self.headers = {"Retry-After": "10"}


class Admission:
    """What one admitted socket or NDJSON stream holds of the bounds; ``release()`` (once, when
    it ends) gives it back."""

    def __init__(self, limiter: Limiter, player_id: str | None, spectator_ip: str | None):
        self.limiter = limiter
        self.player_id = player_id
        self.spectator_ip = spectator_ip
        self._released = False

    async def release(self) -> None:
        if self._released:
            return
        self._released = True
        try:
            await self.limiter.close_socket(self.player_id)
        finally:
            await self.limiter.close_spectator(self.spectator_ip)


async def admit(limiter: Limiter, settings, live, player_id: str | None, ip: str | None) -> Admission:
    """The bounds checked when a socket or a stream opens (both count alike, over every process of
    a cluster): spectators per room (1013 / 503: try again later), sockets and streams per player
    and spectators per IP address (1008 / 429: a policy). Raises ``Refused``, counting nothing."""
    spectator = live.seat_of(player_id) is None
    if spectator and live.summary()["spectators"] >= settings.max_spectators_per_room:
        raise Refused(503, "too_many_spectators", f"this room has its {settings.max_spectators_per_room} spectators; "
                      "try again later", 1013)
    if not await limiter.open_socket(player_id):
        raise Refused(429, "too_many_sockets", f"a player may hold {settings.max_sockets_per_player} sockets and "
                      "streams at once; close another first", 1008)
    spectator_ip = ip if spectator else None
    if not await limiter.open_spectator(spectator_ip):
        await limiter.close_socket(player_id)
        raise Refused(429, "too_many_sockets", f"one address may watch with {settings.max_spectators_per_ip} "
                      "sockets and streams at once; close another first", 1008)
    return Admission(limiter, player_id, spectator_ip)


async def admit_socket(websocket, limiter: Limiter, live, player_id: str | None) -> Admission | None:
    """``admit`` for a WebSocket: refused, it is sent an ``error`` saying why and closed."""
    ip = websocket.client.host if websocket.client else None
    try:
        return await admit(limiter, websocket.app.state.settings, live, player_id, ip)
    except Refused as refused:
        await websocket.send_json({"type": "error", "code": refused.code, "message": refused.message})
        await websocket.close(refused.close_code, refused.message[:120])
        return None


async def charge_socket_open(websocket, limiter: Limiter, token: str | None = None) -> bool:
    """Take a credit of the ``sockets`` limit: with no token, from the client's IP bucket (before
    the room is looked up, so a flood of opens costs the server next to nothing); with one, from
    the token's bucket. Refused, the socket is sent an ``error`` ``rate_limited`` (with
    ``retry_after``) and closed with 1013 (try again later); returns False."""
    ip = websocket.client.host if websocket.client else None
    token_key, ip_key = client_keys(ip, token)
    try:
        await limiter.check("sockets", token_key, None) if token else await limiter.check("sockets", None, ip_key)
        return True
    except RateLimited as exc:
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", **exc.as_dict()})
            await websocket.close(1013, f"too many sockets opened; retry in {exc.retry_after} s")
        return False
