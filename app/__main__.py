"""``python -m app``: migrate the database, print the URL, serve."""

from __future__ import annotations

import uvicorn

from app.db import migrate
from app.settings import get_settings


def main() -> None:
    settings = get_settings()
    migrate(settings.database_url)
    from app.main import create_app

    print(f"Asobiba is running at http://{settings.host}:{settings.port}/", flush=True)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="warning",
                ws_max_size=settings.max_frame_bytes * 4,
                timeout_graceful_shutdown=5)  # open NDJSON streams would otherwise hold a shutdown forever


if __name__ == "__main__":
    main()
