"""Peribit in two browser contexts (one at phone width): create a room, join by the invite link,
play through the UI to the end by clicking offered actions; the table never crashes."""

from __future__ import annotations

import random
import time

from tests.support.browser import chromium, watch_errors

ACTION_BUTTONS = ".peribit-root button"


def test_two_browsers_play_peribit_through_the_table(server):
    rng = random.Random(5)
    with chromium() as browser:
        host = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
        guest = browser.new_context(viewport={"width": 360, "height": 740}).new_page()  # phone width
        errors = watch_errors(host) + watch_errors(guest)

        host.goto(server.base_url + "/")
        host.fill("#name-input", "Aki")
        host.select_option("#game-select", "peribit")
        host.click("#create-room")
        invite = host.locator("#invite-url").input_value()
        assert "/r/" in invite

        guest.goto(invite)
        guest.fill("#name-input", "Ben")
        guest.click("#name-form button[type=submit]")
        guest.click(".take-seat[data-seat='1']")
        host.locator(".seat[data-seat='1'].on").wait_for()
        host.click("#start")

        # the opening: both tables show the field, the metus counter and the rules link
        for page in (host, guest):
            page.locator(".peribit-root").wait_for()
            text = page.locator(".peribit-root").inner_text()
            assert "Metus" in text or "メトゥス" in text
            assert page.locator(".peribit-lane").count() == 5
            assert page.locator(".peribit-root a[href='/static/rules/peribit.html']").count() == 1

        clicks = 0
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
                        clicks += 1
                    except Exception:
                        pass  # the table was redrawn under the click; try again
            host.wait_for_timeout(50)
        else:
            raise AssertionError("the match did not end in the browsers")
        assert clicks >= 20
        assert "Rank 1" in host.locator("#outcome").inner_text()
        final = guest.locator(".peribit-root").inner_text()
        assert "Peribit" in final or "ペリビット" in final
        assert errors == []
