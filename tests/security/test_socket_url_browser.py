"""The browser's room sockets carry no token in their URL (issue 30, point 13): proxies, browser
history and access logs keep URLs, so the page says who it is in the socket's first frame."""

from __future__ import annotations

import json

import pytest

from tests.support.browser import create_room, join_room, start_match, watch_errors


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # what the page sends does not depend on the database
def test_room_sockets_send_the_token_in_a_hello_frame_not_the_url(server, browser):
    pages, sockets = [], []
    for _ in range(2):
        page = browser.new_context().new_page()
        page.on("websocket", lambda ws: sockets.append({"url": ws.url, "sent": (sent := [])})
                or ws.on("framesent", lambda payload, sent=sent: sent.append(payload)))
        pages.append(page)
    host, guest = pages
    errors = watch_errors(host) + watch_errors(guest)
    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    join_room(guest, host, invite, "Ben", 1)
    start_match(host)
    guest.locator(".synomilia-actions button").first.wait_for()
    tokens = {page.evaluate("localStorage.getItem('asobiba.token')") for page in pages}
    assert None not in tokens and len(tokens) == 2
    room_sockets = [s for s in sockets if "/ws/rooms/" in s["url"]]
    assert len(room_sockets) >= 2
    for socket in room_sockets:
        assert "token" not in socket["url"], socket["url"]
        assert not any(token in socket["url"] for token in tokens)
    hellos = [json.loads(s["sent"][0]) for s in room_sockets if s["sent"]]
    assert all(hello["type"] == "hello" for hello in hellos)
    assert tokens <= {hello.get("token") for hello in hellos}  # both players said who they are
    assert errors == []
