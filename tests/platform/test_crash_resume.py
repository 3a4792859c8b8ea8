"""SIGKILL the server in the middle of a match, start it again with the README's command, and
finish the match: nothing accepted before the kill is lost, and the state is the replayed one."""

from __future__ import annotations

import random

import pytest

import engines
from tests.support.clients import Api
from tests.support.driver import play_over_rest, play_steps_over_rest, states_by_version, stored_match
from tests.support.server import ServerProcess

pytestmark = pytest.mark.every_database  # tests/conftest.py

ENGINE = engines.get("synomilia")


def without_deadlines(views):
    return {seat: {k: v for k, v in view.items() if k != "deadlines"} for seat, view in views.items()}


def test_killed_server_resumes_the_match(database_url):
    server = ServerProcess(database_url)
    server.start()
    try:
        host = Api.new_player(server.base_url, "Aki")
        guest = Api.new_player(server.base_url, "Ben")
        room_id = host.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}}).json()["id"]
        assert guest.post(f"/api/rooms/{room_id}/join").status_code == 200
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        rng = random.Random(8)
        play_steps_over_rest([host, guest], room_id, rng, 12)
        before = {seat: api.get(f"/api/rooms/{room_id}/view").json() for seat, api in ((0, host), (1, guest))}
        assert before[0]["version"] >= 12

        server.kill()
        server.start()

        after = {seat: api.get(f"/api/rooms/{room_id}/view").json() for seat, api in ((0, host), (1, guest))}
        # Same version, same views, same legal actions, for both seats; clocks restart at full
        # length after a restart (README), so only the awaited seats' deadlines are compared.
        assert without_deadlines(after) == without_deadlines(before)
        assert set(after[0]["deadlines"]) == {str(s) for s in after[0]["awaiting"]}
        play_over_rest({0: host, 1: guest}, room_id, rng)
        room = host.get(f"/api/rooms/{room_id}").json()
        assert room["status"] == "finished"
    finally:
        server.stop()
    match, log = stored_match(database_url, room["match_id"])
    assert ENGINE.state_to_json(states_by_version(match, log)[-1]) == match.state
    assert match.version == len(log)
