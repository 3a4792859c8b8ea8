"""Build static/fonts/symbols.woff: the symbols the client writes (☀ ☾ ★ ⚔ ⚠ ✓ ✗ arrows, …) cut
from DejaVu Sans (Debian's fonts-dejavu-core; Bitstream Vera licence, DejaVu changes public
domain: static/fonts/LICENSE-DejaVu.txt), so they never show as empty boxes on a machine without
an emoji or symbol font. static/css/app.css loads it with the same unicode-range, ahead of the
system fonts. Rerun after writing a new symbol (tests/platform/test_symbol_font.py says which):

    pip install fonttools==4.68.0 && python scripts/symbol_font.py
"""

from __future__ import annotations

import re
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
TARGET = ROOT / "static" / "fonts" / "symbols.woff"
CSS = ROOT / "static" / "css" / "app.css"
# Arrows, math, technical, geometric shapes, misc symbols, dingbats: what a Latin or Japanese
# system font may lack. (Punctuation and × are in every font the stack names.)
RANGES = [(0x2190, 0x2BFF)]
FAMILY = "Asobiba Symbols"


def used_symbols() -> list[int]:
    found = set()
    for path in (ROOT / "static").rglob("*"):
        if path.suffix in {".js", ".html", ".css"} and "vendor" not in path.relative_to(ROOT / "static").parts:
            text = path.read_text(encoding="utf-8")
            text += "".join(chr(int(m, 16)) for m in re.findall(r"\\u([0-9a-fA-F]{4})", text))
            found |= {ord(ch) for ch in text if any(lo <= ord(ch) <= hi for lo, hi in RANGES)}
    return sorted(found)


def unicode_range(codepoints: list[int]) -> str:
    return ", ".join(f"U+{c:04X}" for c in codepoints)


def main() -> None:
    codepoints = used_symbols()
    options = subset.Options()
    options.flavor = "woff"
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.layout_features = []
    options.hinting = False  # a few symbols at text size: hints would triple the file
    font = TTFont(SOURCE)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    for record in font["name"].names:  # renamed, as the Vera licence asks of a modified font
        if record.nameID in (1, 3, 4, 6, 16):
            record.string = FAMILY if record.nameID != 6 else FAMILY.replace(" ", "")
    TARGET.parent.mkdir(exist_ok=True)
    font.save(TARGET)
    css = CSS.read_text(encoding="utf-8")
    css = re.sub(r"(/\* symbols \*/\s*unicode-range:\s*)[^;]*;", lambda m: m.group(1) + unicode_range(codepoints) + ";", css)
    CSS.write_text(css, encoding="utf-8")
    print(f"{TARGET.relative_to(ROOT)}: {len(codepoints)} symbols, {TARGET.stat().st_size} bytes; now 'npm run format' lays out app.css")


if __name__ == "__main__":
    main()
