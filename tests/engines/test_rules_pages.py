"""Every game's rules page says what the server does with clocks, absent players and finished
matches, in both languages, and names the clock room option with the default the engine uses (so
the page and the engine cannot drift apart)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
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


# ------------------------------------------------------------ the two languages say one thing

class _Outline(HTMLParser):
    """Per language section (``<section id="ja">`` / ``id="en"``): the rulings (one item per
    ``<li>`` of a yellow ``house`` box, or the box itself when it has no list), every list's item
    count, and the ``<code>`` names."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, dict] = {}
        self._section: dict | None = None
        self._stack: list[tuple[str, bool]] = []  # open divs: (tag, is a house box)
        self._lists: list[list[int]] = []
        self._house: list[int] | None = None  # the open house box's rulings
        self._house_lists = 0  # lists open when it opened (its rulings are its own lists' items)
        self._code: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("id") in ("ja", "en"):
            self._section = self.sections[a["id"]] = {"rulings": [], "lists": [], "code": []}
        if self._section is None:
            return
        if tag == "div":
            house = "house" in (a.get("class") or "").split()
            self._stack.append(("div", house))
            if house:
                self._house, self._house_lists = [], len(self._lists)
        elif tag in ("ul", "ol"):
            self._lists.append([0])
        elif tag == "li":
            if self._lists:
                self._lists[-1][0] += 1
            if self._house is not None and len(self._lists) == self._house_lists + 1:
                self._house.append(1)
        elif tag == "code":
            self._code = []

    def handle_endtag(self, tag):
        if self._section is None:
            return
        if tag == "section":
            self._section = None
        elif tag == "div" and self._stack:
            _, house = self._stack.pop()
            if house and self._house is not None:
                self._section["rulings"].append(len(self._house) or 1)
                self._house = None
        elif tag in ("ul", "ol") and self._lists:
            self._section["lists"].append(self._lists.pop()[0])
        elif tag == "code" and self._code is not None:
            self._section["code"].append("".join(self._code))
            self._code = None

    def handle_data(self, data):
        if self._code is not None:
            self._code.append(data)


def _outline(game_id: str) -> dict:
    parser = _Outline()
    parser.feed((PAGES / f"{game_id}.html").read_text(encoding="utf-8"))
    return parser.sections


@pytest.mark.parametrize("game_id", engines.ids())
def test_both_languages_have_the_same_rulings_and_lists(game_id):
    """Each ruling is written in both languages: the same number of house boxes, each with the
    same number of rulings, lists of the same lengths in the same order, the same option names."""
    sections = _outline(game_id)
    ja, en = sections["ja"], sections["en"]
    assert ja["rulings"] and ja["rulings"] == en["rulings"], "the two languages list different rulings"
    assert ja["lists"] == en["lists"], "a list has a different number of items in the two languages"
    assert sorted(ja["code"]) == sorted(en["code"])


def _language(game_id: str, lang: str) -> str:
    html = (PAGES / f"{game_id}.html").read_text(encoding="utf-8")
    start = html.index(f'<section id="{lang}"')
    text = html[start:html.index("</section>", start)]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text))


def test_makelandia_pages_say_a_face_down_attack_hides_its_card_count_as_the_engine_does():
    from tests.engines.test_makelandia import act, four

    state = four(["1", "4"], ["9", "3", "6"], ["2"], ["5"], turn=1)
    pair = act(state, 1, {"type": "attack", "target": 0, "cards": ["3", "6"]})
    single = act(state, 1, {"type": "attack", "target": 0, "cards": ["9"]})
    engine = engines.get("makelandia")
    for viewer in (0, 2, 3, None):  # the defender, the others, a spectator
        assert engine.view(pair, viewer)["pending"] == engine.view(single, viewer)["pending"]
        assert [p["hand_size"] for p in engine.view(pair, viewer)["players"]] == [2, 3, 1, 1]
    assert engine.view(pair, 1)["players"][1]["hand_size"] == 1  # the attacker's own
    ja, en = _language("makelandia", "ja"), _language("makelandia", "en")
    assert "何枚出したかだけが分かります" not in ja
    assert "相手が何枚出したかは分かりません" in ja
    assert "攻撃した人の手札の枚数が出す前のまま(伏せたカードを数えたまま)見えます" in ja
    assert "敵プレイヤーひとりの前に伏せて出します" in ja and "当サーバーは枚数を隠します" in ja  # why
    assert "not how many cards" in en
    assert "sees the attacker's hand size as before the play (still counting the face-down cards)" in en
    assert "at a real table the defender would see how many cards lie there" in en  # why
    assert "This server hides the count" in en


def test_mipolin_pages_say_how_long_a_wrong_accuser_sees_the_solution_as_the_engine_does():
    from tests.engines.test_mipolin import act, make

    engine = engines.get("mipolin")
    s = make(dealer=2, phase="accuse", culprit=5, location=9)
    s = act(s, 0, type="accuse", character=5, place=8)
    seen = [e for e in engine.view(s, 0)["log"] if e["kind"] == "accuse"][0]
    assert seen["culprit"] == 5 and seen["location"] == 9  # during the check
    while s["turn"] == 1:  # the next player's turn
        seat = next(iter(engine.awaiting(s)))
        s = act(s, seat, **engine.legal_actions(s, seat)[0])
    assert s["phase"] != "over"
    assert engine.view(s, 0)["log"] == engine.view(s, None)["log"]  # then a spectator's log, all of it
    ja, en = _language("mipolin", "ja"), _language("mipolin", "en")
    assert "本人にだけ残る" not in ja
    assert "確認は次のプレイヤーの手番が終わるまで続き、ほかの人には見えない" in ja
    assert "見た真相はその人のログからも消える" in ja
    assert "それ以前の自分の交換のカードや見せてもらったカードも、ゲーム終了まで見えない(ログ全体が観戦者のログになる)" in ja
    assert "during the check, which lasts until the next player's turn is over; nobody else sees them" in en
    assert "what they saw is gone from their log too" in en
    assert "the cards of their earlier exchanges and shown cards, stay hidden from them (their whole log is a spectator's)" in en


def test_synomilia_pages_say_who_reveals_first_after_two_passes_on_an_empty_pile():
    from tests.engines.test_synomilia import PASS, change, playing, run

    state = run(playing(start=0), (0, PASS), (1, change(4)), (0, PASS), (1, PASS))
    assert state.last_actor == 1 and state.first_revealer == 0  # the start player, not the changer
    ja, en = _language("synomilia", "ja"), _language("synomilia", "en")
    assert "アクションがなければスタートプレイヤー" not in ja
    assert "場にチップが積まれていない状態で二人が続けてパスして終わったときは、スタートプレイヤーが先に公開します" in ja
    assert "「パス → 変更 → パス → パス」では、変更した人ではなくスタートプレイヤーが先です" in ja
    assert "the start player if there was no action" not in en
    assert "two passes in a row and no chips on the pile, the start player reveals first" in en
    assert "after “pass → change → pass → pass” the start player reveals first, not the player who changed" in en


def test_peribit_pages_say_the_round_ends_when_the_refill_would_use_the_deck_up():
    from tests.engines.test_peribit import B, N, P, S, both, make

    state = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, N), (N, S)), placement=2, fill=False)
    state.deck = (S, S, N, B, S, N, B, N)  # the 8 stones the next Mane's refill needs
    state = both(state, P(0), P(2))
    assert state.rounds[-1]["reason"] == "deck" and len(state.deck) == 8  # nothing dealt
    ja, en = _language("peribit", "ja"), _language("peribit", "en")
    assert "補充で山札がなくなる場合(補充しきれない場合も)は山札切れで、補充せずにラウンド終了です" in ja
    assert "あるいは山札がなくなった場合にラウンド終了" in ja and "一切補充しません" in ja
    assert "If the refill would use the deck up (or needs more than it holds), the deck has run out and the round ends instead" in en
    assert "“or the deck runs out”" in en and "Nothing is dealt" in en
