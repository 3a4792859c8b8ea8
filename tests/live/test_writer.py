"""The action writer's other work (``ActionWriter.call``): a short write of its own (a rematch
vote) on the writer's thread and connection, ordered after the actions appended before it, on
real SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from app import store
from app.errors import ApiError
from app.live.writer import ActionWriter
from app.store import LogEntry
from tests.support.databases import database_with_a_match, migrated_database

pytestmark = pytest.mark.every_database  # tests/conftest.py


@pytest.fixture
def database_url(database_kind, tmp_path):
    """A database of its own per test (this folder's other tests share one per module); the kinds
    come from tests/conftest.py's ``pytest_generate_tests``."""
    with migrated_database(database_kind, tmp_path) as url:
        yield url


def log_length(session_factory, match_id: str) -> int:
    with session_factory() as session:
        return store.log_length(session, match_id)


def test_a_call_runs_once_the_actions_appended_before_it_are_committed(database_url):
    """Appended in the same turn of the event loop (so still waiting to be handed to the thread),
    three actions are committed before the call that followed them runs: it reads all three."""
    factory, match_id = database_with_a_match(database_url)
    writer = ActionWriter(factory)
    writer.start()

    async def scenario():
        appended = [writer.append(LogEntry(match_id, idx, idx % 2, {"play": idx})) for idx in range(3)]
        length = await writer.call(log_length, match_id)
        assert all(future.done() and future.exception() is None for future in appended)
        return length

    try:
        assert asyncio.run(scenario()) == 3
    finally:
        writer.close()


def test_a_refused_call_changes_nothing_and_the_writer_goes_on(database_url):
    """What the call raises reaches its caller as is; its transaction is rolled back and the next
    actions commit as usual."""
    factory, match_id = database_with_a_match(database_url)
    writer = ActionWriter(factory)
    writer.start()

    def write_then_refuse(session_factory):
        with session_factory() as session, session.begin():
            store.write_log(session, [LogEntry(match_id, 0, 0, {"play": "refused"})])
            raise ApiError(409, "no_rematch", "refused after writing")

    async def scenario():
        with pytest.raises(ApiError) as refused:
            await writer.call(write_then_refuse)
        assert refused.value.code == "no_rematch"
        await writer.append(LogEntry(match_id, 0, 1, {"play": "kept"}))

    try:
        asyncio.run(scenario())
    finally:
        writer.close()
    with factory() as session:
        assert store.match_log(session, match_id) == [(1, {"play": "kept"})]


def test_only_sqlite_has_the_one_write_lock_that_sends_the_live_paths_writes_to_the_writer(database_url):
    """``Hub.write`` runs a rematch vote on the writer's thread on SQLite only: there it would
    wait for the writer's lock anyway; on PostgreSQL it runs beside the writer's batches."""
    factory, _ = database_with_a_match(database_url)
    assert ActionWriter(factory).one_write_lock is database_url.startswith("sqlite")


def test_a_call_after_the_writer_stopped_is_refused(database_url):
    """After shutdown closed the writer, nothing would run the call: it fails at once (503
    ``shutting_down``), it does not wait forever."""
    factory, match_id = database_with_a_match(database_url)
    writer = ActionWriter(factory)
    writer.start()
    writer.close()

    async def scenario():
        with pytest.raises(ApiError) as refused:
            await asyncio.wait_for(writer.call(log_length, match_id), timeout=5)
        assert (refused.value.status, refused.value.code) == (503, "shutting_down")

    asyncio.run(scenario())
