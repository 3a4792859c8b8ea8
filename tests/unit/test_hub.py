"""The hub (app/live/hub.py) in process, on a real migrated SQLite file with the real action writer
(no server, no socket): a started match runs in its room, an action is in the database before its
view is pushed, a new hub resumes the match where it was, and a second writer's unit for a version
already recorded is refused and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from app import store
from app.clock import FakeClock
from app.db import Database
from app.errors import ApiError
from app.live.hub import Hub
from app.live.writer import ActionWriter
from app.models import Player, Room, RoomSeat
from app.settings import Settings
from tests.support.databases import migrated_database
from tests.support.live_parts import RecordingSocket, turns

PREDICT_3 = {"type": "predict", "card": 3}


@pytest.fixture
def database_url(tmp_path):
    with migrated_database("sqlite", tmp_path) as url:
        yield url


def started_match(database_url: str, pace: str = "live", on_deadline: str = "bot") -> str:
    """Room r1: Aki (p0) and Ben (p1) at a Synomilia table (of ``pace``) whose match has started; its id."""
    database = Database(database_url)
    try:
        with database.session_factory() as session, session.begin():
            session.add_all([Player(id="p0", name="Aki", token_hash="h0"), Player(id="p1", name="Ben", token_hash="h1")])
            session.flush()
            room = Room(id="r1", game="synomilia", options={"reveal_delay": 0, "turn_seconds": 0}, num_seats=2,
                        host_id="p0", status="open", pace=pace, on_deadline=on_deadline)
            session.add(room)
            session.flush()
            session.add_all([RoomSeat(room_id="r1", seat=0, player_id="p0"), RoomSeat(room_id="r1", seat=1, player_id="p1")])
            session.flush()
            return store.start_match(session, room).id
    finally:
        database.close()


@contextlib.asynccontextmanager
async def running_hub(database_url: str):
    settings = Settings(_env_file=None, database_url=database_url, bot_think_seconds=0.0)  # type: ignore[call-arg]
    database = Database(database_url)
    writer = ActionWriter(database.session_factory)
    writer.start()
    hub = Hub(settings, database, writer, FakeClock())
    try:
        yield hub
    finally:
        hub.shutdown()
        writer.close()
        database.close()


def log_length(database_url: str, match_id: str) -> int:
    database = Database(database_url)
    try:
        with database.session_factory() as session:
            return store.log_length(session, match_id)
    finally:
        database.close()


def test_an_action_is_in_the_database_before_its_view_is_pushed(database_url):
    match_id = started_match(database_url)

    async def scenario():
        async with running_hub(database_url) as hub:
            runner = await hub.attach_match("r1", match_id)
            live = await hub.room("r1")
            assert live.runner is runner and runner.listener is live
            logged_when_pushed: list[int] = []

            class Watching(RecordingSocket):
                def send_frame(self, encoded):
                    if encoded.message["type"] == "view":
                        logged_when_pushed.append(log_length(database_url, match_id))
                    super().send_frame(encoded)

            aki, ben = Watching("p0"), RecordingSocket("p1")
            live.join(aki)
            live.join(ben)
            live.push_views()
            assert await runner.submit(0, PREDICT_3, 0) == 1
            assert aki.views()[-1]["version"] == 1 and aki.views()[-1]["view"]["my_prediction"] == 3
            assert ben.views()[-1]["view"]["my_prediction"] is None
            assert logged_when_pushed == [0, 1]  # the start's view, then version 1 once logged

    asyncio.run(scenario())


def test_a_new_hub_resumes_the_match_where_it_was(database_url):
    match_id = started_match(database_url)

    async def scenario():
        async with running_hub(database_url) as hub:
            runner = await hub.attach_match("r1", match_id)
            await runner.submit(0, PREDICT_3, 0)
            await runner.submit(1, {"type": "predict", "card": 4}, 1)
            before = {seat: runner.message(seat) for seat in (0, 1, None)}
        async with running_hub(database_url) as hub:  # (a restart)
            live = await hub.room("r1")
            assert live.runner is not None and live.runner.match_id == match_id and live.runner.version == 2
            for seat, message in before.items():
                assert live.runner.message(seat) == message

    asyncio.run(scenario())


def test_a_second_writers_unit_for_a_recorded_version_is_refused_and_changes_nothing(database_url):
    """Two hubs run the same match (as after a split): the first records version 0 -> 1; the
    second's move for version 0 is refused by the database (stale) and its runner stays at 0."""
    match_id = started_match(database_url)

    async def scenario():
        async with running_hub(database_url) as first, running_hub(database_url) as second:
            one = await first.attach_match("r1", match_id)
            other = await second.attach_match("r1", match_id)
            watcher = RecordingSocket("p1")
            (await second.room("r1")).join(watcher)
            await one.submit(0, PREDICT_3, 0)
            seen = len(watcher.views())
            with pytest.raises(ApiError) as caught:
                await other.submit(0, {"type": "predict", "card": 7}, 0)
            assert caught.value.code == "stale_version"
            assert other.version == 0 and other.awaited == frozenset({0, 1})
            await turns()
            assert len(watcher.views()) == seen
        assert log_length(database_url, match_id) == 1

    asyncio.run(scenario())


def test_an_unknown_room_is_a_404_and_leaves_nothing_loaded(database_url):
    async def scenario():
        async with running_hub(database_url) as hub:
            with pytest.raises(ApiError) as caught:
                await hub.room("no-such-room")
            assert caught.value.status == 404
            assert hub.rooms == {}

    asyncio.run(scenario())


def test_a_room_nobody_watches_whose_match_is_over_is_forgotten(database_url):
    match_id = started_match(database_url)

    async def scenario():
        async with running_hub(database_url) as hub:
            runner = await hub.attach_match("r1", match_id)
            socket = RecordingSocket("p0")
            (await hub.room("r1")).join(socket)
            hub.forget_if_idle("r1")
            assert "r1" in hub.rooms  # running, and watched
            await runner.submit(1, {"platform": "resign"}, None)
            hub.forget_if_idle("r1")
            assert "r1" in hub.rooms  # over, but watched
            hub.rooms["r1"].leave(socket)
            hub.forget_if_idle("r1")
            assert "r1" not in hub.rooms and runner.listener is None

    asyncio.run(scenario())
