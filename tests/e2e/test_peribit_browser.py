"""Peribit in two browser contexts (one at phone width): create a room, join by the invite link,
play through the UI to the end by clicking offered actions; the table never crashes."""

from __future__ import annotations

import random

from tests.support.browser import click_until_outcome, create_room, join_room, start_match, watch_errors

ACTION_BUTTONS = ".peribit-root button"


def test_two_browsers_play_peribit_through_the_table(server, browser):
    rng = random.Random(5)
    host = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    guest = browser.new_context(viewport={"width": 360, "height": 740}).new_page()  # phone width
    errors = watch_errors(host) + watch_errors(guest)

    invite = create_room(host, server.base_url, "Aki", "peribit")
    join_room(guest, host, invite, "Ben", 1)
    start_match(host)

    # the opening: both tables show the field, the metus counter and the rules link
    for page in (host, guest):
        page.locator(".peribit-root").wait_for()
        text = page.locator(".peribit-root").inner_text()
        assert "Metus" in text or "メトゥス" in text
        assert page.locator(".peribit-lane").count() == 5
        assert page.locator(".peribit-root a[href='/static/rules/peribit.html']").count() == 1

    clicks = click_until_outcome([host, guest], ACTION_BUTTONS, rng)
    assert clicks >= 20
    assert "Rank 1" in host.locator("#outcome").inner_text()
    final = guest.locator(".peribit-root").inner_text()
    assert "Peribit" in final or "ペリビット" in final
    assert errors == []
