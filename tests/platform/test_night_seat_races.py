"""Joining a night seats the caller at its open table, and leaving frees their seat there: both
change that room's seats, so they must wait for a room change under way (a room join or a start
holds the room's row lock), read the seats again and never overwrite a seat someone else just took.

PostgreSQL only: the room join under way is a second connection holding the room's row lock (as
``POST /api/rooms/{id}/join`` does) with its seat written but not committed. SQLite has no row
locks (one writer; in one process the hub's room lock orders the REST changes)."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import create_engine, text

from tests.support.clients import Api
from tests.support.server import start_in_thread

pytestmark = pytest.mark.every_database  # tests/conftest.py


def wait_for_lock_waiter(engine, deadline_seconds: float = 20.0) -> None:
    """Until some other connection waits for a row lock (the night join blocked)."""
    deadline = time.monotonic() + deadline_seconds
    with engine.connect() as connection:
        while time.monotonic() < deadline:
            waiting = connection.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'")).scalar()
            if waiting:
                return
            connection.rollback()
            time.sleep(0.02)
    raise AssertionError("the night join never waited for the room join's lock")


def test_a_night_join_waits_for_a_room_join_under_way_and_takes_another_seat(database_url):
    if not database_url.startswith("postgresql"):
        return  # (module docstring: row locks are PostgreSQL's)
    server = start_in_thread(database_url)
    engine = create_engine(database_url)
    try:
        aya, ben, cai = (Api.new_player(server.base_url, name) for name in ("Aya", "Ben", "Cai"))
        room = aya.post("/api/rooms", {"game": "three_magic"}).json()
        night = aya.post("/api/nights", {"room_id": room["id"]}).json()
        result: dict = {}
        with engine.connect() as other:  # Ben's room join, under way: the room locked, seat 1 written
            other.execute(text("SELECT id FROM rooms WHERE id = :r FOR UPDATE"), {"r": room["id"]})
            other.execute(text("UPDATE room_seats SET player_id = :p WHERE room_id = :r AND seat = 1"),
                          {"p": ben.player_id, "r": room["id"]})

            def join() -> None:
                result["response"] = cai.post(f"/api/nights/{night['id']}/join")

            thread = threading.Thread(target=join, daemon=True)
            thread.start()
            wait_for_lock_waiter(engine)
            other.commit()
        thread.join(30)
        assert result["response"].status_code == 200, result["response"].text
        seats = {s["seat"]: s["player_id"] for s in aya.get(f"/api/rooms/{room['id']}").json()["seats"]}
        assert seats == {0: aya.player_id, 1: ben.player_id, 2: cai.player_id}, seats
    finally:
        engine.dispose()
        server.stop()
