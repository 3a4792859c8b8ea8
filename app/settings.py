"""The one settings class: everything configurable comes from the environment (or .env)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent

# Bearer secrets (ADMIN_TOKEN, METRICS_TOKEN): empty (off), or at least this long, and none of the
# placeholders people copy from examples. The server refuses to start otherwise.
MIN_SECRET_CHARS = 32
WELL_KNOWN_SECRETS = ("change-me", "changeme", "change_me", "replace-me", "replaceme", "your-token", "yourtoken",
                      "example", "placeholder", "secret", "password", "letmein", "admin-token", "0123456789")
SECRET_HINT = "generate one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite:///{ROOT / 'data' / 'asobiba.db'}"
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str = ""  # base of invite links; empty = derived from host and port
    admin_token: str = ""  # bearer token for /api/admin/*; empty disables the admin API
    # Largest WebSocket text frame / REST action body we accept, in bytes.
    max_frame_bytes: int = 16_384
    # Reconnecting clients get the views they missed when the gap is at most this many versions
    # (kept encoded per seat, so a resync costs frame writes); further behind, one full view.
    resync_window: int = Field(default=32, ge=1, le=256)
    # Seconds a server-side bot waits before acting, so humans can follow (room option overrides).
    bot_think_seconds: float = 0.8
    # True: a table with no person at it (every seat a bot's) plays on by itself, for a bot
    # tournament or the engines' end-to-end tests; by default its bots wait for a person and the
    # match is aborted after UNATTENDED_END_SECONDS (app/live/timers.py), and it cannot start.
    unattended_tables_play: bool = False
    # Threads the bots think on (a strong bot's move is up to 0.4 s of Python), of their own: a
    # crowd of thinking bots queues behind itself, never in front of readiness probes or votes.
    bot_workers: int = 4
    # Chat: longest message (its rate is ``rate_chat_per_*`` below).
    chat_max_chars: int = 500
    # Account log-in sessions expire after this many days (issue 16; a fraction is allowed).
    session_days: float = 30
    # Sockets and streams end with their session (revoked, expired, guest token retired): at once
    # through the bus, at the expiry time, and at the latest after this many seconds, when a look
    # in the database finds their credential ended (a lost bus message; app/accounts/live_sessions.py).
    session_check_seconds: float = 30.0
    # Claims and log-ins hash passwords (~0.1 s of a core each) on threads of their own, at most
    # this many at once; past this many running or waiting, a log-in gets 503 busy (app/accounts/passwords.py).
    password_workers: int = 1
    password_max_waiting: int = 32

    # Rate limits (app/limits/): "credits/seconds" = a bucket of that many credits per token (or
    # per IP), refilled in full over that many seconds; "off" disables one. Generous: people and
    # programs playing normally never meet them; scripts hammering the server do.
    rate_players_per_ip: str = "100/600"
    # Account log-ins and claims (argon2 is slow on purpose; guessing passwords must be slower still).
    rate_logins_per_ip: str = "20/300"
    # Wrong admin or metrics tokens: each costs a credit; with none left, every token from that IP
    # (the right one too) gets 429 until a credit returns (one every 6 s), other IPs unaffected.
    rate_admin_per_ip: str = "10/60"
    # Log-in attempts per account name (app/accounts/throttle.py): per name and address, and per
    # name over every address (a known-good address of the account passes the latter).
    rate_account_logins_per_address: str = "5/300"
    rate_account_logins_per_account: str = "20/600"
    rate_rooms_per_token: str = "30/600"
    rate_rooms_per_ip: str = "120/600"
    rate_actions_per_token: str = "600/60"
    rate_actions_per_ip: str = "3000/60"
    rate_frames_per_token: str = "1200/60"
    rate_frames_per_ip: str = "6000/60"
    rate_chat_per_token: str = "5/10"
    rate_chat_per_ip: str = "30/10"
    # Renames (PATCH /api/players/me): each is pushed to every table the player sits at.
    rate_names_per_token: str = "10/60"
    rate_names_per_ip: str = "60/60"
    # Game night pages read over REST and their pictures (app/routers/nights.py; a page polls).
    rate_nights_per_token: str = "300/60"
    rate_nights_per_ip: str = "1200/60"
    # Sockets and NDJSON streams opened (a reconnect included): the IP's credit is taken before the
    # room is looked up, the token's once the hello names it.
    rate_sockets_per_token: str = "60/60"
    rate_sockets_per_ip: str = "600/60"
    # Serving (app/serving.py), for a server reachable without a proxy: the largest request head
    # (request line and headers, past it 400), the time a request's head and body have to arrive
    # (past it 408 and close), the most connections at once, HTTP and WebSockets (past it 503 and
    # close; lowered to what the open-file limit allows), and the connections the kernel holds to
    # be accepted (at most net.core.somaxconn; past it dropped, and the client's TCP tries again).
    max_header_bytes: int = 16_384
    request_read_timeout: float = 10.0
    max_connections: int = 8192
    listen_backlog: int = Field(default=4096, ge=1)
    # Reverse proxies trusted to name the client (app/proxy.py: the last X-Forwarded-For entry, the
    # one the proxy wrote, and X-Forwarded-Proto), so per-IP limits see clients, not the proxy:
    # comma-separated addresses or networks, or "*" when nothing but the proxy can reach the app.
    forwarded_allow_ips: str = "127.0.0.1"
    # Refused socket frames within a minute before the socket is closed (1008).
    ws_flood_strikes: int = 30
    # Seconds a new socket has to send its ``hello`` frame (who it is) before it is closed (1008).
    ws_hello_seconds: float = Field(default=5.0, gt=0, le=60)
    # Zombie seats: seconds a seated player may be away from a running match before the game's bot
    # plays for them (room option ``grace_seconds`` overrides; 0 = never).
    zombie_grace_seconds: float = 60.0
    # A host's ``grace_seconds`` is 0 (never) or at least this: a reconnect (a reload, a phone out of
    # a tunnel) is never an abandonment (docs/decisions/2026-12-07-timing-floors.md).
    min_grace_seconds: float = Field(default=20.0, ge=0)
    # Slow consumers: messages queued for one socket before it is closed (1013) to resync later.
    send_queue_limit: int = 256
    # A room loaded by a request (GET, join...) and not asked for again for this long, with no socket
    # and no running match, leaves memory (it is reloaded from the database when next asked for).
    room_idle_seconds: float = 30.0
    # Bounds: watchers of one room, live sockets and NDJSON streams of one player, spectator
    # sockets and streams from one IP address (over every room), rooms one player hosts not yet started.
    max_spectators_per_room: int = 200
    max_sockets_per_player: int = 16
    max_spectators_per_ip: int = 32
    max_open_rooms_per_player: int = 20

    # Cluster (docs/scaling.md): with a Redis URL this process joins the cluster of every process
    # that shares the database and ``cluster_prefix``; empty = one process, nothing in Redis.
    redis_url: str = ""
    # Namespaces every Redis key and channel, so several clusters can share one Redis.
    cluster_prefix: str = "asobiba"
    # A room's owner holds its lease this long without renewing it; a dead owner's rooms are taken
    # over after at most this plus one sweep (``cluster_sweep_seconds``).
    cluster_lease_seconds: float = 3.0
    cluster_sweep_seconds: float = 0.5

    # Web Push (issue 31, app/push/, README "Notifications"). VAPID key: the base64url raw private
    # key (32 bytes, as ``vapid --gen``/web-push tools print) or a DER/PEM one; empty = generated on
    # the first start and stored in the database (table ``server_secrets``), so every process of a
    # cluster signs with the same key. The subject is the contact push services may write to.
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:push@asobiba.invalid"
    # The ONE exception to "only https endpoints on public addresses": also allow plain-http
    # endpoints on a loopback address (tests stand in for the push service on 127.0.0.1). Never in production.
    push_allow_loopback_http: bool = False
    # Pushes are sent off the event loop: a bounded queue (full: the longest backlog's newest event is
    # dropped, counted), this many sender tasks serving players in turn (app/push/fair.py); each post
    # waits at most push_timeout seconds.
    push_queue: int = Field(default=1000, ge=1)
    push_workers: int = Field(default=2, ge=1, le=32)
    push_timeout: float = Field(default=10.0, gt=0, le=60)
    # Subscriptions (browsers) one player may hold; the next is refused (409 too_many_subscriptions).
    push_max_subscriptions_per_player: int = Field(default=10, ge=1, le=100)
    # Pushes one player receives at most ("credits/seconds", shared by a cluster's processes through
    # the rate-limit store; past it an event's push is skipped, the in-page count still shows it), and
    # the sender time their posts may take per process ("seconds/seconds"; past it: dropped, "over_budget").
    rate_notify_per_player: str = "30/3600"
    push_budget_per_player: str = "120/3600"
    # The notification settings and subscription calls (/api/me/notifications, /api/push/*).
    rate_push_per_token: str = "60/600"
    rate_push_per_ip: str = "300/600"

    # Operations (docs/operations.md): log lines as "text" (readable) or "json" (one object a line),
    # the least level logged, and the bearer token for /metrics (the admin token works too).
    log_format: Literal["text", "json"] = "text"
    log_level: str = "INFO"
    metrics_token: str = ""
    # Graceful shutdown on SIGTERM: /readyz answers 503 for this long while everything else still
    # serves (so a load balancer stops sending new players here), then the drain starts; the whole
    # shutdown, drain included, ends within shutdown_timeout seconds.
    shutdown_unready_seconds: float = 1.0
    shutdown_timeout: float = 10.0

    # Database connections for the request/socket paths (reads, room changes); callers beyond
    # db_pool_size + db_max_overflow queue on the event loop for a free worker (see app/db.py).
    db_pool_size: int = 5
    db_max_overflow: int = 10
    db_pool_timeout: float = 30.0
    # The action log: one writer with its own connection commits the actions of every room that
    # arrived while its previous commit ran (group commit), plus at most commit_window_ms more.
    commit_window_ms: float = 0.0
    commit_max_batch: int = 512
    # A snapshot of the match state is stored every this many actions (and at the end); resuming
    # a match replays the actions after the latest snapshot.
    snapshot_every: int = 32
    # Room summaries (seats, presence) go out at most once per this many seconds per room.
    room_push_interval: float = 0.05
    # WebSocket compression (permessage-deflate). Off: each view is encoded once and the same bytes
    # go to every socket of a seat; deflate would compress them again for every socket.
    ws_per_message_deflate: bool = False
    # uvicorn's WebSocket implementation: "websockets-sansio" writes a frame straight to the
    # transport (no lock, drain or task per send, as its older "websockets" one does), and with it
    # each view's frame is built once and written as is to every socket of its seat
    # (app/live/socket_protocol.py); "websockets" remains for operators who need it.
    ws_protocol: Literal["websockets-sansio", "websockets"] = "websockets-sansio"
    # Python's cyclic garbage collector, tuned by ``python -m app``: app/observability/gc_tuning.py.
    gc_young_threshold: int = 1_000  # net new objects between young collections (0: Python's 700)
    gc_middle_threshold: int = 2  # young collections between middle ones (0: Python's 10)
    gc_full_threshold: int = 0  # middle ones between full ones (0: never by itself)
    gc_full_growth: float = Field(default=0.25, ge=0)  # a full one once the heap grew this much (0: never)
    gc_full_every_seconds: float = 0.0  # and at least this often (0: no limit)
    # also a young collection this often, a middle one every ``gc_middle_threshold``-th (0: none)
    gc_young_every_ms: float = 50.0
    loop_lag_interval_ms: int = 25  # app/observability/loop_lag.py (0: off)

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

    def invite_base(self) -> str:
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")


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
