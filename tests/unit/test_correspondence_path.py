"""A correspondence match's deadlines (app/correspondence/path.py), in process on a real migrated
SQLite file with the real action writer and the fake clock: a move stores the deadlines it changes
in its own transaction, and a passed deadline does what the host chose (the bot's move for the late
seat, or the late player loses), logged as one PLATFORM version and committed before memory
changes. The runner's timers are stopped so each deadline is fired by the test itself
(``corr.fire``, what the runner's clock calls)."""

from __future__ import annotations

import asyncio

from app import store
from app.correspondence import records
from app.correspondence.pace import DAY
from app.endings.actions import PLATFORM
from tests.unit.test_hub import database_url, running_hub, started_match  # noqa: F401  (the fixture)

PREDICT_3 = {"type": "predict", "card": 3}


async def stored_deadlines(hub, match_id: str) -> dict[int, float]:
    return (await hub.db.run(records.load, match_id, "r1", [])).deadlines


async def last_entry(hub, match_id: str) -> tuple[int, dict] | None:
    length = await hub.db.run(store.log_length, match_id)
    return await hub.db.run(store.log_entry, match_id, length - 1)


def test_a_move_stores_the_deadlines_it_changes_with_it(database_url):  # noqa: F811
    match_id = started_match(database_url, pace="1d")

    async def scenario():
        async with running_hub(database_url) as hub:
            start = hub.clock.now()
            runner = await hub.attach_match("r1", match_id)
            assert runner.deadlines == {0: start + DAY, 1: start + DAY}
            hub.clock.advance(3600)
            await runner.submit(0, PREDICT_3, 0)
            # Seat 0 decided; seat 1 keeps the deadline it had, in memory and in the database.
            assert runner.deadlines == {1: start + DAY}
            assert await stored_deadlines(hub, match_id) == {1: start + DAY}
            await runner.submit(1, {"type": "predict", "card": 4}, 1)
            (turn,) = runner.awaited
            assert runner.deadlines == {turn: hub.clock.now() + DAY}  # a new decision: a fresh day
            assert await stored_deadlines(hub, match_id) == runner.deadlines

    asyncio.run(scenario())


def test_a_missed_deadline_loses_the_match_when_the_host_chose_so(database_url):  # noqa: F811
    match_id = started_match(database_url, pace="1d", on_deadline="lose")

    async def scenario():
        async with running_hub(database_url) as hub:
            runner = await hub.attach_match("r1", match_id)
            await runner.submit(0, PREDICT_3, 0)
            runner.stop()
            hub.clock.advance(DAY)
            await runner.corr.fire(1, runner.version)
            assert runner.finished and runner.status == "finished"
            outcome = runner.message(None)["outcome"]
            assert outcome["ending"] == "timeout" and outcome["ranks"] == [0, 1]
            seat, action = await last_entry(hub, match_id)
            assert seat == PLATFORM and action["kind"] == "timeout" and action["seat"] == 1
            assert await stored_deadlines(hub, match_id) == {}

    asyncio.run(scenario())


def test_a_missed_deadline_plays_the_bots_move_for_the_late_seat(database_url):  # noqa: F811
    match_id = started_match(database_url, pace="1d", on_deadline="bot")

    async def scenario():
        async with running_hub(database_url) as hub:
            runner = await hub.attach_match("r1", match_id)
            await runner.submit(0, PREDICT_3, 0)
            runner.stop()
            legal = runner.engine.legal_actions(runner.state, 1)
            hub.clock.advance(DAY)
            await runner.corr.fire(1, runner.version)
            assert runner.status == "running" and runner.version == 2
            seat, action = await last_entry(hub, match_id)
            assert seat == PLATFORM and action["platform"] == "deadline" and action["seat"] == 1
            assert action["move"] in legal
            assert runner.awaited == frozenset({runner.state.turn})  # the play phase: the person plays on
            assert set(await stored_deadlines(hub, match_id)) == set(runner.awaited)

    asyncio.run(scenario())


def test_a_deadline_that_has_not_passed_fires_nothing(database_url):  # noqa: F811
    match_id = started_match(database_url, pace="1d", on_deadline="lose")

    async def scenario():
        async with running_hub(database_url) as hub:
            runner = await hub.attach_match("r1", match_id)
            await runner.submit(0, PREDICT_3, 0)
            runner.stop()
            hub.clock.advance(DAY - 1)
            await runner.corr.fire(1, runner.version)
            assert runner.status == "running" and runner.version == 1
            assert await hub.db.run(store.log_length, match_id) == 1

    asyncio.run(scenario())


def test_a_deadline_for_a_version_that_has_passed_fires_nothing(database_url):  # noqa: F811
    """Seat 1 moved after the deadline was found due: its firing (for the old version) does nothing."""
    match_id = started_match(database_url, pace="1d", on_deadline="lose")

    async def scenario():
        async with running_hub(database_url) as hub:
            runner = await hub.attach_match("r1", match_id)
            runner.stop()
            hub.clock.advance(DAY)
            await runner.submit(1, {"type": "predict", "card": 4}, 0)
            runner.stop()
            await runner.corr.fire(0, 0)
            assert runner.status == "running" and runner.version == 1
            assert await hub.db.run(store.log_length, match_id) == 1

    asyncio.run(scenario())
