"""``python -m app``: migrate the database, print the URL, serve."""

from __future__ import annotations

import gc
import sys

import uvicorn
from pydantic import ValidationError

from app.db import migrate
from app.live.socket_protocol import uvicorn_ws
from app.observability import logs, metrics
from app.settings import get_settings


def main() -> None:
    try:
        settings = get_settings()
    except ValidationError as exc:  # e.g. a weak ADMIN_TOKEN: say why, never echo the value
        for error in exc.errors():
            print(f"Asobiba cannot start: {error['msg'].removeprefix('Value error, ')}", file=sys.stderr)
        raise SystemExit(2) from None
    logs.configure(settings.log_format, settings.log_level)
    migrate(settings.database_url)
    from app.lifecycle import GracefulServer
    from app.main import create_app

    app = create_app(settings)
    tune_gc(settings.gc_young_threshold)
    print(f"Asobiba is running at http://{settings.host}:{settings.port}/", flush=True)
    # log_config=None: uvicorn's loggers go through ours (logs.configure). SIGTERM drains first
    # (app/lifecycle.py); timeout_graceful_shutdown is what is left of SHUTDOWN_TIMEOUT by then.
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_config=None,
                            ws_max_size=settings.max_frame_bytes * 4,
                            ws=uvicorn_ws(settings.ws_protocol), ws_per_message_deflate=settings.ws_per_message_deflate,
                            proxy_headers=True, forwarded_allow_ips=settings.forwarded_allow_ips,
                            # uvicorn waits with asyncio, so fractions of a second work (its hint says int)
                            timeout_graceful_shutdown=settings.shutdown_timeout)  # type: ignore[arg-type]
    GracefulServer(config, app.state.lifecycle).run()


def tune_gc(young_threshold: int) -> None:
    """Fewer collections under load (``Settings.gc_young_threshold``), and the objects made while
    starting (modules, routes, the app) moved out of the collector's sight for good (``gc.freeze``):
    they live as long as the process, and every full collection would scan them again. Each
    pause is timed for the metrics (``asobiba_gc_pause_seconds``)."""
    gc.freeze()
    metrics.watch_gc()
    if young_threshold > 0:
        _, middle, old = gc.get_threshold()
        gc.set_threshold(young_threshold, middle, old)


if __name__ == "__main__":
    main()
