"""The one settings class: everything configurable comes from the environment (or .env).

``Settings`` is composed of one section per concern (serving, tables, the live path, bounds, rate
limits, accounts, the cluster, Web Push, operations); the sections only group the fields, so every
environment name stays the field's name in capitals (``PUSH_QUEUE``) and code reads
``settings.push_queue`` as before. Each field says what it is in its ``description``, the one
place it is described: docs/configuration.md is generated from them (``python -m app.config_docs``).
Rate limits are parsed when the settings load, and an unknown ``RATE_*`` variable (a typo) stops the
start instead of silently meaning "off"."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent

# Bearer secrets (ADMIN_TOKEN, METRICS_TOKEN): empty (off), or at least this long, and none of the
# placeholders people copy from examples. The server refuses to start otherwise.
MIN_SECRET_CHARS = 32
WELL_KNOWN_SECRETS = ("change-me", "changeme", "change_me", "replace-me", "replaceme", "your-token", "yourtoken",
                      "example", "placeholder", "secret", "password", "letmein", "admin-token", "0123456789")
SECRET_HINT = "generate one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"
# Fields holding a "credits/seconds" rule (or "off"), checked when the settings load.
RATE_PREFIXES = ("rate_",)
RATE_FIELDS_ELSEWHERE = ("push_budget_per_player",)


class ServingSettings(BaseSettings):
    """Where the server listens, its database, and what one connection may send (app/serving.py)."""

    database_url: str = Field(default=f"sqlite:///{ROOT / 'data' / 'asobiba.db'}", description=(
        "The database: `sqlite:///path` (the embedded default, in `data/`) or "
        "`postgresql+psycopg://user@host/db`."))
    host: str = Field(default="127.0.0.1", description="The address to listen on.")
    port: int = Field(default=8000, description="The port to listen on.")
    public_url: str = Field(default="", description="Base of invite links; empty = derived from host and port.")
    admin_token: str = Field(default="", description=(
        "Bearer token for `/api/admin/*`: at least 32 characters, not a placeholder, or the server refuses "
        "to start; empty disables the admin API."))
    max_frame_bytes: int = Field(default=16_384, description=(
        "Largest WebSocket text frame and REST request body accepted, in bytes (past it `too_large`)."))
    max_header_bytes: int = Field(default=16_384, description="Largest request head (request line and headers); past it 400.")
    request_read_timeout: float = Field(default=10.0, description=(
        "Seconds a request's head and body have to arrive, from the connection or the previous answer; "
        "past it 408 and close."))
    max_connections: int = Field(default=8192, description=(
        "Connections at once, HTTP and WebSockets; past it 503 `busy` and close. Lowered to what the "
        "open-file limit allows."))
    max_connections_per_address: int = Field(default=64, ge=0, description=(
        "The most of those connections one client address holds at once (an IPv6 client's /64; at most half "
        "of `MAX_CONNECTIONS`; 0 = no bound per address): past it 503 `busy` and close, at accept. A proxy in "
        "`FORWARDED_ALLOW_IPS` is not bounded (its clients share its address): it bounds connections per "
        "client itself (deploy/haproxy.cfg)."))
    listen_backlog: int = Field(default=4096, ge=1, description=(
        "Connections the kernel holds until the server accepts them (at most `net.core.somaxconn`): room "
        "for a storm of reconnections after a restart; past it dropped, and the client's TCP tries again."))
    forwarded_allow_ips: str = Field(default="127.0.0.1", description=(
        "Reverse proxies trusted to name the client (app/proxy.py: the last `X-Forwarded-For` entry, the "
        "one the proxy wrote, and `X-Forwarded-Proto`), so per-IP limits see clients, not the proxy: "
        "comma-separated addresses or networks, or `*` when nothing but the proxy can reach the app."))
    ws_per_message_deflate: bool = Field(default=False, description=(
        "WebSocket compression (permessage-deflate). Off: each view is encoded once and the same bytes go "
        "to every socket of a seat; deflate would compress them again for every socket."))
    ws_protocol: Literal["websockets-sansio", "websockets"] = Field(default="websockets-sansio", description=(
        "uvicorn's WebSocket implementation: `websockets-sansio` writes each frame straight to the "
        "transport (no lock, drain or task per send) and each view's frame is built once for every "
        "socket of its seat; `websockets` remains for operators who need it."))


class TableSettings(BaseSettings):
    """Rooms, their bots and absent players (app/live/, app/endings/)."""

    bot_think_seconds: float = Field(default=0.8, description=(
        "Seconds a server-side bot waits before acting, so people can follow (the room option overrides)."))
    bot_workers: int = Field(default=4, description=(
        "Threads the bots think on (a strong bot's move is up to 0.4 s of Python), of their own: a crowd of "
        "thinking bots queues behind itself, never in front of readiness probes or votes."))
    unattended_tables_play: bool = Field(default=False, description=(
        "True: a table nobody is at plays on by itself (a bot tournament, the engines' end-to-end tests); "
        "by default its bots wait for a person and the match is aborted after a while "
        "(app/live/timers.py), and a table of bots alone cannot start."))
    zombie_grace_seconds: float = Field(default=60.0, description=(
        "Zombie seats: seconds a seated player may be away from a running match before the game's bot plays "
        "for them (the room option `grace_seconds` overrides; 0 = never)."))
    min_grace_seconds: float = Field(default=20.0, ge=0, description=(
        "A host's `grace_seconds` is 0 (never) or at least this: a reconnect (a reload, a phone out of a "
        "tunnel) is never an abandonment (docs/decisions/2026-12-07-timing-floors.md)."))
    room_idle_seconds: float = Field(default=30.0, description=(
        "A room loaded by a request (GET, join...) and not asked for again for this long, with no socket and "
        "no running match, leaves memory (it is reloaded from the database when next asked for)."))
    chat_max_chars: int = Field(default=500, description="Longest chat message (its rate is the `chat` limit).")
    leaderboard_min_opponents: int = Field(default=5, ge=0, le=1000, description=(
        "Leaderboards list claimed accounts that met at least this many distinct claimed accounts in rated "
        "matches of the game (docs/decisions/2026-12-07-leaderboard-eligibility.md); 0 = every rated player."))


class LiveSettings(BaseSettings):
    """The live path: sockets, views, the action log (app/live/)."""

    resync_window: int = Field(default=32, ge=1, le=256, description=(
        "A reconnect that missed at most this many versions gets each missed view (kept encoded per seat, so "
        "a resync costs frame writes); further behind, one full view."))
    ws_hello_seconds: float = Field(default=5.0, gt=0, le=60, description=(
        "Seconds a new socket has to send its `hello` frame (who it is) before it is closed (1008)."))
    ws_flood_strikes: int = Field(default=30, description="Refused socket frames within a minute before the socket is closed (1008).")
    send_queue_limit: int = Field(default=256, description=(
        "Slow consumers: messages queued for one socket before it is closed (1013) to resync later."))
    room_push_interval: float = Field(default=0.05, description=(
        "Room summaries (seats, presence) go out at most once per this many seconds per room."))
    commit_window_ms: float = Field(default=0.0, description=(
        "The action log's group commit: one writer commits the actions of every room that arrived while its "
        "previous commit ran, plus at most this many milliseconds more."))
    commit_max_batch: int = Field(default=512, description="Largest batch of actions in one commit of the action log.")
    snapshot_every: int = Field(default=32, description=(
        "A match's state is stored every this many actions (and at the end); resuming a match replays the "
        "actions after the latest snapshot."))


class BoundSettings(BaseSettings):
    """How much one room, player or address may hold at once (app/limits/); past it `too_many_*`."""

    max_spectators_per_room: int = Field(default=200, description=(
        "Spectator sockets and streams of one room (seated players always get in)."))
    max_sockets_per_player: int = Field(default=16, description=(
        "Live sockets and NDJSON streams of one player, over every process of a cluster."))
    max_spectators_per_ip: int = Field(default=32, description=(
        "Spectator sockets and streams one IP address may hold at once, over every room and process."))
    max_open_rooms_per_player: int = Field(default=20, description="Rooms one player hosts that have not started (`too_many_rooms`).")
    max_running_tables_per_player: int = Field(default=5, ge=1, description=(
        "Live tables running at once that one player has started; past it Start is 409 `too_many_tables` "
        "(bots think on the server's shared threads, so one guest must not keep them busy for everyone; "
        "correspondence tables are not counted: app/limits/tables.py)."))
    max_running_tables_per_address: int = Field(default=20, ge=1, description=(
        "Live tables running at once started from one address (a household or a school behind one NAT)."))
    max_bot_seats_per_player: int = Field(default=16, ge=1, description=(
        "Bot seats in one player's live tables not finished; past it seating a bot or Start is 409 `too_many_bots`."))
    max_bot_seats_per_address: int = Field(default=48, ge=1, description=(
        "Bot seats in the live tables not finished of the hosts at one address."))


class RateLimitSettings(BaseSettings):
    """Credit buckets (app/limits/, the table below): `credits/seconds` = a bucket of that many
    credits per token (or per IP), refilled in full over that many seconds; `off` disables one.
    Generous: people and programs playing normally never meet them; scripts hammering the server do."""

    rate_players_per_ip: str = Field(default="100/600", description="New players (`POST /api/players`) per IP.")
    rate_logins_per_ip: str = Field(default="20/300", description=(
        "Account log-ins and claims per IP (argon2 is slow on purpose; guessing passwords must be slower still)."))
    rate_admin_per_ip: str = Field(default="10/60", description=(
        "Wrong admin or metrics tokens: each costs a credit; with none left, every token from that IP (the "
        "right one too) gets 429 until a credit returns (one every 6 s), other IPs unaffected."))
    rate_account_logins_per_address: str = Field(default="5/300", description=(
        "Log-in attempts per account name and address (app/accounts/throttle.py)."))
    rate_account_logins_per_account: str = Field(default="20/600", description=(
        "Log-in attempts per account name over every address (a known-good address of the account passes it)."))
    rate_rooms_per_token: str = Field(default="30/600", description="New rooms per player.")
    rate_rooms_per_ip: str = Field(default="120/600", description="New rooms per IP.")
    rate_actions_per_token: str = Field(default="600/60", description=(
        "Changes to a room over REST per player: join, leave, start, bots, seat data, actions."))
    rate_actions_per_ip: str = Field(default="3000/60", description="Changes to a room over REST per IP.")
    rate_frames_per_token: str = Field(default="1200/60", description="WebSocket frames received per player.")
    rate_frames_per_ip: str = Field(default="6000/60", description="WebSocket frames received per IP (spectators: only this).")
    rate_chat_per_token: str = Field(default="5/10", description="Chat messages that would be stored, per player.")
    rate_chat_per_ip: str = Field(default="30/10", description="Chat messages that would be stored, per IP.")
    rate_names_per_token: str = Field(default="10/60", description=(
        "Renames (`PATCH /api/players/me`) per player: each is pushed to every table the player sits at."))
    rate_names_per_ip: str = Field(default="60/60", description="Renames per IP.")
    rate_nights_per_token: str = Field(default="300/60", description=(
        "Game night reads over REST, their charts and pictures, per player (a page polls)."))
    rate_nights_per_ip: str = Field(default="1200/60", description="Game night reads per IP.")
    rate_sockets_per_token: str = Field(default="60/60", description=(
        "Sockets and NDJSON streams opened (a reconnect included) per player, taken once the hello names it."))
    rate_sockets_per_ip: str = Field(default="600/60", description=(
        "Sockets and NDJSON streams opened per IP, taken before the room is looked up."))
    rate_push_per_token: str = Field(default="60/600", description=(
        "Notification settings and subscription calls (`/api/me/notifications`, `/api/push/*`) per player."))
    rate_push_per_ip: str = Field(default="300/600", description="Notification settings and subscription calls per IP.")
    rate_previews_per_token: str = Field(default="60/60", description=(
        "A night's link preview picture (`GET /api/nights/{id}/standings.png`) per player, on top of `nights`: "
        "a picture not drawn yet costs ~20 ms of CPU, and a link is unfurled once per chat, not polled."))
    rate_previews_per_ip: str = Field(default="60/60", description="A night's link preview picture per IP.")


class AccountSettings(BaseSettings):
    """Accounts, log-in sessions and password hashing (app/accounts/)."""

    session_days: float = Field(default=30, description=(
        "Account log-in sessions expire after this many days (a fraction is allowed); their sockets and "
        "streams end then too."))
    session_check_seconds: float = Field(default=30.0, description=(
        "At the latest this often, sockets and streams whose session ended (revoked, expired, guest token "
        "retired) are found in the database and closed (a lost bus message; app/accounts/live_sessions.py)."))
    password_workers: int = Field(default=1, description=(
        "Threads that hash passwords for claims and log-ins (~0.1 s of a core each), of their own."))
    password_max_waiting: int = Field(default=32, description=(
        "Log-ins hashing or waiting to; past it a log-in gets 503 `busy` at once (app/accounts/passwords.py)."))


class ClusterSettings(BaseSettings):
    """Several processes as one server (app/cluster/, docs/scaling.md)."""

    redis_url: str = Field(default="", description=(
        "With a Redis URL (`redis://host:6379/0`) this process joins the cluster of every process that shares "
        "the database and `CLUSTER_PREFIX`; empty = one process, nothing in Redis."))
    cluster_prefix: str = Field(default="asobiba", description=(
        "Namespaces every Redis key and channel, so several clusters can share one Redis."))
    cluster_lease_seconds: float = Field(default=3.0, description=(
        "A room's owner holds its lease this long without renewing it; a dead owner's rooms are taken over "
        "within this plus one sweep."))
    cluster_sweep_seconds: float = Field(default=0.5, description="How often each process renews leases and looks for dead owners.")


class PushSettings(BaseSettings):
    """Web Push (app/push/, docs/notifications.md)."""

    vapid_private_key: str = Field(default="", description=(
        "The key Web Push is signed with: base64url raw P-256 (as `vapid --gen` prints), DER or PEM; empty = "
        "generated on the first start and stored in the database (`server_secrets`), so every process of a "
        "cluster signs with the same key."))
    vapid_subject: str = Field(default="mailto:push@asobiba.invalid", description=(
        "The contact push services may write to: set your own `mailto:` or `https:` address."))
    push_allow_loopback_http: bool = Field(default=False, description=(
        "**Tests only**: also post pushes to plain-http endpoints on a loopback address; the one exception to "
        "\"https on public addresses\". Never in production."))
    push_queue: int = Field(default=1000, ge=1, description=(
        "Events waiting to be pushed; when full, the longest backlog's newest event is dropped and counted."))
    push_workers: int = Field(default=2, ge=1, le=32, description=(
        "Sender tasks serving players in turn, off the event loop (app/push/fair.py)."))
    push_timeout: float = Field(default=10.0, gt=0, le=60, description="Seconds one post to a push service may take.")
    push_max_subscriptions_per_player: int = Field(default=10, ge=1, le=100, description=(
        "Subscriptions (browsers) one player may hold; the next is refused (409 `too_many_subscriptions`)."))
    rate_notify_per_player: str = Field(default="30/3600", description=(
        "Pushes one player receives at most (`credits/seconds`, shared by a cluster's processes); past it an "
        "event's push is skipped (the in-page count still shows it)."))
    push_budget_per_player: str = Field(default="120/3600", description=(
        "Sender time one player's posts may take per process (`seconds/seconds`); past it their pushes are "
        "dropped and counted `over_budget`."))


class OperationsSettings(BaseSettings):
    """Logs, metrics, shutdown, the database pool and the garbage collector (docs/operations.md)."""

    log_format: Literal["text", "json"] = Field(default="text", description="`json`: one JSON object per log line; `text`: one readable line.")
    log_level: str = Field(default="INFO", description="The least level logged; `DEBUG` adds a line per applied action and per probe.")
    metrics_token: str = Field(default="", description=(
        "Bearer token for `/metrics` (the admin token works too); same rules as `ADMIN_TOKEN`; empty = off."))
    shutdown_unready_seconds: float = Field(default=1.0, description=(
        "After SIGTERM, `/readyz` answers 503 for this long while everything else still serves (a load "
        "balancer stops sending new players here), then the drain starts."))
    shutdown_timeout: float = Field(default=10.0, description="SIGTERM to exit 0, the drain included, within this many seconds.")
    db_pool_size: int = Field(default=5, description=(
        "Database connections (and worker threads) for reads and room changes; callers beyond the pool and "
        "its overflow wait on the event loop for a free worker (app/db.py)."))
    db_max_overflow: int = Field(default=10, description="Connections opened beyond `DB_POOL_SIZE` under load.")
    db_pool_timeout: float = Field(default=30.0, description="Seconds to wait for a free database connection.")
    gc_young_threshold: int = Field(default=1_000, description=(
        "Net new objects between two young garbage collections; 0 = Python's default (700). Every "
        "collection stops the whole process while it scans: app/observability/gc_tuning.py."))
    gc_middle_threshold: int = Field(default=2, description=(
        "Young collections between two middle ones (Python's 10 made middle collections of ~300 ms at 500 "
        "rooms); 0 = Python's default."))
    gc_full_threshold: int = Field(default=0, description=(
        "Middle collections before a full one; 0 = never by itself: a full collection scans every room and "
        "socket of the process."))
    gc_full_growth: float = Field(default=0.25, ge=0, description=(
        "A full collection once the heap grew by this share since its smallest after the last one, looked at "
        "every 10 s (a server whose number of tables holds steady is never stopped for it); 0 = never."))
    gc_full_every_seconds: float = Field(default=0.0, description="Also a full collection at least this often (0 = no such limit).")
    gc_young_every_ms: float = Field(default=50.0, description=(
        "Also a young collection this often, and a middle one every `GC_MIDDLE_THRESHOLD`-th, on the loop's "
        "clock (at a person's pace Python's own count hardly climbs); 0 = none."))
    loop_lag_interval_ms: int = Field(default=25, description=(
        "How often the loop-lag probe's timer is due (`asobiba_loop_lag_seconds`: how late the loop ran it); 0 = off."))


SECTIONS: tuple[type[BaseSettings], ...] = (ServingSettings, TableSettings, LiveSettings, BoundSettings,
                                            RateLimitSettings, AccountSettings, ClusterSettings, PushSettings,
                                            OperationsSettings)


class Settings(OperationsSettings, PushSettings, ClusterSettings, AccountSettings, RateLimitSettings,
               BoundSettings, LiveSettings, TableSettings, ServingSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    @field_validator("admin_token", "metrics_token")
    @classmethod
    def _strong_or_off(cls, value: str, info) -> str:
        """A guessable bearer secret is worse than none: it opens running matches' hidden moves
        and seeds to whoever tries the example value (docker-compose shipped ``change-me``)."""
        if not value:
            return value
        name = info.field_name.upper()
        if len(value) < MIN_SECRET_CHARS:
            raise ValueError(f"{name} is {len(value)} characters; use at least {MIN_SECRET_CHARS} "
                             f"(or leave it empty to turn it off): {SECRET_HINT}")
        lowered = value.lower()
        if any(word in lowered for word in WELL_KNOWN_SECRETS) or len(set(value)) < 10:
            raise ValueError(f"{name} looks like a placeholder, not a secret: {SECRET_HINT}")
        return value

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _addresses(cls, value: str) -> str:
        return valid_addresses(value)

    @model_validator(mode="after")
    def _rates_parse(self) -> "Settings":
        """Every rate limit is a rule or ``off`` now, not when its first request comes; and a
        ``RATE_*`` variable that names no setting is a typo that would leave a limit at its default."""
        from app.limits.store import Rule  # (the limits package reads the settings; this only parses)
        for name in rate_fields():
            value = getattr(self, name)
            try:
                Rule.parse(value)
            except ValueError:
                raise ValueError(f"{name.upper()}={value!r}: a rate limit is 'credits/seconds' with both "
                                 "positive numbers, or 'off'") from None
        known = {name.upper() for name in type(self).model_fields}
        unknown = sorted(key for key in os.environ if key.upper().startswith("RATE_") and key.upper() not in known)
        if unknown:
            raise ValueError(f"unknown rate limit setting {', '.join(unknown)}: the rate limits are "
                             f"{', '.join(sorted(n.upper() for n in rate_fields()))}")
        return self

    def invite_base(self) -> str:
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")


def rate_fields() -> list[str]:
    """The settings that hold a ``credits/seconds`` rule."""
    return [name for name in Settings.model_fields
            if name.startswith(RATE_PREFIXES) or name in RATE_FIELDS_ELSEWHERE]


def valid_addresses(value: str) -> str:
    """FORWARDED_ALLOW_IPS: addresses and networks, comma separated, or '*'."""
    import ipaddress
    for item in (item.strip() for item in value.split(",")):
        if item and item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"FORWARDED_ALLOW_IPS: {item!r} is not an address or network (or '*')") from None
    return value


@lru_cache
def get_settings() -> Settings:
    return Settings()
