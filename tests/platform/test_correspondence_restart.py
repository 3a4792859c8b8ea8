"""A correspondence deadline survives kill -9 of a real server process (``python -m app``, the
system clock): after a restart the views carry the same deadlines as before (not restarted at
full length, as a live table's clocks are), and a deadline that passed while no process ran fires
the host's choice exactly once when the server comes back, and never again after another kill -9."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, update
from sqlalchemy.orm import Session

from app.endings import actions as platform
from app.models import MatchDeadline
from tests.platform.test_correspondence import stored_deadlines, wait_view
from tests.support.clients import Api
from tests.support.driver import stored_match
from tests.support.server import ServerProcess

pytestmark = pytest.mark.every_database  # tests/conftest.py


def move_deadline(database_url: str, match_id: str, seat: int, due: float) -> None:
    """As if the days passed while no server ran: the stored deadline is now in the past."""
    db = create_engine(database_url)
    with Session(db) as session, session.begin():
        session.execute(update(MatchDeadline).where(MatchDeadline.match_id == match_id, MatchDeadline.seat == seat)
                        .values(due_at=due))
    db.dispose()


def fired(database_url: str, match_id: str) -> list[dict]:
    return [action for seat, action in stored_match(database_url, match_id)[1] if seat == platform.PLATFORM]


def test_deadlines_survive_kill_9_and_fire_once(database_url):
    server = ServerProcess(database_url)
    server.start()
    try:
        aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
        room = aki.post("/api/rooms", {"game": "synomilia", "pace": "1d", "on_deadline": "bot"}).json()
        assert ben.post(f"/api/rooms/{room['id']}/join").status_code == 200
        match_id = aki.post(f"/api/rooms/{room['id']}/start").json()["match_id"]
        first = aki.get(f"/api/rooms/{room['id']}/view").json()
        assert set(first["awaiting"]) == {0, 1}
        action = first["legal_actions"][0]
        assert aki.post(f"/api/rooms/{room['id']}/actions", {"action": action, "version": 0}).status_code == 200
        before = aki.get(f"/api/rooms/{room['id']}/view").json()
        assert before["awaiting"] == [1] and set(before["deadlines"]) == {"1"}
        assert {s: int(due * 1000) for s, due in stored_deadlines(database_url, match_id).items()} == {1: before["deadlines"]["1"]}

        server.kill()
        server.start()
        after = aki.get(f"/api/rooms/{room['id']}/view").json()
        assert after["deadlines"] == before["deadlines"]  # the same deadline, a day from Ben's turn

        server.kill()
        move_deadline(database_url, match_id, 1, time.time() - 60)  # the day passed while it was down
        server.start()
        moved = wait_view(aki, room["id"], lambda v: v["version"] > before["version"])
        assert [(a["platform"], a["seat"]) for a in fired(database_url, match_id)] == [("deadline", 1)]
        room_now = aki.get(f"/api/rooms/{room['id']}").json()
        assert room_now["status"] == "running" and not any(s["zombie"] for s in room_now["seats"])

        server.kill()
        server.start()
        again = aki.get(f"/api/rooms/{room['id']}/view").json()
        assert again["version"] >= moved["version"]
        # The next decisions' deadlines are a whole day away: nothing more fires.
        for ms in again["deadlines"].values():
            assert ms / 1000 > time.time() + 86_400 - 600
        assert len(fired(database_url, match_id)) == 1
    finally:
        server.stop()
