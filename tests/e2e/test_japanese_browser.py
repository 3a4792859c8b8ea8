"""Every table in Japanese: a browser whose language is Japanese plays a whole match of each game
against bots (quick start), and at every step the page's visible text has no English left in it
(player names aside: a bot is "ボット1", not "Bot 1"), nor in the match's replay. Outcome reasons of every engine have a Japanese sentence, and
the account page is in Japanese too."""

from __future__ import annotations

import random
import re

import pytest

import engines
from engines.playout import play
from tests.support.browser import (PHONE, add_bot, click_until_outcome,
                                   create_room, start_match, wait_for_table, watch_errors)

CONTROLS = ".game button:not(.mipolin-nb-clear):not([disabled]), .mipolin-area.can"
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(page) -> set[str]:
    """Latin words in the page's visible text once the players' names are taken out."""
    text = page.locator("#main").inner_text()
    for name in page.locator(".seat b, .seat .name, [data-name]").all_inner_texts():
        text = text.replace(name, " ")
    return set(LATIN_WORD.findall(text.replace("Aki", " ")))


# Short options keep the matches short; the texts are the same.
SHORT = {"synomilia": {"reveal_delay": 0}, "three_magic": {"short_game": True, "call_window": 0.5}}


@pytest.mark.parametrize("game", [game.id for game in engines.all_engines()])
def test_a_whole_match_in_japanese_has_no_english_left(server, browser, game):
    page = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    errors = watch_errors(page)
    page.goto(server.base_url + "/")
    page.locator(".game-card").first.wait_for()
    seen = english_words(page)  # the landing page
    engine = engines.get(game)
    create_room(page, server.base_url, "Aki", game, SHORT.get(game))
    seen |= english_words(page)  # the lobby
    for seat in range(1, engine.min_players):
        add_bot(page, seat)
    seen |= english_words(page)
    assert page.locator(".seat b", has_text="ボット1").count() == 1  # the server's "Bot 1", shown in Japanese
    start_match(page)
    wait_for_table(page)
    # The page is read for English before every click: a whole Three Magic match took 80-195 s in
    # CI and once overran click_until_outcome's default 240 s (no hang: a slow, loaded machine).
    click_until_outcome([page], CONTROLS, random.Random(3), seconds=400,
                        check=lambda p: seen.update(english_words(p)))
    page.wait_for_timeout(300)
    seen.update(english_words(page))
    # The match's replay, as the end of the match links it: its heading, title, players and
    # why it was not rated (a bot played) are Japanese too.
    page.locator("a.end-replay").click()
    page.locator(".replay-players li").first.wait_for()
    seen.update(english_words(page) - {"JSON"})  # (the download's file format)
    assert page.title().startswith(f"リプレイ — {engine.title_ja} — "), page.title()
    assert page.locator("h1", has_text=f"リプレイ: {engine.title_ja}").count() == 1
    assert page.locator(".replay-players li", has_text="ボット1").count() == 1  # as the table named it
    assert "順位" not in page.locator(".replay-players").inner_text()  # places as the end panel: "1位"
    assert not seen, f"English left in the Japanese {game} pages: {sorted(seen)}"
    assert errors == []


def test_every_outcome_reason_has_a_japanese_sentence(server, browser):
    reasons = set()
    for engine in engines.all_engines():
        for seed in range(12):
            for players in sorted({engine.min_players, engine.max_players}):
                state = play(engine, players, seed).state
                reasons.add(engine.outcome(state)["reason"])
    page = browser.new_context(locale="ja-JP").new_page()
    page.goto(server.base_url + "/static/account.html")
    page.locator("#login-form").wait_for()
    assert english_words(page) == set()  # the account page speaks Japanese too
    translated = page.evaluate("""async (reasons) => {
        const { reasonText } = await import('/static/reasons.js');
        return reasons.map((r) => [r, reasonText(r, 'ja', (s) => '名' + s), reasonText(r, 'en', (s) => 'Name' + s)]);
    }""", sorted(reasons))
    for reason, ja, en in translated:
        assert not LATIN_WORD.search(ja.replace("名", "")), f"no Japanese for {reason!r}: {ja!r}"
        assert en and "seat" not in en, (reason, en)  # players are named, not numbered from 0
        assert "(s)" not in en, (reason, en)  # "1 card", "3 cards": counted, not "card(s)"
