"""Three Magic's call window on the real server (fake clock): after every discard both other seats
are awaited with the same deadline, in every socket's view (players and spectator), whether or not
they can call; the window stays open its minimum time, then the server passes for the seats with
nothing to call — and a seat that can call keeps both seats awaited until it decides."""

from __future__ import annotations

import time

from tests.support.clients import Socket
from tests.support.driver import setup_room, wait_for_version

PASS = {"type": "pass"}


def test_every_discard_opens_the_same_window_for_both_other_seats(fake_clock_server):
    server = fake_clock_server
    room_id, apis = setup_room(server.base_url, "three_magic", ["Aki", "Ben", "Cho"], {"short_game": True})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    sockets = {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}
    sockets[None] = Socket(server.ws_url, room_id)
    seen = {"nobody": 0, "somebody": 0}
    for _ in range(12):
        if min(seen.values()) >= 1 and sum(seen.values()) >= 4:
            break
        message = apis[0].get(f"/api/rooms/{room_id}/view").json()
        assert message["view"]["phase"] == "insert", message["view"]["phase"]
        turn = message["view"]["turn"]
        api, version = apis[turn], message["version"]
        assert api.post(f"/api/rooms/{room_id}/actions", {"action": {"type": "insert", "pos": 8}, "version": version}).status_code == 200
        assert api.post(f"/api/rooms/{room_id}/actions",
                        {"action": {"type": "discard", "index": 8, "riichi": False}, "version": version + 1}).status_code == 200
        version += 2
        others = sorted({0, 1, 2} - {turn})
        opened_at = int(server.clock.now() * 1000)
        window = {seat: sock.latest_view(version=version) for seat, sock in sockets.items()}
        for seat, m in window.items():
            assert m["version"] == version and m["view"]["phase"] == "calls"
            assert m["awaiting"] == [-1, *others], (seat, m["awaiting"])
            assert set(m["deadlines"]) == {str(s) for s in others}
            assert len(set(m["deadlines"].values())) == 1 and m["deadlines"][str(others[0])] >= opened_at + 29_000
        choosers = [s for s in others if window[s]["legal_actions"] != [PASS]]
        assert server.clock.advance(0.9) == 0  # the window's minimum time is not over: nothing woken
        assert apis[0].get(f"/api/rooms/{room_id}/view").json()["version"] == version  # the minimum time runs
        server.clock.advance(0.2)
        closed = wait_for_version(apis[0], room_id, version + 1)
        if not choosers:
            seen["nobody"] += 1
            assert closed["view"]["phase"] == "insert"  # the server passed for both
            continue
        seen["somebody"] += 1
        assert closed["view"]["phase"] == "calls" and closed["awaiting"] == others  # still both
        for seat in choosers:
            now = apis[seat].get(f"/api/rooms/{room_id}/view").json()["version"]
            assert apis[seat].post(f"/api/rooms/{room_id}/actions", {"action": PASS, "version": now}).status_code == 200
        assert wait_for_version(apis[0], room_id, version + 1 + len(choosers))["view"]["phase"] == "insert"
    assert seen["nobody"] >= 1, seen
