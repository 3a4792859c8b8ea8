"""Table first, every game at phone width (390×844) against bots: once the match starts the room
panel is a compact bar (seats, presence, spectators, Copy link; at most 160 px high even at 8
seats, no invite box), the table fits the screen, and every control of the page is named in the
accessibility tree. (Whole matches at phone width: test_quick_start_browser.py.)"""

from __future__ import annotations

import time

import pytest

from tests.support.browser import (PHONE, add_bot, create_room, start_match, unnamed_controls, wait_for_table,
                                   watch_errors)

CASES = [("synomilia", 2, {"reveal_delay": 0}), ("peribit", 2, {}), ("three_magic", 3, {}),
         ("mipolin", 3, {}), ("makelandia", 4, {}), ("makelandia", 8, {})]
CONTROLS = "#table button, #table .mipolin-area.can"


@pytest.mark.parametrize("game,seats,options", CASES, ids=[f"{g}-{n}" for g, n, _ in CASES])
def test_table_first_at_phone_width(server, browser, game, seats, options, shots):
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Aki", game, options, seats=seats)
    for seat in range(1, seats):
        add_bot(page, seat)
    start_match(page)
    wait_for_table(page, CONTROLS)  # the host has something to do
    page.wait_for_timeout(300)
    page.screenshot(path=shots / f"{game}-{seats}-phone.png")
    assert page.locator("#invite-url").count() == 0  # the invite box gave way to the table
    bar = page.locator(".room-bar")
    assert bar.locator(".seat").count() == seats
    assert bar.get_by_role("button", name="Copy link").is_visible()
    assert bar.bounding_box()["height"] <= 160, "the room bar takes too much of a phone's height"
    assert page.locator("#table").bounding_box()["y"] < PHONE["height"] / 2  # the table starts on the first screen
    # the host's first decision is on the first screen (Peribit: the exchange or the field's lanes)
    first = page.locator(CONTROLS).first.bounding_box()
    assert first["y"] + first["height"] <= PHONE["height"], f"{game}: the first control is below the fold"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{game}: the page is {width}px wide on a {PHONE['width']}px phone"
    assert unnamed_controls(page) == [], game
    assert errors == []


def test_the_mipolin_notebook_shows_it_scrolls_and_keeps_its_place_through_moves(server, browser):
    """On a phone the notebook's nine place columns do not fit: its right edge fades while more is
    to the right (the left edge once scrolled), and a move that redraws the table leaves it where
    the player scrolled it (it jumped back to the first columns at every move)."""
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Chika", "mipolin", seats=3)
    add_bot(page, 1)
    add_bot(page, 2)
    start_match(page)
    wait_for_table(page)
    box = page.locator(".mipolin-nb-scroll")
    box.and_(page.locator(".more-right")).wait_for()  # six of nine columns show: more to the right
    assert "more-left" not in box.get_attribute("class")
    # the player scrolls to the last column (again if a move redraws the notebook under the scroll);
    # the notebook and its offset are read in the same turn (a bot's move may redraw it right after,
    # and the new one reads 0 until its first frame restores the place)
    scrolled = page.wait_for_function("""() => { const e = document.querySelector('.mipolin-nb-scroll');
      if (e.scrollLeft < e.scrollWidth - e.clientWidth - 1) { e.scrollLeft = e.scrollWidth; return false; }
      return e.classList.contains('more-left') && !e.classList.contains('more-right')
        && { notebook: e, end: e.scrollLeft }; }""")
    end = scrolled.get_property("end").json_value()
    assert end > 0
    first = scrolled.get_property("notebook").as_element()
    deadline = time.monotonic() + 60
    while first.evaluate("(e) => e.isConnected") and time.monotonic() < deadline:  # until a move redraws it
        # (a control of the game, not of the notebook: a click scrolls what it clicks into view)
        mine = page.locator("#table button:not(.mipolin-nb-scroll *):not(.mipolin-nb-clear), #table .mipolin-area.can")
        if mine.count():
            try:
                mine.first.click(timeout=1000)
            except Exception:
                pass
        page.wait_for_timeout(100)
    assert not first.evaluate("(e) => e.isConnected"), "the table was never redrawn"
    # (the new notebook takes its place before it is first painted, in the frame's callbacks: a
    # script reading it between the redraw and that frame still sees 0, so the test waits a frame)
    # (still at its last columns: the same offset, or the end if the redrawn notebook is narrower)
    page.wait_for_function("""(end) => { const e = document.querySelector('.mipolin-nb-scroll');
      return e.scrollLeft === Math.min(end, e.scrollWidth - e.clientWidth) && e.scrollLeft > 0
        && e.classList.contains('more-left') && !e.classList.contains('more-right'); }""", arg=end)
    assert errors == []
