"""The application: settings, database, routers, static files. ``create_app`` lets tests inject
their own settings and clock."""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI, routing
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.body_limit import BodyLimitMiddleware
from app.proxy import ProxyHeadersMiddleware
from app.request_guard import RequestGuardMiddleware
from app.security_headers import SecurityHeadersMiddleware
from app.accounts.live_sessions import LiveSessions
from app.accounts.passwords import PasswordWork
from app.accounts.throttle import LoginThrottle
from app.clock import SystemClock
from app.db import Database, make_engine, make_session_factory
from app.errors import ApiError, api_error_handler, validation_error_handler
from app.lifecycle import DrainGate, Lifecycle
from app.limits import Limiter
from app.live.hub import Hub
from app.live.writer import ActionWriter
from app.observability import metrics as observed
from app.observability.gc_tuning import FullCollections, TimedCollections
from app.observability.loop_lag import LoopLagProbe
from app.observability import logs
from app.observability.middleware import ObservabilityMiddleware
from app import api_docs, assets, compression, openapi_links, ratings, unavailable
from app.routers import games, live, pages, players, rooms
from app.routers import admin, leaderboard, matches  # ratings, history, replay, admin (issue 8)
from app.routers import bots, stream  # bot seats, NDJSON stream (issue 9)
from app.routers import accounts, me, rematch  # accounts, a returning player's rooms, rematch (issue 16)
from app.routers import nights as nights_router, player_charts  # game nights, player charts (issue 33)
from app.nights import service as nights
from app.routers import health, metrics  # probes and Prometheus metrics (issue 19)
from app.routers import endings  # ending a match early, a new table with the same people (issue 29)
from app.endings import record as endings_record
from app.push.notifier import Notifier
from app.routers import push, pwa  # notifications and the installable app (issue 31)
from app.routers import tables  # my tables, vacations (issue 31)
from app.settings import ROOT, Settings, get_settings


def hub_class(settings: Settings):
    """One process (the default), or a member of a cluster when ``REDIS_URL`` is set (app/cluster/)."""
    if settings.redis_url:
        from app.cluster.hub import ClusterHub
        return ClusterHub
    return Hub


def shared_limits(hub) -> dict:
    """Rate-limit buckets and sockets per player in Redis for a cluster's processes; none (this
    process's memory) for one process."""
    bus = getattr(hub, "bus", None)
    if bus is None:
        return {}
    from app.cluster.limits import RedisBucketStore, RedisSocketCounts
    return {"store": RedisBucketStore(bus), "sockets": RedisSocketCounts(bus)}


def create_app(settings: Settings | None = None, clock=None) -> FastAPI:
    settings = settings or get_settings()
    db = Database(settings.database_url, settings.db_pool_size, settings.db_max_overflow, settings.db_pool_timeout)
    # The action log has a connection of its own, so REST traffic never delays a move's commit.
    writer_engine = make_engine(settings.database_url, pool_size=1, max_overflow=0, pre_ping=False)
    writer = ActionWriter(make_session_factory(writer_engine), settings.commit_window_ms / 1000,
                          settings.commit_max_batch)

    lag_probe = LoopLagProbe(settings.loop_lag_interval_ms / 1000)
    full_collections = FullCollections(10.0, settings.gc_full_growth, settings.gc_full_every_seconds)
    timed_collections = TimedCollections(settings.gc_young_every_ms / 1000, settings.gc_middle_threshold or 10)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        lag_probe.start()
        full_collections.start()
        timed_collections.start()
        writer.start()
        # the VAPID key (made and stored on the first start), the senders, the 12-hours-left hook
        await app.state.notifier.start(app.state.hub.rooms)
        await app.state.hub.resume_running()
        app.state.live_sessions.start(db)
        yield
        app.state.live_sessions.stop()
        app.state.hub.shutdown()
        app.state.notifier.stop()
        writer.close()
        writer_engine.dispose()
        db.close()
        app.state.password_work.close()
        lag_probe.stop()
        full_collections.stop()
        timed_collections.stop()

    app = FastAPI(title="Asobiba", version="0.1.0", lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # served by app/api_docs.py from our own origin
                  description="Play small Japanese board and card games with friends: REST, an NDJSON stream, "
                              "and the live WebSocket described here.\n\n" + (live.__doc__ or ""))
    app.state.settings = settings
    app.state.db = db
    app.state.session_factory = db.session_factory
    app.state.writer = writer
    app.state.password_work = PasswordWork(settings.password_workers, settings.password_max_waiting)
    clock = clock or SystemClock()
    app.state.db_engine = db.engine
    app.state.hub = hub_class(settings)(settings, db, writer, clock)
    app.state.limiter = Limiter(settings, clock, **shared_limits(app.state.hub))
    # Web Push (issue 31): sent off the event loop, from where each match runs (app/push/).
    app.state.notifier = app.state.hub.notifier = Notifier(settings, db, app.state.limiter)
    app.state.login_throttle = LoginThrottle(app.state.limiter, settings.rate_account_logins_per_address,
                                             settings.rate_account_logins_per_account)
    # Sockets and streams by the session (or guest token) that opened them: ended with it.
    app.state.live_sessions = LiveSessions(db.session_factory, settings.session_check_seconds)
    if getattr(app.state.hub, "bus", None) is not None:
        app.state.live_sessions.join_cluster(app.state.hub.bus)
    app.state.lifecycle = Lifecycle(settings.shutdown_unready_seconds, settings.shutdown_timeout)
    # Drains on SIGTERM; a cluster member hands its rooms over from within (ClusterHub.hand_over).
    app.state.lifecycle.on_drain(app.state.hub.drain)
    observed.watch(app.state.hub, app.state.lifecycle)
    # (Starlette types a handler as taking any Exception; each of these gets only its own kind.)
    app.add_exception_handler(ApiError, api_error_handler)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, validation_error_handler)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, pages.not_found_handler)  # type: ignore[arg-type]  # a browser's 404: the site's page
    unavailable.install(app)  # database outages: 503 unavailable, never a 500
    compression.install(app)  # innermost: gzip for pages, scripts and JSON, never the NDJSON stream
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_frame_bytes)
    app.add_middleware(RequestGuardMiddleware)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(DrainGate, lifecycle=app.state.lifecycle)
    app.add_middleware(ObservabilityMiddleware)  # ids, logs and metrics for everything
    # Outermost: the client's address (per-IP limits) and scheme (HSTS), behind a trusted proxy.
    app.add_middleware(ProxyHeadersMiddleware, trusted=settings.forwarded_allow_ips)
    ratings.install()  # rate matches in the transaction that finishes them
    endings_record.install()  # and say how a match ended (abandoned)
    nights.install()  # after ratings: a night's scoreboard reads the result rows; its tables' seeds
    for module in (players, games, rooms, live, pages,
                   bots, stream,
                   leaderboard,  # after players, so /api/players/me keeps its route
                   matches, me, tables, rematch, endings, accounts, nights_router, player_charts,
                   admin, push, pwa,
                   health, metrics, api_docs):
        app.include_router(module.router)
    openapi_links.install(app)
    # the browser client, fingerprinted for long caching (app/assets.py); read once per process
    app.state.assets = assets.load(ROOT / "static")
    app.mount("/static", assets.StaticAssets(app.state.assets), name="static")
    # every id a route's path carries is logged as its ref (issue 48, point 6)
    logs.scrub_ids_of(getattr(route, "path_format", "") for route in routing.iter_route_contexts(app.routes))
    return app
