"""Rate limits on the live socket. Every frame takes a credit from the ``frames`` buckets and every
chat message one from the ``chat`` buckets; a refused frame gets an ``error`` ``rate_limited`` and
is dropped. Each refusal is a strike; a client that collects ``ws_flood_strikes`` strikes within a
minute keeps flooding despite the errors, and its socket is closed with 1008 (policy)."""

from __future__ import annotations

from fastapi import WebSocketDisconnect

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


async def admit_socket(websocket, limiter: Limiter, live, player_id: str | None) -> bool:
    """Bounds checked when a socket opens: sockets per player (1008: a policy) and spectators per
    room (1013: try again later). Counts the socket (``limiter.close_socket`` when it ends) or
    closes it after an ``error`` message saying why."""
    settings = websocket.app.state.settings
    if live.seat_of(player_id) is None and live.summary()["spectators"] >= settings.max_spectators_per_room:
        code, error, close = 1013, "too_many_spectators", f"this room has its {settings.max_spectators_per_room} spectators"
    elif not await limiter.open_socket(player_id):
        code, error, close = 1008, "too_many_sockets", f"a player may hold {settings.max_sockets_per_player} sockets at once"
    else:
        return True
    await websocket.send_json({"type": "error", "code": error, "message": f"{close}; close another first"})
    await websocket.close(code, close)
    return False
