"""No empty boxes (issue 32): every symbol the client writes (☀ ☾ ★ ⚔ ✓ arrows …) is in the font
the site ships (static/fonts/symbols.woff, scripts/symbol_font.py) and in its @font-face
unicode-range, no emoji outside it is written at all, and the pictures draw their symbols rather
than setting them in a font the machine may lack."""

from __future__ import annotations

import re

from fontTools.ttLib import TTFont

from app.settings import ROOT

STATIC = ROOT / "static"
SYMBOLS = (0x2190, 0x2BFF)


def written(path) -> set[int]:
    text = path.read_text(encoding="utf-8")
    text += "".join(chr(int(m, 16)) for m in re.findall(r"\\u([0-9a-fA-F]{4})", text))
    text += "".join(chr(int(m, 16)) for m in re.findall(r"\\u\{([0-9a-fA-F]+)\}", text))
    return {ord(ch) for ch in text}


def client_files(*suffixes):
    """Our files (not the API documentation's vendored bundles, static/vendor/, which the game
    pages never load)."""
    return [p for p in sorted(STATIC.rglob("*")) if p.suffix in suffixes and "vendor" not in p.relative_to(STATIC).parts]


def test_every_symbol_is_shipped_and_declared():
    font = TTFont(STATIC / "fonts" / "symbols.woff").getBestCmap()
    css = (STATIC / "css" / "app.css").read_text(encoding="utf-8")
    # as Prettier lays it out: the comment, then the range over one or more lines
    found = re.search(r"/\* symbols \*/\s*unicode-range:\s*([^;]*);", css)
    assert found, "app.css has no /* symbols */ unicode-range"
    declared = {int(c.strip().removeprefix("U+"), 16) for c in found.group(1).split(",")}
    assert re.search(r'--font:\s*"Asobiba Symbols",', css), "the site font does not begin with the symbols"
    for path in client_files(".js", ".html", ".css"):
        chars = written(path)
        symbols = {c for c in chars if SYMBOLS[0] <= c <= SYMBOLS[1]}
        assert symbols <= set(font), (path.name, [chr(c) for c in symbols - set(font)])
        assert symbols <= declared, (path.name, [chr(c) for c in symbols - declared])
        emoji = {c for c in chars if c >= 0x1F000}
        assert not emoji, (path.name, [chr(c) for c in emoji])


def test_pictures_draw_their_symbols():
    for path in client_files(".svg"):
        drawn_text = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text(encoding="utf-8")))
        odd = [ch for ch in drawn_text if SYMBOLS[0] <= ord(ch) <= SYMBOLS[1] or ord(ch) >= 0x1F000]
        assert not odd, (path.name, odd)


def test_tables_and_rules_use_the_site_font():
    """A font-family of their own would skip the shipped symbols."""
    for path in client_files(".js", ".html"):
        assert not re.search(r"font-family:\s*system-ui", path.read_text(encoding="utf-8")), path.name
