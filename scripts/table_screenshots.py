"""Screenshots of every game's table against bots at 390 and 1280 px (docs/screenshots/), shown
from the README. Starts its own server on a temporary SQLite database and Debian's Chromium:

    .venv/bin/python scripts/table_screenshots.py                  # English, into docs/screenshots/
    .venv/bin/python scripts/table_screenshots.py --lang ja --out /tmp/ja [--game mipolin]

(the README shows the English ones; the others are for looking at a change in both languages)
"""

from __future__ import annotations

import argparse
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=["en", "ja"], default="en")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_in_thread(f"sqlite:///{folder}/shots.db")
        try:
            with chromium() as browser:
                for game, seats, options in GAMES:
                    if args.game and game not in args.game:
                        continue
                    for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                        context = browser.new_context(viewport=viewport, reduced_motion="reduce")
                        context.add_init_script(f"localStorage.setItem('asobiba.lang', '{args.lang}')")
                        page = context.new_page()
                        create_room(page, server.base_url, "Aki", game, options, seats=seats)
                        for seat in range(1, seats):
                            add_bot(page, seat)
                        start_match(page)
                        wait_for_table(page, CONTROLS)
                        page.wait_for_timeout(1500)  # the bots' first moves
                        height = min(page.evaluate("document.documentElement.scrollHeight"), 2400)
                        path = out / f"{game}-{label}{suffix}.png"
                        page.screenshot(path=path, clip={"x": 0, "y": 0, "width": viewport["width"], "height": height},
                                        full_page=True)
                        print(path)
                        page.context.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
