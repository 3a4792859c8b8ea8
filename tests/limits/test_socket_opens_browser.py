"""The room page backs off when its socket is refused for opening too many (limit ``sockets``):
an ``error`` before the close does not count as the server speaking, so the page does not hammer
the server every 0.3 s."""

from __future__ import annotations

import pytest

from tests.support.clients import Api
from tests.support.server import start_in_thread


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # a client behaviour
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
        # when the page opened each room socket (by its own clock, so a slow test cannot blur the gaps)
        second.add_init_script("""(() => {
          const Original = window.WebSocket;
          window.__opened = [];
          window.WebSocket = class extends Original {
            constructor(url, ...rest) {
              super(url, ...rest);
              if (String(url).includes('/ws/rooms/')) window.__opened.push(performance.now());
            }
          };
        })()""")
        second.goto(f"{server.base_url}/r/{room_id}")
        second.wait_for_function("() => window.__opened.length >= 4", timeout=15_000)
        opened = second.evaluate("() => window.__opened")
        gaps = [later - earlier for earlier, later in zip(opened, opened[1:])]
        # backing off 0.3, 0.6, 1.2 s between the refused tries, each a random 50-100 % of it (so
        # pages refused together do not come back together): at least 0.15, 0.3, 0.6 s, where a
        # page that did not back off would try every 0.15-0.3 s
        assert gaps[0] >= 150 and gaps[1] >= 300 and gaps[2] >= 600, gaps
    finally:
        server.stop()
