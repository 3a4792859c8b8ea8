"""Timed automatic steps on a fake clock: Synomilia's second card is in no pushed view before
the reveal delay has passed, and appears right after it."""

from __future__ import annotations


from tests.support.clients import Socket
from tests.support.driver import setup_room
from tests.support.waiting import wait_for


def test_second_reveal_waits_for_the_delay(fake_clock_server):
    server = fake_clock_server
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 5})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sockets = {0: Socket(server.ws_url, room_id, host.token), 1: Socket(server.ws_url, room_id, guest.token)}
    apis = {0: host, 1: guest}
    cards = {0: 2, 1: 7}

    def act(seat, action):
        version = apis[seat].get(f"/api/rooms/{room_id}/view").json()["version"]
        response = apis[seat].post(f"/api/rooms/{room_id}/actions", {"action": action, "version": version})
        assert response.status_code == 200, response.text

    act(0, {"type": "predict", "card": cards[0]})
    act(1, {"type": "predict", "card": cards[1]})
    first = apis[0].get(f"/api/rooms/{room_id}/view").json()["view"]["start_player"]
    act(first, {"type": "pass"})
    act(1 - first, {"type": "pass"})  # two passes: the bout ends, nobody acted -> start player reveals first

    reveal = sockets[0].latest_view(version=4)
    assert reveal["awaiting"] == [-1] and reveal["view"]["phase"] == "reveal"
    assert reveal["view"]["reveal"]["cards"][first] == cards[first]
    assert reveal["view"]["reveal"]["cards"][1 - first] is None
    assert server.clock.advance(4.9) == 0  # no timer due yet: the reveal is not woken early
    assert apis[0].get(f"/api/rooms/{room_id}/view").json()["version"] == 4  # still waiting
    server.clock.advance(0.2)
    wait_for(lambda: apis[0].get(f"/api/rooms/{room_id}/view").json()["version"] == 5, timeout=10.0, interval=0.02,
             what="the reveal applied (version 5)")
    for seat, sock in sockets.items():
        last = sock.latest_view(version=5)["view"]["last_bout"]
        for message in [m for m in sock.received if m["type"] == "view" and m["version"] < 5]:
            reveal_part = message["view"]["reveal"]
            assert reveal_part is None or reveal_part["cards"][1 - first] is None
            assert message["view"]["last_bout"] is None
        assert sorted(last["cards"]) == sorted(cards.values())


def test_placement_clock_plays_for_late_seats(fake_clock_server):
    """Peribit's clock on the server: deadlines are in the views; when they pass, the server makes
    the late seat's move (no exchange; then its first legal placement, metus +1 each)."""
    server = fake_clock_server
    room_id, (host, guest) = setup_room(server.base_url, "peribit", ["Aki", "Ben"], {"placement_clock": 30})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    Socket(server.ws_url, room_id, guest.token)  # both stay connected: late, not away (no zombie seat)
    start = sock.latest_view(version=0)
    now_ms = int(server.clock.now() * 1000)
    assert start["deadlines"] == {"0": now_ms + 30_000, "1": now_ms + 30_000}
    assert start["view"]["step"] == "exchange" and start["view"]["metus"] == 0

    # the guest decides in time; the host does not
    assert guest.get(f"/api/rooms/{room_id}/view").json()["legal_actions"][0] == {"type": "no_exchange"}
    assert guest.post(f"/api/rooms/{room_id}/actions", {"action": {"type": "no_exchange"}, "version": 0}).status_code == 200
    assert server.clock.advance(29) == 0  # the host's deadline is not due yet
    assert host.get(f"/api/rooms/{room_id}/view").json()["version"] == 1
    server.clock.advance(1.5)
    placing = sock.latest_view(version=2)
    assert placing["view"]["step"] == "place" and placing["view"]["metus"] == 0  # a late exchange costs nothing
    fresh = int(server.clock.now() * 1000) + 30_000
    assert placing["deadlines"] == {"0": fresh, "1": fresh}

    server.clock.advance(30.5)  # neither places: the server places for both, metus +1 each
    wait_for(lambda: host.get(f"/api/rooms/{room_id}/view").json()["version"] == 4, timeout=10.0, interval=0.02,
             what="both placed by the server (version 4)")
    after = host.get(f"/api/rooms/{room_id}/view").json()
    result = after["view"]["last_result"]
    assert result["late"] == [0, 1] and all(p["late"] for p in result["placements"])
    assert result["metus_before"] == 2  # +1 for each late seat, before the captures count
    assert after["view"]["placement"] == 2 and after["view"]["step"] == "exchange"
