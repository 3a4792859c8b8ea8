"""Issue 48, points 3 and 8: tables that play for nobody, and tables that never end.

A live table counts as attended by the people connected to it (a socket or stream of a seated
player, or their REST calls), not by how many of its seats are bots: one guest who never connects
and seats strong bots that think for 0 s must not get the bots to play for them (the shared bot
threads would be theirs), and such a table, like one loaded at a restart with nobody at it, is
aborted unrated after UNATTENDED_END_SECONDS. Running tables and bot seats are capped per player
and per address, checked with the start or the seat."""

from __future__ import annotations

import httpx

from app.clock import FakeClock
from app.live.attendance import REST_PRESENCE_SECONDS
from app.live.timers import UNATTENDED_END_SECONDS
from tests.platform.test_zombie_seats import bots_waiting, view
from tests.support.clients import Api, Socket
from tests.support.server import start_in_thread
from tests.support.waiting import wait_for, wait_until_equal


def strong_bots_table(base_url: str, host: Api, seats: int = 8, **room) -> str:
    """A Makelandia table of ``host`` and strong bots thinking 0 s, on the shortest clock a host may
    set (10 s: the attack used 1 s, refused since by the timing floors), grace 0."""
    body = {"game": "makelandia", "seats": seats, "grace_seconds": 0, "bot_think_seconds": 0,
            "options": {"turn_seconds": 10}, **room}
    room_id = host.post("/api/rooms", body).json()["id"]
    for seat in range(1, seats):
        added = host.post(f"/api/rooms/{room_id}/bots", {"seat": seat, "level": "strong"})
        assert added.status_code == 200, added.text
    return room_id


def test_bots_do_not_play_for_a_person_who_never_connects(fake_clock_server):
    server = fake_clock_server
    guest = Api.new_player(server.base_url, "Aki")
    room_id = strong_bots_table(server.base_url, guest)
    assert guest.post(f"/api/rooms/{room_id}/start").status_code == 200
    server.clock.advance(REST_PRESENCE_SECONDS + 1)  # the start said the guest was here; no call since
    wait_until_equal(lambda: bots_waiting(server, room_id), True, timeout=10)
    waiting = view(server, room_id)
    assert waiting["outcome"] is None
    server.clock.advance(15)  # the guest's 10 s clock runs out: their timeout is played, no bot moves
    wait_until_equal(lambda: bots_waiting(server, room_id), True, timeout=10)
    assert view(server, room_id)["version"] <= waiting["version"] + 1

    socket = Socket(server.ws_url, room_id, guest.token)  # the guest comes: the bots play on
    version = socket.latest_view()["version"]
    wait_until_equal(lambda: view(server, room_id)["version"] > version, True, timeout=10)
    socket.close()
    wait_until_equal(lambda: bots_waiting(server, room_id), True, timeout=10)
    server.clock.advance(UNATTENDED_END_SECONDS)
    wait_until_equal(lambda: (view(server, room_id)["outcome"] or {}).get("ending"), "unattended")
    record = httpx.get(f"{server.base_url}/api/matches/{waiting['match_id']}").json()
    assert record["status"] == "aborted" and record["rated"] is False


def test_a_correspondence_table_nobody_is_connected_to_plays_on(fake_clock_server):
    server = fake_clock_server
    aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
    room_id = aki.post("/api/rooms", {"game": "synomilia", "seats": 2, "pace": "1d"}).json()["id"]
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    server.clock.advance(REST_PRESENCE_SECONDS + 1)
    wait_until_equal(lambda: server.app.state.hub.rooms[room_id].runner.unattended, False)
    server.clock.advance(UNATTENDED_END_SECONDS)
    assert view(server, room_id)["outcome"] is None
    assert httpx.get(f"{server.base_url}/api/rooms/{room_id}").json()["status"] == "running"


def test_a_match_nobody_attends_after_a_restart_ends(database_url):
    """Grace 0 and no clock: before, nothing ever moved such a match, and every start loaded it again."""
    first = start_in_thread(database_url, clock=FakeClock())
    try:
        aki, ben = Api.new_player(first.base_url, "Aki"), Api.new_player(first.base_url, "Ben")
        room_id = aki.post("/api/rooms", {"game": "synomilia", "seats": 2, "grace_seconds": 0,
                                          "options": {"turn_seconds": 0}}).json()["id"]
        assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
        assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    finally:
        first.stop()
    server = start_in_thread(database_url, clock=FakeClock())
    try:
        wait_until_equal(lambda: bots_waiting(server, room_id), True, timeout=10)  # loaded at the start, nobody here
        server.clock.advance(UNATTENDED_END_SECONDS)
        wait_until_equal(lambda: (view(server, room_id)["outcome"] or {}).get("ending"), "unattended")
        assert httpx.get(f"{server.base_url}/api/rooms/{room_id}").json()["status"] != "running"
    finally:
        server.stop()


def refused(response: httpx.Response, code: str) -> bool:
    return response.status_code == 409 and response.json()["error"]["code"] == code


def test_running_tables_are_capped_per_player(fake_clock_server):
    server = fake_clock_server
    cap = server.app.state.settings.max_running_tables_per_player
    host = Api.new_player(server.base_url, "Aki")
    for _ in range(cap):
        room_id = strong_bots_table(server.base_url, host, seats=2, game="synomilia", options={})
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    one_more = strong_bots_table(server.base_url, host, seats=2, game="synomilia", options={})
    answer = host.post(f"/api/rooms/{one_more}/start")
    assert refused(answer, "too_many_tables"), answer.text
    assert httpx.get(f"{server.base_url}/api/rooms/{one_more}").json()["status"] == "open"
    correspondence = strong_bots_table(server.base_url, host, seats=2, game="synomilia", options={}, pace="1d")
    assert host.post(f"/api/rooms/{correspondence}/start").status_code == 200  # (not counted)


def test_running_tables_are_capped_per_address(database_url):
    server = start_in_thread(database_url, clock=FakeClock(), max_running_tables_per_address=3)
    try:
        started = []
        for name in ("Aki", "Ben", "Cho", "Dai"):  # new guests from one address, each under their own cap
            guest = Api.new_player(server.base_url, name)
            room_id = strong_bots_table(server.base_url, guest, seats=2, game="synomilia", options={})
            started.append(guest.post(f"/api/rooms/{room_id}/start"))
        assert [answer.status_code for answer in started[:3]] == [200, 200, 200]
        assert refused(started[3], "too_many_tables"), started[3].text
    finally:
        server.stop()


def test_bot_seats_are_capped_per_player_and_per_address(database_url):
    server = start_in_thread(database_url, clock=FakeClock(), max_bot_seats_per_address=20)
    try:
        cap = server.app.state.settings.max_bot_seats_per_player
        aki = Api.new_player(server.base_url, "Aki")
        seated = 0
        while seated < cap:  # tables of eight, not started: open tables count too
            room_id = aki.post("/api/rooms", {"game": "makelandia", "seats": 8}).json()["id"]
            for seat in range(1, min(8, cap - seated + 1)):
                assert aki.post(f"/api/rooms/{room_id}/bots", {"seat": seat}).status_code == 200
                seated += 1
        room_id = aki.post("/api/rooms", {"game": "makelandia", "seats": 4}).json()["id"]
        assert refused(aki.post(f"/api/rooms/{room_id}/bots", {"seat": 1}), "too_many_bots")
        ben = Api.new_player(server.base_url, "Ben")  # another guest from the same address
        room_id = ben.post("/api/rooms", {"game": "makelandia", "seats": 8}).json()["id"]
        for seat in range(1, 20 - cap + 1):
            assert ben.post(f"/api/rooms/{room_id}/bots", {"seat": seat}).status_code == 200
        answer = ben.post(f"/api/rooms/{room_id}/bots", {"seat": 20 - cap + 1})
        assert refused(answer, "too_many_bots"), answer.text
        assert [s["bot"] for s in httpx.get(f"{server.base_url}/api/rooms/{room_id}").json()["seats"]].count(True) == 20 - cap
    finally:
        server.stop()


def test_an_ipv6_host_is_one_address_for_the_caps_whatever_address_of_its_64_it_uses():
    """A host is given a whole /64: counted by its full addresses, it could rotate through them
    past the per-address caps (found by review). The caps count it as the connection bound does."""
    from app.limits.tables import address_hash
    assert address_hash("2001:db8:1:2::1") == address_hash("2001:db8:1:2:ffff:ffff:ffff:fffe")
    assert address_hash("2001:db8:1:2::1") != address_hash("2001:db8:1:3::1")
    assert address_hash("::ffff:192.0.2.7") == address_hash("192.0.2.7") != address_hash("192.0.2.8")
    assert address_hash(None) is None


def test_a_rematch_is_held_to_the_caps_on_running_tables(fake_clock_server):
    """A host at the cap could finish a table of bots, start another, then vote a rematch in the
    first (its bots say yes at once): the rematch started past the cap (found by review)."""
    server = fake_clock_server
    cap = server.app.state.settings.max_running_tables_per_player
    host = Api.new_player(server.base_url, "Aki")
    rooms = []
    for _ in range(cap):
        room_id = strong_bots_table(server.base_url, host, seats=2, game="synomilia", options={})
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        rooms.append(room_id)
    first = rooms[0]
    version = host.get(f"/api/rooms/{first}/view").json()["version"]
    resigned = host.post(f"/api/rooms/{first}/actions", {"action": {"platform": "resign"}, "version": version})
    assert resigned.status_code == 200, resigned.text
    wait_for(lambda: httpx.get(f"{server.base_url}/api/rooms/{first}").json()["status"] == "finished")
    another = strong_bots_table(server.base_url, host, seats=2, game="synomilia", options={})
    assert host.post(f"/api/rooms/{another}/start").status_code == 200  # at the cap again
    answer = host.post(f"/api/rooms/{first}/rematch")
    assert refused(answer, "too_many_tables"), answer.text
    assert httpx.get(f"{server.base_url}/api/rooms/{first}").json()["status"] == "finished"
