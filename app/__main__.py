"""``python -m app``: migrate the database, print the URL, serve."""

from __future__ import annotations

import sys

from pydantic import ValidationError

from app.db import migrate
from app.observability import logs
from app.observability.gc_tuning import tune_gc
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
    tune_gc(settings.gc_young_threshold, settings.gc_middle_threshold, settings.gc_full_threshold)
    print(f"Asobiba is running at http://{settings.host}:{settings.port}/", flush=True)
    # uvicorn's loggers go through ours (logs.configure). SIGTERM drains first (app/lifecycle.py).
    # Parser, bounds and timeouts: app/serving.py (the same for the tests' servers).
    raise_open_file_limit()
    GracefulServer(uvicorn_config(app, settings), app.state.lifecycle).run()


if __name__ == "__main__":
    main()
