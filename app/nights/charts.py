"""Charts drawn by the server: SVG line charts (a night's running totals, a player's rating over
time) and the PNG link preview of a night's standings.

SVG rather than a charting library in the browser: a few polylines need no script, no outside
CDN and nothing the CSP would have to allow; the page inlines the SVG, so it scales and a
screen reader reads its title and description (the page's tables carry the same figures). Every
line has its own dash pattern and marker as well as its colour. Text from players (names) is
escaped (``xml.sax.saxutils``), never markup.

The PNG (1200×630, what Open Graph scrapers read; few read SVG) is drawn with Pillow (pinned in
pyproject.toml) in one of the machine's fonts: Noto Sans CJK (the Docker image and
``scripts/test`` install fonts-noto-cjk, so Japanese names show), else DejaVu Sans, else Pillow's
own font (Latin only)."""

from __future__ import annotations

import io
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

COLOURS = ("#b0413e", "#1f5fa8", "#2e7d32", "#8e44ad", "#c77700", "#00838f", "#5d4037", "#37474f")
DASHES = ("", "8 4", "2 3", "10 3 2 3", "4 4", "12 6", "1 2", "6 2 2 2")
MARKERS = ("circle", "square", "diamond", "triangle")


@dataclass
class Series:
    key: str  # e.g. a player id or a game id (data-key in the SVG)
    label: str
    values: list[float | None]
    hollow: list[bool] = field(default_factory=list)  # a marker drawn hollow (a provisional rating)
    # which colour, dash and marker (None: the series' place in the list); a chart redrawn with
    # the series in another order (standings change) keeps each one's look
    style: int | None = None


def line_chart(series: list[Series], x_labels: list[str], title: str, desc: str, y_label: str,
               width: int = 520, height: int = 300, from_zero: bool = False, chart_id: str = "chart",
               x_label: str = "") -> str:
    """A line chart: one ``<polyline class="series" data-key>`` per series with one point per value
    that is not None, a marker per point, a legend, and numbered x and y axes, each titled: the y
    axis's title up its side, the x axis's under its numbers. ``chart_id`` names its title and
    description (unique on a page that shows several charts)."""
    left, right, top, bottom = 52, 16, 16, 46
    legend_rows = (len(series) + 2) // 3
    legend_h = 24 * legend_rows
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s.values if v is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    low = min(low, 0.0) if from_zero else low
    if high - low < 1e-9:
        high = low + 1
    ticks = _ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    count = max(1, len(x_labels))

    def x(i: int) -> float:
        return left + (plot_w * (i + 0.5) / count)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - low) / (high - low))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + legend_h}" role="img" '
           f'aria-labelledby="{chart_id}-title {chart_id}-desc" class="chart">',
           f'<title id="{chart_id}-title">{escape(title)}</title><desc id="{chart_id}-desc">{escape(desc)}</desc>',
           f'<rect x="0" y="0" width="{width}" height="{height + legend_h}" fill="#fff"/>']
    for tick in ticks:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="14" fill="#333">'
                   f'{_number(tick)}</text>')
    for i, label in enumerate(x_labels):
        out.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 20}" text-anchor="middle" font-size="14" fill="#333">'
                   f'{escape(label)}</text>')
    # (the y axis's title once sat under the x axis's numbers, where it read as the x axis's)
    out.append(f'<text class="y-title" transform="translate(14 {top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
               f'font-size="14" fill="#333">{escape(y_label)}</text>')
    if x_label:
        out.append(f'<text class="x-title" x="{left + plot_w / 2:.1f}" y="{top + plot_h + 40}" text-anchor="middle" '
                   f'font-size="14" fill="#333">{escape(x_label)}</text>')
    for n, s in enumerate(series):
        n = n if s.style is None else s.style
        colour, dash, marker = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)], MARKERS[n % len(MARKERS)]
        points = [(x(i), y(v), s.hollow[i] if i < len(s.hollow) else False)
                  for i, v in enumerate(s.values) if v is not None]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="series-group" data-key={quoteattr(s.key)}>')
        out.append(f'<polyline class="series" data-key={quoteattr(s.key)} data-label={quoteattr(s.label)} fill="none" '
                   f'stroke="{colour}" stroke-width="2.5"{dash_attr} points="'
                   + " ".join(f"{px:.1f},{py:.1f}" for px, py, _ in points) + '"/>')
        for px, py, hollow in points:
            out.append(_marker(marker, px, py, colour, hollow))
        out.append("</g>")
        lx, ly = 8 + (n % 3) * (width // 3), height + 16 + 24 * (n // 3)
        out.append(f'<line x1="{lx}" x2="{lx + 26}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="2.5"{dash_attr}/>')
        out.append(_marker(marker, lx + 13, ly - 4, colour, False))
        out.append(f'<text x="{lx + 32}" y="{ly}" font-size="15" fill="#222">{escape(s.label)}</text>')
    out.append("</svg>")
    return "".join(out)


def _marker(kind: str, x: float, y: float, colour: str, hollow: bool) -> str:
    fill = "#fff" if hollow else colour
    common = f'fill="{fill}" stroke="{colour}" stroke-width="2" class="marker{" provisional" if hollow else ""}"'
    if kind == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" {common}/>'
    if kind == "diamond":
        return f'<polygon points="{x:.1f},{y - 5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5:.1f} {x - 5:.1f},{y:.1f}" {common}/>'
    if kind == "triangle":
        return f'<polygon points="{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4:.1f} {x - 5:.1f},{y + 4:.1f}" {common}/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" {common}/>'


def _ticks(low: float, high: float) -> list[float]:
    span = high - low
    step = 1.0
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        step = float(candidate)
        if span / step <= 6:
            break
    start = step * (low // step)
    ticks: list[float] = []
    value = start
    while value <= high + 1e-9 or len(ticks) < 2:
        ticks.append(value)
        value += step
    return ticks


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


# --- the link preview ----------------------------------------------------------------------------

FONT_FILES = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@lru_cache(maxsize=8)
def _font(size: int):  # read from its file once per size
    from PIL import ImageFont

    for path in FONT_FILES:
        if Path(path).exists():
            try:
                return ImageFont.truetype(path, size)
            except OSError:
                continue
    return ImageFont.load_default(size)


# The picture's colours: the background, the bars, and each text colour with 15 shades between it
# and the background (a letter's antialiased edge). A picture of these colours alone is saved as a
# palette PNG: a tenth of the CPU of an RGB one and a third of its bytes, no visible change.
BACKGROUND = "#f6f3ec"
INKS = ("#222222", "#555555", "#b0413e")


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@lru_cache(maxsize=1)
def _palette():
    from PIL import Image

    back = _rgb(BACKGROUND)
    colours = [back] + [_rgb(c) for c in COLOURS]
    for ink in map(_rgb, INKS):
        colours += [tuple(round(b + (i - b) * k / 15) for b, i in zip(back, ink)) for k in range(1, 16)]
    image = Image.new("P", (1, 1))
    image.putpalette([value for colour in colours for value in colour])
    return image


def standings_png(heading: str, lines: list[tuple[str, str, int]], unit: str) -> bytes:
    """A 1200×630 PNG: the heading and up to eight (place, name, points) lines, best first, each
    with a bar as long as its points."""
    import zlib

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (1200, 630), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 1200, 16), fill="#b0413e")
    draw.text((60, 44), "Asobiba 遊び場", font=_font(40), fill="#b0413e")
    draw.text((60, 104), heading, font=_font(46), fill="#222222")
    big, small = _font(42), _font(34)
    best = max((total for _, _, total in lines), default=0)
    for i, (place, name, total) in enumerate(lines[:8]):
        row_y = 186 + i * 54
        draw.text((60, row_y), place, font=big, fill="#555555")
        draw.text((140, row_y), name[:22], font=big, fill="#222222")
        bar = int(260 * total / best) if best > 0 else 0
        draw.rectangle((700, row_y + 12, 700 + max(bar, 4), row_y + 40), fill=COLOURS[i % len(COLOURS)])
        draw.text((1140, row_y + 4), f"{total} {unit}", font=small, fill="#222222", anchor="ra")
    out = io.BytesIO()
    # Each pixel to its nearest colour of the palette (no dithering: flat areas stay flat), run
    # lengths for zlib (the picture is mostly flat). (optimize=True took ten times longer.)
    image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, "PNG", compress_type=zlib.Z_RLE)
    return out.getvalue()
