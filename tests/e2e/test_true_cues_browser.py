"""Cues that are true (issue 29, point 6). Three Magic: the tab title, favicon badge, status line
(and so the sound and vibration, which start with them) announce a move only when the player has a
real decision, and say what it is ("Call Pon, or pass"); a call window with nothing to call is no
"move", and no clock of hers runs. Two-player tables: one clock per table, the header's, counting down alike on every page."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.support.browser import (DESKTOP, PHONE, add_bot, create_room, friends_at_synomilia, join_room, start_match,
                                   wait_for_table, watch_errors)

STATE = """() => ({
  title: document.title,
  badge: document.querySelector("link[rel='icon']")?.dataset.badge,
  status: document.getElementById("status")?.textContent || "",
  nothing: [...document.querySelectorAll(".three_magic-wait")].some((e) => /Nothing to call|誓約・ロンできる札はありません/.test(e.textContent)),
  calls: [...document.querySelectorAll(".game button")].map((b) => b.textContent).filter((x) => /^(Pon|Chi|Ron|ポン|チー|ロン)/.test(x)),
  outcome: Boolean(document.getElementById("outcome")),
  rowCue: [...document.querySelectorAll(".three_magic-wait")].some((e) => /^(your move|あなたの番)$/.test(e.textContent)),
  chipTurn: Boolean(document.querySelector("#seats .seat[data-seat='0'] .turn-mark")),
  ownClock: Boolean(document.querySelector("#turn-clocks .turn-clock[data-seat='0']")),
  waitsForMe: /call decisions: (.*, )?you\b|判断待ち: (.*, )?あなた/.test(document.querySelector(".game")?.textContent || ""),
})"""
CONTROLS = ".game button:not([disabled])"
KINDS = {"Pon": "ポン", "Chi": "チー", "Ron": "ロン"}


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("ja-JP", PHONE)], ids=["en-desktop", "ja-phone"])
def test_three_magic_cues_only_a_real_decision_and_says_what_it_is(server, browser, locale, viewport, shots):
    ja = locale.startswith("ja")
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Aki", "three_magic", {"short_game": True, "call_window": 0.5})
    add_bot(page, 1)
    add_bot(page, 2)
    start_match(page)
    wait_for_table(page)
    rng = random.Random(29)
    seen_nothing = seen_calls = 0
    shot_taken = False
    deadline = time.monotonic() + 300
    while (seen_nothing < 3 or seen_calls < 1) and time.monotonic() < deadline:
        state = page.evaluate(STATE)
        if state["outcome"]:
            page.locator("#rematch-button").click()  # bots agree at once: a new deal, more windows
            page.locator("#outcome").wait_for(state="detached")
            continue
        cued = state["title"].startswith("●")
        assert state["status"].strip(), f"the status line says nothing: {state}"
        if state["nothing"]:
            seen_nothing += 1
            assert not cued, f"a window with nothing to call is cued: {state}"
            assert state["badge"] == "off", state
            assert "Your move" not in state["status"] and "あなたの番" not in state["status"], state
            # nor does the table: her row, her seat's chip and the window's "waiting for" line
            assert not state["rowCue"] and not state["chipTurn"] and not state["waitsForMe"], state
            assert not state["ownClock"], f"her clock runs with nothing to decide: {state}"
        if state["calls"]:
            seen_calls += 1
            assert cued and state["badge"] == "on", f"a real call decision is not cued: {state}"
            for en, jp in KINDS.items():
                if any(c.startswith((en, jp)) for c in state["calls"]):
                    assert (jp if ja else en) in state["title"] and (jp if ja else en) in state["status"], state
            assert ("パス" if ja else "or pass") in state["title"], state
            if not shot_taken:
                page.screenshot(path=shots / f"three-magic-call-cue-{locale}-{viewport['width']}.png")
                shot_taken = True
        # play on: this seat's own turns and call decisions, at random
        targets = page.locator(CONTROLS)
        count = targets.count()
        if count and (cued or state["calls"]):
            try:
                targets.nth(rng.randrange(count)).click(timeout=1000)
            except Exception:
                pass  # redrawn under the click; the next round looks again
        page.wait_for_timeout(40)
    assert seen_nothing >= 3, "no call window with nothing to call was seen"
    assert seen_calls >= 1, "no call window with a real decision was seen"
    assert errors == []


CLOCK_TEXT = re.compile(r"⏱|◷|\d+ ?s\b|\d+ s left|残り\d+秒|clock \d+")


@pytest.mark.parametrize("game,options", [("synomilia", {"reveal_delay": 0}), ("peribit", {})])
def test_one_clock_per_table_the_same_on_every_page(server, browser, game, options, shots):
    host = browser.new_context(viewport=DESKTOP).new_page()
    friend = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    errors = watch_errors(host) + watch_errors(friend)
    invite = create_room(host, server.base_url, "Aki", game, options)
    join_room(friend, host, invite, "Ben", 1)
    start_match(host)
    for page in (host, friend):
        wait_for_table(page)
        page.locator(".turn-clock[data-seat='0']").wait_for()
    host.wait_for_timeout(2500)  # long enough for a clock that does not tick to show it

    def clock(page) -> int:
        minutes, seconds = page.locator(".turn-clock[data-seat='0']").inner_text().rsplit(" ", 1)[1].split(":")
        return int(minutes) * 60 + int(seconds)

    # the friend's clock, read between two readings of the host's, lies between them (±1 s of rounding)
    readings = [clock(host), clock(friend), clock(host)]
    assert readings[2] - 1 <= readings[1] <= readings[0] + 1, f"the two pages disagree: {readings}"
    assert readings[0] <= 28, f"the header clock does not count down: {readings}"
    for page in (host, friend):
        # one clock element per awaited seat, in the header; the table shows none of its own
        assert page.get_by_role("timer").count() == 1
        table = page.locator("#table").inner_text()
        assert not CLOCK_TEXT.search(table), f"a second clock on the table: {CLOCK_TEXT.search(table)!r} in {table!r}"
    host.screenshot(path=shots / f"one-clock-{game}-1280.png")
    friend.screenshot(path=shots / f"one-clock-{game}-390.png")
    assert errors == []


WATCH_LIVE_REGIONS = """() => {
  window.__live = { notices: 0, statusSame: 0, statusChanged: 0, table: 0 };
  const status = document.getElementById("status");
  let said = status.textContent;
  new MutationObserver(() => window.__live.notices++).observe(document.getElementById("match-notices"),
    { childList: true, subtree: true, characterData: true });
  new MutationObserver(() => {
    if (status.textContent === said) window.__live.statusSame++; else window.__live.statusChanged++;
    said = status.textContent;
  }).observe(status, { childList: true, subtree: true, characterData: true });
  new MutationObserver(() => window.__live.table++).observe(document.getElementById("table"), { childList: true, subtree: true });
}"""


def test_an_open_proposal_is_said_once_not_again_at_every_move(server, browser):
    """The notices above the table and the status line are live regions: whatever is put in them is
    read out. Every view redraws them; an abort proposal that waits while both players move on must
    not be said again at each move (nor the status line repeat what it already says)."""
    aki, ben, errors = friends_at_synomilia(server, browser)
    aki.click("#abort-propose")
    for page in (aki, ben):  # both pages hold the view with the proposal before they are watched
        page.locator("#abort-proposal").wait_for()
    assert ben.locator("#abort-proposal[role]").count() == 0  # inside the notices' region: said once, not twice
    for page in (aki, ben):
        page.evaluate(WATCH_LIVE_REGIONS)
    rng = random.Random(7)
    clicks = 0
    deadline = time.monotonic() + 60
    while clicks < 8 and time.monotonic() < deadline and not aki.locator("#outcome").count():
        for page in (aki, ben):
            targets = page.locator(CONTROLS)
            if targets.count():
                try:
                    targets.nth(rng.randrange(targets.count())).click(timeout=1000)
                    clicks += 1
                except Exception:
                    pass  # redrawn under the click
        aki.wait_for_timeout(100)
    assert clicks >= 4, "the players could not move while the proposal was open"
    ben.locator("#abort-proposal").wait_for()  # still open, still shown
    for page in (aki, ben):
        live = page.evaluate("window.__live")
        assert live["table"] > 0, live  # views came and the table was redrawn...
        assert live["notices"] == 0, live  # ...but the unchanged proposal was not put in again
        assert live["statusSame"] == 0, live  # and the status line changed only to say something new
    assert errors == []


def test_the_my_tables_count_follows_a_move_made_on_this_page_at_once(server, browser):
    """The top bar's "My tables" count, like the tab's title, counts this table as its latest view
    says: a move made here takes it down at once, not at the server's next answer (it lingered
    ~1.5 s, the delay before the page asks the server again)."""
    aki, ben, errors = friends_at_synomilia(server, browser)
    badge = aki.locator("#tables-badge:not([hidden])")
    badge.wait_for()  # both predict at once: Aki's table waits for her
    assert badge.inner_text() == "1"
    held = []  # from now on the page asks the server in vain: only what it knows itself can change the count
    aki.route("**/api/me/tables", lambda route: held.append(route))
    aki.locator(".synomilia-root button:not([disabled])").first.click()
    aki.wait_for_function("() => !document.title.startsWith('●')")
    aki.locator("#tables-badge").wait_for(state="hidden")
    assert "(1)" not in aki.title()
    aki.unroute("**/api/me/tables")
    for route in held:
        route.abort()
    assert errors == []


def test_the_status_line_says_something_while_the_table_moves_on_by_itself(server, browser):
    """Between Synomilia's bouts (the reveal, a timed step of the server) nobody is awaited: the
    status line says the table moves on by itself instead of going blank for seconds."""
    page = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Aki", "synomilia", {"reveal_delay": 1})
    add_bot(page, 1)
    start_match(page)
    wait_for_table(page)
    rng = random.Random(7)
    seen = 0
    deadline = time.monotonic() + 120
    while seen < 2 and time.monotonic() < deadline and not page.locator("#outcome").count():
        state = page.evaluate("""() => ({
          awaited: document.querySelectorAll('#seats .seat.awaited').length,
          status: document.getElementById('status').textContent,
          table: Boolean(document.querySelector('.synomilia-root')),
          over: Boolean(document.getElementById('outcome')) })""")
        if state["table"] and state["awaited"] == 0 and not state["over"]:  # (the end says the result)
            seen += 1
            assert state["status"] == "まもなく自動で進みます…", state
        targets = page.locator(".synomilia-root button:not([disabled])")
        if targets.count():
            try:
                targets.nth(rng.randrange(targets.count())).click(timeout=1000)
            except Exception:
                pass  # redrawn under the click
        page.wait_for_timeout(50)
    assert seen >= 2, "no moment without an awaited seat was seen"
    assert errors == []
