"""Make the link-preview pictures (Open Graph images, 1200×630 PNG) in static/img/og/ from the
games' SVG pictures in static/img/, with Debian's Chromium: one per game, and one of all five for
the landing page. Chat apps show PNG previews; few show SVG. Run again after changing a picture:

    .venv/bin/python scripts/og_images.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "static" / "img"
GAMES = ["synomilia", "peribit", "three_magic", "mipolin", "makelandia"]
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin: 0; width: 1200px; height: 630px; background: #f6f3ec; display: flex; flex-direction: column;
  align-items: center; justify-content: center; font-family: 'Noto Sans CJK JP', sans-serif; }}
.pics {{ display: flex; flex-wrap: wrap; gap: 20px; justify-content: center; align-items: center; }}
img {{ border-radius: 16px; box-shadow: 0 2px 8px #0003; }}
.brand {{ color: #b0413e; font-size: 44px; font-weight: 700; margin-top: 22px; }}
</style></head><body><div class="pics">{pictures}</div><div class="brand">Asobiba 遊び場</div></body></html>"""


def main() -> None:
    out = IMG / "og"
    out.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 630})
        sets = {game: [game] for game in GAMES} | {"asobiba": GAMES}
        for name, games in sets.items():
            width = 870 if len(games) == 1 else 360
            pictures = "".join(f'<img src="{(IMG / f"{g}.svg").as_uri()}" width="{width}" height="{width * 140 // 240}">'
                               for g in games)
            html = out / "_page.html"
            html.write_text(PAGE.format(pictures=pictures), encoding="utf-8")
            page.goto(html.as_uri())
            page.wait_for_load_state("load")
            page.screenshot(path=str(out / f"{name}.png"))
            html.unlink()
        browser.close()


if __name__ == "__main__":
    main()
