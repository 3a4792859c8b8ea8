"""Screenshots of every game's table against bots at 390 and 1280 px (docs/screenshots/), shown
from the README. Starts its own server on a temporary SQLite database and Debian's Chromium:

    .venv/bin/python scripts/table_screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.browser import (DESKTOP, PHONE, add_bot, chromium, create_room,  # noqa: E402
                                   start_match, wait_for_table)
from tests.support.server import start_in_thread  # noqa: E402

GAMES = [("synomilia", 2, {"reveal_delay": 0}), ("peribit", 2, {}), ("three_magic", 3, {}),
         ("mipolin", 3, {}), ("makelandia", 4, {})]
OUT = ROOT / "docs" / "screenshots"
CONTROLS = "#table button, #table .mipolin-area.can"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = start_in_thread(f"sqlite:///{folder}/shots.db")
        try:
            with chromium() as browser:
                for game, seats, options in GAMES:
                    for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                        page = browser.new_context(viewport=viewport, reduced_motion="reduce").new_page()
                        create_room(page, server.base_url, "Aki", game, options, seats=seats)
                        for seat in range(1, seats):
                            add_bot(page, seat)
                        start_match(page)
                        wait_for_table(page, CONTROLS)
                        page.wait_for_timeout(1500)  # the bots' first moves
                        height = min(page.evaluate("document.documentElement.scrollHeight"), 2400)
                        path = OUT / f"{game}-{label}.png"
                        page.screenshot(path=path, clip={"x": 0, "y": 0, "width": viewport["width"], "height": height},
                                        full_page=True)
                        print(path.relative_to(ROOT))
                        page.context.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
