"""Two players in two browser contexts: create a room, join by the invite link, play to the end."""

from __future__ import annotations

import random

from tests.support.browser import click_until_outcome, create_room, join_room, start_match, watch_errors

ACTION_BUTTONS = ".synomilia-actions button"


def test_two_browsers_play_a_whole_match(server, browser):
    rng = random.Random(3)
    host = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    guest = browser.new_context(viewport={"width": 360, "height": 740}).new_page()  # phone width
    errors = watch_errors(host) + watch_errors(guest)

    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0.5})
    join_room(guest, host, invite, "Ben", 1)
    start_match(host)
    click_until_outcome([host, guest], ACTION_BUTTONS, rng)
    assert "Rank 1" in host.locator("#outcome").inner_text()
    room = host.evaluate("fetch(location.pathname.replace('/r/', '/api/rooms/')).then(r => r.json())")
    assert room["status"] == "finished" and room["options"]["reveal_delay"] == 0.5
    guest.locator("#replay-link").wait_for()
    assert errors == []
