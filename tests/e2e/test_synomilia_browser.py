"""Two players in two browser contexts: create a room, join by the invite link, play to the end."""

from __future__ import annotations

import random
import time

from tests.support.browser import chromium, watch_errors

ACTION_BUTTONS = ".synomilia-actions button"


def test_two_browsers_play_a_whole_match(server):
    rng = random.Random(3)
    with chromium() as browser:
        host = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
        guest = browser.new_context(viewport={"width": 360, "height": 740}).new_page()  # phone width
        errors = watch_errors(host) + watch_errors(guest)

        host.goto(server.base_url + "/")
        host.fill("#name-input", "Aki")
        host.select_option("#game-select", "synomilia")
        host.fill("#game-options [data-option='reveal_delay']", "0.5")  # the room option, set in the form
        host.click("#create-room")
        invite = host.locator("#invite-url").input_value()
        assert "/r/" in invite

        guest.goto(invite)
        guest.fill("#name-input", "Ben")
        guest.click("#name-form button[type=submit]")
        guest.click(".take-seat[data-seat='1']")
        host.locator(".seat[data-seat='1'].on").wait_for()
        host.click("#start")

        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if host.locator("#outcome").count() and guest.locator("#outcome").count():
                break
            for page in (host, guest):
                buttons = page.locator(ACTION_BUTTONS)
                count = buttons.count()
                if count:
                    try:
                        buttons.nth(rng.randrange(count)).click(timeout=1000)
                    except Exception:
                        pass  # the table was redrawn under the click; try again
            host.wait_for_timeout(50)
        else:
            raise AssertionError("the match did not end in the browsers")
        assert "Rank 1" in host.locator("#outcome").inner_text()
        room = host.evaluate("fetch(location.pathname.replace('/r/', '/api/rooms/')).then(r => r.json())")
        assert room["status"] == "finished" and room["options"]["reveal_delay"] == 0.5
        guest.locator("#replay-link").wait_for()
        assert errors == []
