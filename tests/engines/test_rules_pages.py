"""Every game's rules page says what the server does with clocks, absent players and finished
matches, in both languages, and names the clock room option with the default the engine uses (so
the page and the engine cannot drift apart)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engines

PAGES = Path(__file__).resolve().parents[2] / "static" / "rules"


def _section(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    return html[start:html.index("</ul>", start)]


@pytest.mark.parametrize("game_id", engines.ids())
def test_rules_page_says_what_the_server_does(game_id):
    engine = engines.get(game_id)
    html = (PAGES / f"{game_id}.html").read_text(encoding="utf-8")
    en, ja = _section(html, "server-en"), _section(html, "server-ja")
    clock = next(o for o in engine.options if o["name"] in ("turn_seconds", "placement_clock"))
    assert f"<code>{clock['name']}</code>" in en and f"<code>{clock['name']}</code>" in ja
    assert re.search(rf"default {clock['default']} seconds", en), "the English page gives another default"
    assert f"既定{clock['default']}秒" in ja, "the Japanese page gives another default"
    assert "0 = no clock" in en and "0 = なし" in ja
    assert "default 60 seconds" in en and "bot" in en and "not rated" in en
    assert "既定60秒" in ja and "ボット" in ja and "レーティング対象外" in ja
    assert "replay" in en and "export" in en and "reveal everything" in en
    assert "リプレイ" in ja and "エクスポート" in ja
    if game_id == "three_magic":
        window = next(o for o in engine.options if o["name"] == "call_window")
        assert f"<code>call_window</code> seconds (default {window['default']:g})" in en
