"""The end of a match says who won (issue 29, point 7): "You won!" / "You lost", "Your team won" /
"lost", the places with the scores and why, in each reader's language, with the rematch and the
"what next" place right there, and on screen without scrolling (Mipolin's end was below the fold
for a player busy in the notebook)."""

from __future__ import annotations

import random
import re

import httpx
import pytest

from tests.support.browser import (DESKTOP, PHONE, click_until_outcome, create_room, join_room, start_match,
                                   wait_for_table, watch_errors)

KANA = re.compile(r"[ぁ-んァ-ン一-龯]")
CONTROLS = ".game button:not(.mipolin-nb-clear):not([disabled]), .mipolin-area.can"


def on_screen(page, selector: str) -> bool:
    """``selector`` lies within the viewport as the page is scrolled now."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def finished_outcome(base_url: str, page) -> dict:
    room = httpx.get(base_url + "/api/rooms/" + page.url.rsplit("/r/", 1)[1]).json()
    return httpx.get(f"{base_url}/api/matches/{room['match_id']}").json()["outcome"]


def test_two_friends_are_told_who_won_each_in_their_language(server, browser, shots):
    host = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    friend = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    errors = watch_errors(host) + watch_errors(friend)
    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    join_room(friend, host, invite, "Ben", 1)
    start_match(host)
    wait_for_table(host)
    wait_for_table(friend)
    click_until_outcome([host, friend], ".game button:not([disabled])", random.Random(7))
    outcome = finished_outcome(server.base_url, host)
    ranks = outcome["ranks"]
    english = host.locator("#outcome-title").inner_text()
    japanese = friend.locator("#outcome-title").inner_text()
    if ranks[0] == ranks[1]:
        assert english == "Draw" and japanese == "引き分け"
    elif ranks[0] == 0:
        assert english == "You won!" and japanese.startswith("あなたの負け")
    else:
        assert english.startswith("You lost") and japanese == "あなたの勝ち！"
    # the header's status line says the same, not just "Game over"
    assert host.locator("#status").inner_text() == english
    assert friend.locator("#status").inner_text() == japanese
    # the places, best first, with the scores; and why it ended, in each language
    for page, you, word in ((host, "(you)", "score"), (friend, "(あなた)", "得点")):
        places = page.locator("#outcome .place")
        assert places.count() == 2
        assert you in page.locator("#outcome .place.me").inner_text()
        first = places.first.inner_text()
        assert first.startswith(("Rank 1", "1位")) and word in first
        assert page.locator("#outcome .outcome-why").inner_text().strip()
    why_en = host.locator("#outcome .outcome-why").inner_text()
    why_ja = friend.locator("#outcome .outcome-why").inner_text()
    assert "wins" in why_en or "Draw" in why_en, why_en
    assert not KANA.search(why_en) and not re.search(r"[A-Za-z]{2,}", why_ja.replace("Aki", "").replace("Ben", "")), why_ja
    assert "勝ち" in why_ja or "引き分け" in why_ja, why_ja
    # what next is right there: the rematch (and the place for a new table with the same people)
    for page in (host, friend):
        assert page.locator("#outcome #rematch-button").is_visible()
        assert page.locator("#outcome #end-next #next-table").is_visible()  # a new table, same people
        assert on_screen(page, "#outcome-title")
    host.screenshot(path=shots / "end-en-1280.png", full_page=True)
    friend.screenshot(path=shots / "end-ja-390.png", full_page=True)
    assert errors == []


@pytest.mark.parametrize("game,players,locale", [("mipolin", 3, "en-US"), ("makelandia", 4, "ja-JP")])
def test_the_end_is_on_screen_and_says_who_won(server, browser, game, players, locale, shots):
    """Against bots at phone width, a whole match through the table's own controls (Mipolin's
    notebook below the fold included); at the end, the headline is on screen where the player is."""
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    errors = watch_errors(page)
    page.goto(server.base_url + "/")
    page.fill("#name-input", "Aki")
    card = page.locator(f".game-card[data-game='{game}']")
    if card.locator("select.bot-seats").count():
        card.locator("select.bot-seats").select_option(str(players))
    card.locator("button.quick-start").click()
    wait_for_table(page)
    click_until_outcome([page], CONTROLS, random.Random(3), seconds=400)
    page.locator("#outcome-title").wait_for()
    page.wait_for_timeout(300)  # the end panel's scroll has happened
    assert on_screen(page, "#outcome-title"), "the end is below the fold"
    # the last view is not a board full of "just changed" marks (the end panel moved every leaf)
    assert page.locator("#table .just-changed").count() == 0
    outcome = finished_outcome(server.base_url, page)
    title = page.locator("#outcome-title").inner_text()
    if game == "makelandia":  # teams: seat 0 is the reader
        team = next(t for t in outcome["teams"] if 0 in t)
        if all(r == 0 for r in outcome["ranks"]):
            assert title == "引き分け"
        else:
            assert title == ("あなたのチームの勝ち！" if outcome["ranks"][team[0]] == 0 else "あなたのチームの負け")
        assert "チーム" in page.locator("#outcome .place").first.inner_text()
        places = page.locator("#outcome .place").all_inner_texts()
        if outcome.get("winner"):  # every seat's team has its colour's name, the losers' too; two places
            assert all("光チーム" in p or "闇チーム" in p for p in places), places
            assert sorted({p.split("位")[0] for p in places}) == ["1", "2"], places
    else:
        rank = outcome["ranks"][0]
        winners = outcome["ranks"].count(0)
        expected = "Draw" if winners == players else "You won!" if rank == 0 and winners == 1 else \
            "You tied for first place!" if rank == 0 else f"You lost — {['1st', '2nd', '3rd'][rank]} of {players}"
        assert title == expected
    page.screenshot(path=shots / f"end-{game}-{locale}-390.png")
    assert errors == []
