"""``python -m app``: migrate the database, print the URL, serve."""

from __future__ import annotations

import gc
import sys

from pydantic import ValidationError

from app.db import migrate
from app.observability import logs, metrics
from app.serving import raise_open_file_limit, uvicorn_config
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
    # uvicorn's loggers go through ours (logs.configure). SIGTERM drains first (app/lifecycle.py).
    # Parser, bounds and timeouts: app/serving.py (the same for the tests' servers).
    raise_open_file_limit()
    GracefulServer(uvicorn_config(app, settings), app.state.lifecycle).run()


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
