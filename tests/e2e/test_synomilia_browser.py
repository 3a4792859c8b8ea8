"""Two players in two browser contexts: create a room, join by the invite link, play to the end."""

from __future__ import annotations

import random
import re
import time

from tests.support.browser import click_until_outcome, create_room, join_room, start_match, watch_errors
from tests.support.clients import Api

ACTION_BUTTONS = ".synomilia-actions button"


def test_two_browsers_play_a_whole_match(server, browser):
    rng = random.Random(3)
    # With the app's service worker in the loop (other browser tests block it: tests/support/browser.py).
    host = browser.new_context(viewport={"width": 1000, "height": 800}, service_workers="allow").new_page()
    guest = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="allow").new_page()  # phone width
    errors = watch_errors(host) + watch_errors(guest)

    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0.5})
    join_room(guest, host, invite, "Ben", 1)
    start_match(host)
    click_until_outcome([host, guest], ACTION_BUTTONS, rng)
    assert "Rank 1" in host.locator("#outcome").inner_text()
    room = host.evaluate("fetch(location.pathname.replace('/r/', '/api/rooms/')).then(r => r.json())")
    assert room["status"] == "finished" and room["options"]["reveal_delay"] == 0.5
    # the last bout's payout says "Winner held N chips" only where the winner held N
    view = host.evaluate("fetch(location.pathname.replace('/r/', '/api/rooms/') + '/view').then(r => r.json())")
    held = view["view"]["last_bout"]["winner_held"]
    bout = host.locator(".synomilia-box").filter(has=host.locator("h2", has_text=re.compile(r"^Bout \d+ result"))).inner_text()
    assert all(f"Winner held {n} chip" not in bout for n in (0, 1) if n != held), bout
    guest.locator("#replay-link").wait_for()
    assert errors == []


def test_an_action_that_crossed_the_other_seats_is_sent_again_not_refused(server, browser):
    """Both seats predict at once: the other seat's prediction can commit while ours is on its way,
    and ours then arrives at a stale version. The page sends it again at the new version (once,
    while it is still legal) instead of showing the refusal; an error about something else (a
    chat message too fast) does not cancel that."""
    host = browser.new_context().new_page()
    host.add_init_script("""(() => {  // every action frame leaves 3 s late
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (typeof data === "string" && data.includes('"type":"action"')) {
          setTimeout(() => send.call(this, data), 3000);
          return;
        }
        send.call(this, data);
      };
    })();""")
    errors = watch_errors(host)
    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    room_id = invite.rsplit("/", 1)[1]
    ben = Api.new_player(server.base_url, "Ben")
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    start_match(host)
    host.locator(ACTION_BUTTONS).first.wait_for()
    before = ben.get(f"/api/rooms/{room_id}/view").json()
    assert set(before["awaiting"]) == {0, 1}
    host.locator(ACTION_BUTTONS).first.click()  # Aki's prediction leaves in 3 s
    taken = ben.post(f"/api/rooms/{room_id}/actions", {"action": before["legal_actions"][0], "version": before["version"]})
    assert taken.status_code == 200, taken.text  # Ben's first
    for _ in range(6):  # chat past its limit meanwhile: refusals about chat, not the action
        host.evaluate("""() => document.querySelector("#chat-input").value = "hi" """)
        host.locator("#chat-form button[type=submit]").click()
    deadline = time.monotonic() + 15
    while ben.get(f"/api/rooms/{room_id}/view").json()["version"] < before["version"] + 2:
        assert time.monotonic() < deadline, f"Aki's prediction was not taken; the page says {host.locator('#toast').inner_text()!r}"
        time.sleep(0.1)
    assert "stale" not in host.locator("#toast").inner_text()
    assert errors == []
