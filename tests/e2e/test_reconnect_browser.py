"""The browser client reconnects by itself: a player whose connection drops misses a move,
comes back, is sent what it missed (it resyncs from its last version) and plays on."""

from __future__ import annotations

import re

from tests.support.browser import create_room, join_room, start_match, watch_errors


def test_client_reconnects_and_catches_up(server, browser):
    host = browser.new_context().new_page()
    guest = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    errors = watch_errors(host) + watch_errors(guest)
    # The guest's sockets go through a switch the test controls (its network "drops").
    network = {"up": True, "sockets": []}

    def route(socket):
        if not network["up"]:
            socket.close(code=1001, reason="network down")
            return
        socket.connect_to_server()
        network["sockets"].append(socket)

    guest.route_web_socket(re.compile(r".*/ws/rooms/.*"), route)
    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    join_room(guest, host, invite, "Ben", 1)
    start_match(host)
    guest.locator(".synomilia-actions button").first.wait_for()

    network["up"] = False
    for socket in network["sockets"]:
        socket.close(code=1001, reason="network down")
    guest.locator("#status.offline").wait_for()  # the client noticed the drop
    host.locator(".synomilia-actions button", has_text="4").click()  # the host predicts meanwhile
    host.locator(".synomilia-actions button").first.wait_for(state="detached")
    network["up"] = True

    guest.locator("#status:not(.offline)").wait_for(timeout=15000)  # reconnected by itself
    # the guest missed the host's move, caught up from its last version (the host's card now
    # lies face down on its table, unseen), and plays on
    guest.locator(".synomilia-card.synomilia-down", has_text="?").wait_for()
    guest.locator(".synomilia-actions button", has_text="6").click()
    room_id = host.url.rsplit("/", 1)[-1]
    fetch_view = (f"fetch('/api/rooms/{room_id}/view', {{headers: {{Authorization: 'Bearer ' + "
                  f"localStorage.getItem('asobiba.token')}}}}).then(r => r.json())")
    for _ in range(100):
        view = host.evaluate(fetch_view)
        if view["version"] == 2:
            break
        host.wait_for_timeout(100)
    assert view["version"] == 2 and view["view"]["phase"] == "play"
    assert view["view"]["my_prediction"] == 4
    assert errors == []
