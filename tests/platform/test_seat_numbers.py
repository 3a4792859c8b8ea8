"""Messages a person reads number seats from 1, as the room page does ("Seat 2"); the API's
``seat`` fields stay 0-based indices (issue 18, point 4)."""

from __future__ import annotations

from tests.support.clients import Api
from tests.support.driver import setup_room


def test_refusals_name_seats_as_the_page_does(server):
    host = Api.new_player(server.base_url, "Aki")
    room = host.post("/api/rooms", {"game": "synomilia", "seats": 2}).json()
    room_id = room["invite_url"].rsplit("/", 1)[-1]
    refused = host.post(f"/api/rooms/{room_id}/start")
    assert refused.status_code == 409
    assert refused.json()["error"]["message"].startswith("Seat 2 is empty")
    ben, chie = (Api.new_player(server.base_url, name) for name in ("Ben", "Chie"))
    assert ben.post(f"/api/rooms/{room_id}/join", {"seat": 1}).status_code == 200
    taken = chie.post(f"/api/rooms/{room_id}/join", {"seat": 1}).json()["error"]
    assert taken["code"] == "seat_taken" and taken["message"] == "Seat 2 is taken"
    bad = chie.post(f"/api/rooms/{room_id}/join", {"seat": 5}).json()["error"]
    assert bad["code"] == "bad_seat" and "Seat 1–Seat 2" in bad["message"] and "indices 0–1" in bad["message"]


def test_not_your_turn_names_the_awaited_seat(server):
    room_id, apis = setup_room(server.base_url, "makelandia", ["P1", "P2", "P3", "P4"])
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    view = apis[0].get(f"/api/rooms/{room_id}/view").json()
    (turn,) = view["awaiting"]
    idle = (turn + 1) % 4
    refused = apis[idle].post(f"/api/rooms/{room_id}/actions", {"action": {"type": "wait"}, "version": view["version"]}).json()["error"]
    assert refused["code"] == "not_your_turn"
    assert refused["message"] == f"Seat {idle + 1} is not awaited now (awaiting Seat {turn + 1})"
