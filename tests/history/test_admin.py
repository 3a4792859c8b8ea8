"""Admins replay running matches from any seat or omnisciently, and abort stuck ones; nobody
else sees a running match's history, replay or export."""

from __future__ import annotations

from tests.support.clients import Api, Socket
from tests.support.driver import wait_for_version
from tests.support.server import ADMIN_TOKEN


def error_code(response) -> str:
    return response.json()["error"]["code"]


def test_running_match_is_admin_only_and_abort_stops_it(fake_clock_server):
    """The fake clock lets the bot and the turn clock act only when the test says so."""
    server = fake_clock_server
    host = Api.new_player(server.base_url, "Aki")
    room = host.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0, "turn_seconds": 30},
                                    "seats": 2, "bot_think_seconds": 5}).json()
    room_id = room["id"]
    assert host.post(f"/api/rooms/{room_id}/bots", {"seat": 1}).status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    view = host.get(f"/api/rooms/{room_id}/view").json()
    match_id = view["match_id"]
    assert host.post(f"/api/rooms/{room_id}/actions",
                     {"action": view["legal_actions"][0], "version": view["version"]}).status_code == 200
    anonymous, admin = Api(server.base_url), Api(server.base_url, ADMIN_TOKEN)
    server.clock.advance(5)  # the bot predicts too
    wait_for_version(host, room_id, 2)

    for path in ("", "/replay", "/export"):
        for who in (anonymous, host):
            response = who.get(f"/api/matches/{match_id}{path}")
            assert response.status_code == 409 and error_code(response) == "match_running", path
    assert error_code(host.get(f"/api/admin/matches/{match_id}/replay")) == "not_admin"

    # The admin sees the running match: omniscient (full state + every seat's view) or one seat.
    everything = admin.get(f"/api/admin/matches/{match_id}/replay", params={"seat": "all", "step": 1}).json()
    assert everything["step"] == 1 and everything["state"] and len(everything["views"]) == 2
    assert everything["last_action"]["action"] == view["legal_actions"][0]
    seat1 = admin.get(f"/api/admin/matches/{match_id}/replay", params={"seat": 1, "step": 1}).json()
    assert seat1["view"] == everything["views"][1]
    assert seat1["last_action"]["action"] == {"type": "predict"}  # the other seat's card stays face down
    assert admin.get(f"/api/admin/matches/{match_id}/replay", params={"step": 0}).json()["last_action"] is None
    assert error_code(admin.get(f"/api/admin/matches/{match_id}/replay", params={"step": 99})) == "bad_step"
    assert admin.get(f"/api/matches/{match_id}/export").json()["status"] == "running"
    running = admin.get("/api/admin/matches", params={"status": "running"}).json()["matches"]
    assert [m["id"] for m in running] == [match_id]

    # Abort: only admins; recorded, not rated, room aborted, sockets told, the bot never moves.
    assert error_code(host.post(f"/api/admin/matches/{match_id}/abort")) == "not_admin"
    aborted = admin.post(f"/api/admin/matches/{match_id}/abort")
    assert aborted.status_code == 200, aborted.text
    assert aborted.json()["status"] == "aborted" and not aborted.json()["rated"]
    sock.recv_until(lambda m: m["type"] == "room" and m["room"]["status"] == "aborted")
    assert host.get(f"/api/rooms/{room_id}").json()["status"] == "aborted"
    version = admin.get(f"/api/admin/matches/{match_id}").json()["steps"]
    assert version == 2
    # The runner's timers (the awaited seat's bot or turn clock) were cancelled, not left to fail.
    assert server.clock.pending() == 0
    assert server.clock.advance(120) == 0  # nothing was left to wake
    assert admin.get(f"/api/admin/matches/{match_id}").json()["steps"] == version
    refused = host.post(f"/api/rooms/{room_id}/actions", {"action": {"type": "pass"}, "version": version})
    assert refused.status_code in (409, 422)
    assert error_code(admin.post(f"/api/admin/matches/{match_id}/abort")) == "not_running"
    assert error_code(admin.post("/api/admin/matches/0123456789abcdef/abort")) == "not_found"
    assert host.get(f"/api/players/{host.player_id}").json()["ratings"] == []
    history = host.get(f"/api/players/{host.player_id}/matches").json()["matches"]
    assert [(m["match_id"], m["status"], m["rated"]) for m in history] == [(match_id, "aborted", False)]
    # Over now: players may look at it.
    assert host.get(f"/api/matches/{match_id}").json()["status"] == "aborted"
    sock.close()
