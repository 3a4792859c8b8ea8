"""The application: settings, database, routers, static files. ``create_app`` lets tests inject
their own settings and clock."""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles

from app.body_limit import BodyLimitMiddleware
from app.clock import SystemClock
from app.db import make_engine, make_session_factory
from app.errors import ApiError, api_error_handler, validation_error_handler
from app.live.hub import Hub
from app import ratings
from app.routers import games, live, pages, players, rooms
from app.routers import admin, leaderboard, matches  # ratings, history, replay, admin (issue 8)
from app.routers import bots, stream  # bot seats, NDJSON stream (issue 9)
from app.settings import ROOT, Settings, get_settings


def create_app(settings: Settings | None = None, clock=None) -> FastAPI:
    settings = settings or get_settings()
    db_engine = make_engine(settings.database_url)
    session_factory = make_session_factory(db_engine)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await app.state.hub.resume_running()
        yield
        app.state.hub.shutdown()
        db_engine.dispose()

    app = FastAPI(title="Asobiba", version="0.1.0", lifespan=lifespan,
                  description="Play small Japanese board and card games with friends: REST, an NDJSON stream, "
                              "and the live WebSocket described here.\n\n" + (live.__doc__ or ""))
    app.state.settings = settings
    app.state.session_factory = session_factory
    app.state.hub = Hub(settings, session_factory, clock or SystemClock())
    app.add_exception_handler(ApiError, api_error_handler)
    app.add_exception_handler(RequestValidationError, validation_error_handler)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_frame_bytes)
    ratings.install()  # rate matches in the transaction that finishes them
    for module in (players, games, rooms, live, pages,
                   bots, stream,
                   leaderboard,  # after players, so /api/players/me keeps its route
                   matches,
                   admin):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    return app
