"""The rules from ``Settings`` applied to one client: each named limit has a bucket per token and a
bucket per IP address; an action goes through only if every bucket that applies has the credits."""

from __future__ import annotations

import hashlib

from app.errors import ApiError
from app.observability import metrics
from app.limits.socket_counts import MemorySocketCounts, SocketCounts
from app.limits.store import BucketStore, MemoryBucketStore, Rule, retry_after_header
from app.settings import Settings

# What each limit covers, for messages; the settings are ``rate_<name>_per_token`` / ``_per_ip``.
LIMITS = {
    "players": "new players",
    "logins": "log-in attempts",
    "admin": "wrong admin or metrics tokens",
    "account_logins": "log-in attempts for this name",
    "rooms": "new rooms",
    "actions": "actions",
    "frames": "socket messages",
    "sockets": "sockets and streams opened",
    "chat": "chat messages",
    "names": "name changes",
    "nights": "game night reads",
    "previews": "game night preview pictures",
    "push": "notification settings calls",
}

# Limits whose buckets are not per token and IP, read by their own code from their own settings.
THROTTLED_ELSEWHERE = {"account_logins"}  # app/accounts/throttle.py: per name and address, per name


class RateLimited(ApiError):
    def __init__(self, name: str, rule: Rule, per: str, wait: float):
        retry = retry_after_header(wait)
        super().__init__(429, "rate_limited",
                         f"too many {LIMITS[name]}: at most {rule.capacity:g} per {rule.period:g} s per {per}; "
                         f"retry in {retry} s")
        self.retry_after = int(retry)
        self.headers = {"Retry-After": retry}

    def as_dict(self) -> dict:
        return dict(super().as_dict(), retry_after=self.retry_after)


def client_keys(ip: str | None, token: str | None) -> tuple[str | None, str | None]:
    """(token key, ip key): the token is hashed so no store ever holds a usable secret."""
    token_key = hashlib.sha256(token.encode()).hexdigest()[:32] if token else None
    return token_key, ip


class Limiter:
    def __init__(self, settings: Settings, clock, store: BucketStore | None = None,
                 sockets: SocketCounts | None = None):
        self.clock = clock
        self.store = store or MemoryBucketStore()
        self.socket_counts = sockets or MemorySocketCounts()
        self.rules: dict[tuple[str, str], Rule | None] = {}
        fields = type(settings).model_fields
        for name in LIMITS:
            if name in THROTTLED_ELSEWHERE:
                continue
            found = [per for per in ("token", "ip") if f"rate_{name}_per_{per}" in fields]
            if not found:  # a limit no setting configures would silently be off
                raise ValueError(f"rate limit {name!r} has no setting rate_{name}_per_token or _per_ip")
            for per in ("token", "ip"):
                # A limit has a bucket per token, per IP or both, as its settings say (no login
                # limit per token: a log-in has none yet); the text was parsed when settings loaded.
                self.rules[(name, per)] = Rule.parse(getattr(settings, f"rate_{name}_per_{per}")) if per in found else None
        self.max_sockets_per_player = settings.max_sockets_per_player
        self.max_spectators_per_ip = settings.max_spectators_per_ip

    async def check(self, name: str, token_key: str | None, ip: str | None, cost: float = 1.0) -> None:
        """Take ``cost`` credits from the token's and the IP's buckets, or raise ``RateLimited``."""
        now = self.clock.now()
        for per, key in (("token", token_key), ("ip", ip)):
            rule = self.rules[(name, per)]
            if rule is None or key is None:
                continue
            wait = await self.store.take(f"{name}:{per}:{key}", rule, cost, now)
            if wait > 0:
                metrics.rate_limited(f"{name}_per_{per}")
                raise RateLimited(name, rule, per, wait)

    async def guess(self, ip: str | None, right: bool) -> None:
        """A bearer secret (admin or metrics token) was presented from ``ip``: it costs a credit of
        the IP's ``admin`` bucket, given back when it was right. With the bucket empty every guess,
        right or wrong, is refused (``RateLimited``), so a refusal says nothing about the guess."""
        rule = self.rules[("admin", "ip")]
        if rule is None or ip is None:
            return
        key, now = f"admin:ip:{ip}", self.clock.now()
        wait = await self.store.take(key, rule, 1.0, now)
        if wait > 0:
            metrics.rate_limited("admin_per_ip")
            raise RateLimited("admin", rule, "ip", wait)
        if right:
            await self.store.take(key, rule, -1.0, now)

    # --- sockets per player (a bound, not a rate) ---------------------------------------------

    async def open_socket(self, player_id: str | None) -> bool:
        """Count a new socket or NDJSON stream of ``player_id``; False (nothing counted) when it has too many."""
        return player_id is None or await self.socket_counts.open(player_id, self.max_sockets_per_player)

    async def close_socket(self, player_id: str | None) -> None:
        if player_id is not None:
            await self.socket_counts.close(player_id)

    # --- spectator sockets and streams per IP address (a bound) ---------------------------------

    async def open_spectator(self, ip: str | None) -> bool:
        """Count a new spectator socket or stream from ``ip``; False (nothing counted) past the bound."""
        return ip is None or await self.socket_counts.open(f"ip:{ip}", self.max_spectators_per_ip)

    async def close_spectator(self, ip: str | None) -> None:
        if ip is not None:
            await self.socket_counts.close(f"ip:{ip}")
