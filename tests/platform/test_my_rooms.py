"""GET /api/me/rooms: the caller's rooms, running and open ones first, finished ones with their
ranks; nobody else's rooms; a token is required."""

from __future__ import annotations

import random

from tests.support.clients import Api
from tests.support.driver import play_over_rest, setup_room


def test_my_rooms_lists_running_before_finished(server):
    done_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    host.post(f"/api/rooms/{done_id}/start")
    play_over_rest({0: host, 1: guest}, done_id, random.Random(2))
    running_id = host.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    host.post(f"/api/rooms/{running_id}/bots", {"seat": 1})
    host.post(f"/api/rooms/{running_id}/start")
    Api.new_player(server.base_url, "Cho").post("/api/rooms", {"game": "peribit"})  # someone else's

    rooms = host.get("/api/me/rooms").json()["rooms"]
    assert [r["room_id"] for r in rooms] == [running_id, done_id]
    running, done = rooms
    assert running["status"] == "running" and running["url"] == f"/r/{running_id}" and running["ranks"] is None
    assert done["status"] == "finished" and done["players"] == ["Aki", "Ben"] and len(done["ranks"]) == 2
    assert [r["room_id"] for r in guest.get("/api/me/rooms").json()["rooms"]] == [done_id]
    assert Api(server.base_url).get("/api/me/rooms").status_code == 401
    assert host.get("/api/me/rooms", params={"limit": 0}).status_code == 422
