"""Two people in two browsers: the turn cues (tab title and favicon badge while awaited, the sound
switch off by default and remembered), then after the end "Rematch" on both pages starts a new match
in the same room, and the old match's replay page links to the new one."""

from __future__ import annotations

import random
import re

from tests.support.browser import click_until_outcome, create_room, join_room, start_match, watch_errors

CONTROLS = ".synomilia-root button"
RECORD_CUES = """
window.__cues = { vibrations: 0, tones: 0 };
navigator.vibrate = () => { window.__cues.vibrations += 1; return true; };
window.AudioContext = class extends window.AudioContext {
  createOscillator() { window.__cues.tones += 1; return super.createOscillator(); }
};
"""


def cues(page) -> dict:
    return page.evaluate("() => window.__cues")


def synomilia_started(server, browser):
    """Aki (1000 px) and Ben (390 px) in their own browsers at a Synomilia match just started,
    each page counting its vibrations and tones instead of making them; and their page errors."""
    host = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    guest = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    for page in (host, guest):
        page.add_init_script(RECORD_CUES)
    errors = watch_errors(host) + watch_errors(guest)
    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    join_room(guest, host, invite, "Ben", 1)
    start_match(host)
    return host, guest, errors


def awaited_page(pages):
    for _ in range(100):
        for page in pages:
            if page.title().startswith("●"):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody's tab says it is their move")


def test_turn_cues_then_rematch_in_the_same_room(server, browser):
    host, guest, errors = synomilia_started(server, browser)
    for page in (host, guest):
        page.locator(".synomilia-root").wait_for()

    # both choose a prediction at the same time: both tabs are marked, both clocks count down
    clock = host.locator("#turn-clocks .turn-clock[data-seat='1']")
    clock.wait_for()
    first = clock.inner_text()
    assert re.search(r"Ben \d+:\d\d$", first), first
    host.wait_for_function("(first) => { const el = document.querySelector(\"#turn-clocks .turn-clock[data-seat='1']\"); return el && el.textContent !== first; }", arg=first)
    for page in (host, guest):
        page.wait_for_function("() => document.title.startsWith('●')")
        assert page.locator("link[rel='icon'][data-badge='on']").count() == 1
        assert page.locator("#sound-toggle[aria-pressed='false']").count() == 1  # off by default
        assert cues(page) == {"vibrations": 1, "tones": 0}  # the turn began: a vibration, no sound
    host.click("#sound-toggle")
    host.reload()
    host.locator("#sound-toggle[aria-pressed='true']").wait_for()  # remembered
    host.wait_for_function("() => window.__cues.tones === 1")  # the reloaded page, still awaited, sounds
    # after my move, my tab is no longer marked while the other still is
    page = awaited_page([guest])
    page.locator(CONTROLS).first.click()
    page.wait_for_function("() => !document.title.startsWith('●')")
    assert page.locator("link[rel='icon'][data-badge='off']").count() == 1

    click_until_outcome([host, guest], CONTROLS, random.Random(8))
    for page in (host, guest):
        page.locator(".rematch-waiting", has_text="Waiting for:").wait_for()  # the rematch state is in
        assert "Rematch?" not in page.title()  # nobody asked yet
    old_match = host.evaluate("fetch(location.pathname.replace('/r/', '/api/rooms/')).then(r => r.json()).then(r => r.match_id)")
    host.locator("#rematch-button").click()
    host.locator(".rematch-confirmed", has_text="Ready for a rematch: you").wait_for()  # her own page says "you"
    guest.locator(".rematch-waiting", has_text="Waiting for: you").wait_for()  # the guest sees he is awaited
    assert guest.locator(".rematch-confirmed").inner_text() == "✓ Ready for a rematch: Aki"
    # a friend asked: the guest's tab says so (a player in another tab would not see the panel)
    guest.wait_for_function("() => /^● (\\(\\d\\) )?Rematch\\? — /.test(document.title)")
    assert "Rematch?" not in host.title()  # she asked: nothing owed
    assert host.locator("#rematch-button").count() == 0
    # the phone is scrolled down to the end panel and its button (checked before the click: the
    # yes completes the vote, and the new match may already have scrolled the page back up)
    guest.locator("#rematch-button").scroll_into_view_if_needed()
    assert guest.evaluate("scrollY") > 0
    guest.locator("#rematch-button").click()
    for page in (host, guest):
        page.locator("#outcome").wait_for(state="detached")
        page.locator(".synomilia-root").wait_for()
        page.wait_for_function("() => document.title.startsWith('●')")  # a new prediction is awaited
    room = host.evaluate("fetch(location.pathname.replace('/r/', '/api/rooms/')).then(r => r.json())")
    assert room["status"] == "running" and room["match_id"] != old_match
    assert guest.evaluate("scrollY") == 0  # the new match begins at the top of the page

    host.goto(f"{server.base_url}/static/replay.html?match={old_match}")
    link = host.locator("a.rematch-next")
    link.wait_for()
    assert link.get_attribute("href").endswith(room["match_id"])
    assert errors == []


def test_an_answer_owed_and_a_move_each_cue_when_they_begin(server, browser):
    """A proposal waiting for Ben's answer cues him (the tab's title and icon, the status line, a
    vibration) even while it is Aki's move; and a move of his that begins while the answer is still
    owed cues him again (an owed answer once kept every later move silent)."""
    aki, ben, errors = synomilia_started(server, browser)
    for page in (aki, ben):
        page.wait_for_function("() => document.title.startsWith('●')")  # both predict at once
    assert cues(ben)["vibrations"] == 1
    ben.locator(CONTROLS).first.click()
    ben.wait_for_function("() => !document.title.startsWith('●')")  # his part done: Aki's move
    aki.click("#abort-propose")
    ben.locator("#abort-proposal").wait_for()
    assert re.match(r"● (\(\d\) )?Answer: abort the match\?", ben.title()), ben.title()  # ("(1)": his tables waiting)
    assert ben.locator("link[rel='icon'][data-badge='on']").count() == 1
    status = ben.locator("#status").inner_text()
    assert "Answer: abort the match?" in status and "Waiting for Aki" in status, status
    assert cues(ben)["vibrations"] == 2  # asked
    assert "Answer" not in aki.title() and cues(aki)["vibrations"] == 1  # she asked: nothing owed
    for _ in range(50):  # Aki plays until a move of Ben's begins, the answer still owed
        if "Your move" in ben.title():
            break
        if aki.title().startswith("●"):
            aki.locator(CONTROLS).first.click()
        aki.wait_for_timeout(200)
    assert "Answer: abort the match?" in ben.title() and "Your move" in ben.title(), ben.title()
    assert cues(ben)["vibrations"] == 3  # the move began: cued again
    ben.click("#abort-decline")
    ben.locator("#abort-proposal").wait_for(state="detached")
    ben.wait_for_function("() => !document.title.includes('Answer')")
    assert re.match(r"● (\(\d\) )?Your move", ben.title()), ben.title()  # his move is still his
    assert errors == []
