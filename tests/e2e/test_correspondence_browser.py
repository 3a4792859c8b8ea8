"""Correspondence tables in Chromium (issue 31), at 1280 and 390 px, in English and Japanese: the
host chooses the pace and the deadline rule in the lobby and the friend's page shows them; the
header's "My tables" badge counts the tables awaiting the player; the my-tables page lists them,
the player's turn first; a vacation started there shows to the friend as "on vacation until …"
and ends early; a proposal the player owes an answer to is said on their card and counted. Each page is checked with axe and for unnamed controls; screenshots are saved."""

from __future__ import annotations

import time

import pytest

from tests.support.axe import severe_violations
from tests.support.browser import (DESKTOP, PHONE, add_bot, box_of, create_room, join_room, room_api, start_match,
                                   unnamed_controls, watch_errors)

CASES = [("en-US", DESKTOP), ("ja-JP", PHONE), ("en-US", PHONE), ("ja-JP", DESKTOP)]


@pytest.mark.parametrize("locale,viewport", CASES, ids=["en-1280", "ja-390", "en-390", "ja-1280"])
def test_pace_in_the_lobby_my_tables_and_vacation(server, browser, locale, viewport, shots):
    ja = locale.startswith("ja")
    tag = f"{locale}-{viewport['width']}"
    host = browser.new_context(viewport=viewport, locale=locale).new_page()
    friend = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(host) + watch_errors(friend)

    invite = create_room(host, server.base_url, "Aki", "synomilia")
    clock = host.locator("[data-option='turn_seconds']")
    clock.wait_for()  # a live table's clock per decision...
    host.select_option("#room-pace", "2d")
    host.locator("#room-on-deadline").wait_for()  # (offered once the table is a correspondence one)
    clock.wait_for(state="detached")  # ...is not offered at days per move: the deadline replaces it
    host.select_option("#room-on-deadline", "lose")
    deadline = time.monotonic() + 10
    while (room := room_api(host)["body"])["on_deadline"] != "lose":  # the PATCH is on its way
        assert time.monotonic() < deadline, room
        time.sleep(0.05)
    assert room["pace"] == "2d"
    join_room(friend, host, invite, "Ben", 1)
    # nothing waits for anyone's move yet: the header shows no badge (not a "0")
    friend.locator("#tables-link").wait_for()
    assert friend.locator("#tables-badge").count() == 1 and not friend.locator("#tables-badge").is_visible()
    settings = friend.locator("#table-settings")
    settings.filter(has_text="1手2日" if ja else "2 days per move").wait_for()
    assert ("時間切れは負け" if ja else "late player loses") in settings.inner_text()
    assert ("持ち時間" if ja else "Clock per decision") not in settings.inner_text()
    assert unnamed_controls(host) == [] and severe_violations(host, "#table-settings") == []
    host.screenshot(path=shots / f"corr-lobby-{tag}.png", full_page=True)
    start_match(host)
    host.locator(".room-bar").filter(has_text="1手2日" if ja else "2 days per move").wait_for()
    # the header's clock counts days and hours, not thousands of minutes
    host.locator("#turn-clocks .turn-clock").first.filter(has_text="日" if ja else " d ").wait_for()

    # Both predict at once in Synomilia: the table waits for each; the badge counts it.
    badge = host.locator("#tables-badge:not([hidden])")
    host.reload()
    badge.wait_for()
    assert badge.inner_text() == "1"
    if viewport is PHONE:
        link = box_of(host.locator("#tables-link"))
        assert link["width"] >= 44 and link["height"] >= 44
    host.click("#tables-link")
    host.wait_for_url("**/static/my_tables.html")
    card = host.locator(".my-table.my-turn")
    card.wait_for()
    assert ("あなたの番です" if ja else "Your move") in card.inner_text()
    assert ("残り時間" if ja else "Time left") in card.inner_text()
    assert host.locator("#my-turn-count").inner_text().startswith("あなたの番：1" if ja else "1 waiting")
    assert unnamed_controls(host) == [] and severe_violations(host) == []
    host.screenshot(path=shots / f"corr-my-tables-{tag}.png", full_page=True)

    # Vacation: three days; the friend's room bar says so; then back early.
    host.select_option("#vacation-days", "3")
    host.click("#vacation-start")
    host.locator("#vacation-end").wait_for()
    assert ("休暇中" if ja else "on vacation until") in host.locator("#vacation-status").inner_text()
    friend.locator(".room-bar .vacation-note").filter(has_text="休暇中" if ja else "on vacation until").wait_for()
    assert severe_violations(host) == []
    host.screenshot(path=shots / f"corr-vacation-{tag}.png", full_page=True)
    friend.screenshot(path=shots / f"corr-friend-bar-{tag}.png", full_page=True)
    host.click("#vacation-end")
    host.locator("#vacation-start").wait_for()
    assert ("14日中13日" if ja else "13 of 14 days left") in host.locator("#vacation-status").inner_text()
    friend.locator(".room-bar .vacation-note").wait_for(state="detached")

    # Ben proposes to abort: Aki owes an answer, and her my-tables page says so (the table, hers to
    # move too, counts once on the badge)
    friend.click("#abort-propose")
    friend.locator("#abort-proposal").wait_for()
    host.reload()
    owed = host.locator(".my-table.my-turn").filter(has_text="あなたの返事待ち" if ja else "Your answer is awaited")
    owed.wait_for()
    assert ("提案への返事待ち：1件" if ja else "1 waiting for your answer") in host.locator("#my-turn-count").inner_text()
    host.locator("#tables-badge:not([hidden])").filter(has_text="1").wait_for()
    assert unnamed_controls(host) == [] and severe_violations(host) == []
    host.screenshot(path=shots / f"corr-answer-owed-{tag}.png", full_page=True)
    assert errors == []


def test_my_tables_names_a_bot_as_its_table_does_and_says_the_last_minute(server, browser):
    """A live table in "My tables", in Japanese: its bot is "ボット1" as at the table, and a clock
    under a minute says so (it said "0分" while the table's clock showed 0:45; seconds would stand
    still on a page read once)."""
    page = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Aki", "synomilia", {"turn_seconds": 50})
    add_bot(page, 1)
    start_match(page)
    page.locator("#turn-clocks .turn-clock").first.wait_for()
    page.goto(server.base_url + "/static/my_tables.html")
    card = page.locator(".my-table.my-turn")
    card.wait_for()
    text = card.inner_text()
    assert "ボット1" in text and "Bot 1" not in text, text
    left = card.locator(".time-left").inner_text()
    assert left == "残り時間：1分未満", left
    assert errors == []


def test_my_tables_after_the_last_match_ended_does_not_say_you_never_sat(server, browser):
    """A player whose matches are all over has no table listed: the page says none is open or in
    play now (it said "You sit at no table yet" to someone who had just played) and leads to the
    games and to the player's ratings, where the finished matches are."""
    page = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Aki", "synomilia")
    add_bot(page, 1)
    start_match(page)
    page.locator("#resign").click()
    page.locator("#resign-confirm").click()
    page.locator("#outcome").wait_for()
    page.goto(server.base_url + "/static/my_tables.html")
    empty = page.locator("#no-tables")
    empty.wait_for()
    assert "いま開いている・対戦中のテーブルはありません。" in empty.inner_text()
    assert "まだ" not in empty.inner_text()
    empty.get_by_role("link", name="自分の成績").click()
    page.wait_for_url("**/static/ratings.html?player=*")
    assert errors == []
