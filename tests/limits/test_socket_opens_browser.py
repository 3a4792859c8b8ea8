"""The room page backs off when its socket is refused for opening too many (limit ``sockets``):
an ``error`` before the close does not count as the server speaking, so the page does not hammer
the server every 0.3 s."""

from __future__ import annotations

import pytest

from tests.support.clients import Api
from tests.support.server import start_in_thread


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a client behaviour
def test_a_refused_room_page_backs_off(database_url, browser):
    server = start_in_thread(database_url, rate_sockets_per_ip="1/600")
    try:
        host = Api.new_player(server.base_url, "Aki")
        room = host.post("/api/rooms", {"game": "synomilia", "seats": 2}).json()
        room_id = room["invite_url"].rsplit("/", 1)[-1]
        first = browser.new_context().new_page()
        first.goto(f"{server.base_url}/r/{room_id}")  # takes the address's only credit
        first.locator("#status:not(.offline)").wait_for()
        second = browser.new_context().new_page()
        opened = []
        second.on("websocket", lambda ws: opened.append(ws.url) if "/ws/rooms/" in ws.url else None)
        second.goto(f"{server.base_url}/r/{room_id}")
        second.wait_for_timeout(4500)
        # backing off 0.3, 0.6, 1.2, 2.4 s: at most 5 tries in 4.5 s (every 0.3 s would be ~15)
        assert 1 <= len(opened) <= 5, opened
    finally:
        server.stop()
