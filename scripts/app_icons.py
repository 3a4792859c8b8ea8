"""Draw the installable app's icons (issue 31.5): static/img/icon-192.png and icon-512.png.

The site's mark, as its favicon draws it (static/turn_cues.js): 遊 in white on the brick red
square. Full bleed, so the same file serves as a maskable icon: the character stays inside the
central circle of 40 % radius that every mask keeps (the "safe zone"), and the ground fills the
rest. The glyph is Noto Sans CJK JP Bold (SIL Open Font License), drawn into pixels, so the PNGs
carry no font. Run: .venv/bin/python scripts/app_icons.py"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
GROUND = (176, 65, 62)  # #b0413e, the favicon's
INK = (255, 255, 255)
JP_FACE = 0  # index of the Japanese face in the collection


def icon(size: int) -> Image.Image:
    scale = 4  # drawn larger, then reduced: smooth edges
    big = size * scale
    image = Image.new("RGB", (big, big), GROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, int(big * 0.50), index=JP_FACE)
    left, top, right, bottom = draw.textbbox((0, 0), "遊", font=font)
    # centred on its ink, so the glyph sits in the middle of the safe zone
    draw.text(((big - (right - left)) / 2 - left, (big - (bottom - top)) / 2 - top), "遊", font=font, fill=INK)
    # a thin light band at the bottom: the board's edge, inside the safe zone
    band = int(big * 0.035)
    y = int(big * 0.80)
    draw.rectangle((int(big * 0.30), y, int(big * 0.70), y + band), fill=(244, 214, 160))
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    for size in (192, 512):
        target = ROOT / "static" / "img" / f"icon-{size}.png"
        icon(size).save(target, optimize=True)
        print(target.relative_to(ROOT), target.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
