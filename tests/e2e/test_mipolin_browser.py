"""Three players in three browser contexts play Mipolin through the table UI to the end; the
deduction notebook is saved server-side and survives a reload."""

from __future__ import annotations

import random

from tests.support.browser import click_until_outcome, create_room, join_room, start_match, watch_errors

# Everything a player clicks at the table: action buttons, hand cards, reachable map areas.
# (The notebook is a table of <td>/<th>, not buttons, so random clicking leaves it alone.)
CLICKABLE = ".mipolin-root button:not(.mipolin-nb-clear), .mipolin-area.can"


def test_three_browsers_play_a_whole_game(server, browser):
    rng = random.Random(5)
    host = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    guests = [browser.new_context(viewport={"width": 360, "height": 740}).new_page() for _ in range(2)]
    pages = [host, *guests]
    errors = [watch_errors(page) for page in pages]

    invite = create_room(host, server.base_url, "Aki", "mipolin")
    for seat, (guest, name) in enumerate(zip(guests, ("Ben", "Chie")), start=1):
        join_room(guest, host, invite, name, seat)
    start_match(host)

    # the table shows the map, the Day track, the rules link and the private notebook
    host.locator(".mipolin-map").wait_for()
    assert host.locator(".mipolin-area").count() == 9
    assert host.locator(".mipolin-day").count() == 6
    assert host.locator(".mipolin-root a[href='/static/rules/mipolin.html']").count() == 1
    cell = host.locator(".mipolin-nb td").first
    with host.expect_response(lambda r: r.request.method == "PUT" and r.url.endswith("/seat-data")) as saved:
        cell.click()  # the notebook is saved to the server (the seat's data)
    assert saved.value.ok
    host.locator(".mipolin-nb td", has_text="✗").first.wait_for()
    host.reload()
    host.locator(".mipolin-nb td", has_text="✗").first.wait_for(timeout=10000)
    assert guests[0].locator(".mipolin-nb td", has_text="✗").count() == 0  # never shown to others

    click_until_outcome(pages, CLICKABLE, rng)
    assert "The culprit was" in host.locator(".mipolin-banner").inner_text()  # solution shown at the end
    assert errors == [[], [], []]
