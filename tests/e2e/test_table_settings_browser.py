"""The table's size and options (issue 29, point 4): the players chosen on a game's card are the
seats of the room "Play with friends" opens, and the host changes the size and the game's options
in the lobby until Start, within the game's range; a friend's page follows at once (a friend in a
seat that goes is moved into one that stays), and nobody but the host, and nobody after Start,
changes anything."""

from __future__ import annotations

import pytest

from tests.support.browser import (DESKTOP, PHONE, add_bot, join_room, room_api, start_match, unnamed_controls,
                                   watch_errors)


def patch_room(page, body: dict) -> dict:
    """PATCH the page's room with the page's saved token: {"status", "body"}."""
    return page.evaluate("""(body) => fetch(location.pathname.replace('/r/', '/api/rooms/'), {method: 'PATCH',
        headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('asobiba.token')},
        body: JSON.stringify(body)}).then(async (r) => ({status: r.status, body: await r.json()}))""", body)


def seat_count(page) -> int:
    return page.locator(".seat-list .seat").count()


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("ja-JP", PHONE)], ids=["en-desktop", "ja-phone"])
def test_six_makelandia_seats_on_the_landing_are_six_in_the_lobby_and_the_host_changes_them(
        server, browser, locale, viewport, shots):
    ja = locale.startswith("ja")
    host = browser.new_context(viewport=viewport, locale=locale).new_page()
    friend = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(host) + watch_errors(friend)

    host.goto(server.base_url + "/")
    host.fill("#name-input", "Aki")
    host.select_option(".bot-seats[data-game='makelandia']", "6")
    host.click(".play-friends[data-game='makelandia']")
    assert host.locator("#seats-select").input_value() == "6"  # the form says 6, not 4
    host.click("#create-room")
    host.locator(".seat-list").wait_for()
    assert seat_count(host) == 6
    assert room_api(host)["body"]["num_seats"] == 6
    settings = host.locator("#table-settings")
    assert host.locator("#room-seats").input_value() == "6"
    assert unnamed_controls(host) == []
    host.screenshot(path=shots / f"table-settings-host-{locale}-{viewport['width']}.png", full_page=True)

    # a friend sits in seat 5; the host grows the table to 8 and the friend's page follows
    invite = host.locator("#invite-url").input_value()
    join_room(friend, host, invite, "Ben", 4)
    host.select_option("#room-seats", "8")
    friend.locator(".seat[data-seat='7']").wait_for()
    assert seat_count(friend) == 8 and seat_count(host) == 8
    assert ("8人" if ja else "8 players") in friend.locator("#table-settings").inner_text()
    # the timing beyond the game's clocks is said before anyone sits (the server's 60 s grace here)
    assert ("60秒以上離れたプレイヤーはボットが代行" if ja else "a bot plays for a player away over 60 s") in \
        friend.locator("#table-settings").inner_text()
    assert ("ボットの1手の間" if ja else "bots pause") in host.locator("#table-timing").inner_text()
    friend.screenshot(path=shots / f"table-settings-friend-{locale}-{viewport['width']}.png", full_page=True)

    # shrinking to 4: Ben's seat goes, so Ben is moved into the first free seat that stays
    host.select_option("#room-seats", "4")
    friend.locator(".seat[data-seat='1']", has_text="Ben").wait_for()
    assert seat_count(friend) == 4
    assert room_api(friend)["body"]["seats"][1]["name"] == "Ben"

    # an option of the game: the clock per decision; the friend reads it
    clock = settings.locator("[data-option='turn_seconds']")
    clock.fill("90")
    clock.press("Enter")
    friend.locator("#table-settings", has_text="90").wait_for()
    assert room_api(friend)["body"]["options"]["turn_seconds"] == 90

    # the server is the judge: not the friend, not outside the range, not after Start
    refused = patch_room(friend, {"seats": 6})
    assert refused["status"] == 403 and refused["body"]["error"]["code"] == "not_host"
    too_many = patch_room(host, {"seats": 9})
    assert too_many["status"] == 422 and too_many["body"]["error"]["code"] == "bad_seats"
    bad_option = patch_room(host, {"options": {"turn_seconds": 5000}})
    assert bad_option["status"] == 422 and bad_option["body"]["error"]["code"] == "bad_options"
    too_short = patch_room(host, {"options": {"turn_seconds": 3}})
    assert too_short["status"] == 422 and too_short["body"]["error"]["code"] == "timing_too_short"
    assert seat_count(host) == 4
    for seat in (2, 3):
        add_bot(host, seat)
    start_match(host)
    host.locator(".room-bar").wait_for()
    late = patch_room(host, {"seats": 6})
    assert late["status"] == 409 and late["body"]["error"]["code"] == "room_not_open"
    assert room_api(host)["body"]["num_seats"] == 4
    assert errors == []
