"""Room leases in Redis and fencing tokens in the database: one owner at a time, and an old owner
that lost its lease cannot commit, even at the same version."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from app import store
from app.cluster import fencing
from app.cluster.lease import Leases
from app.errors import ApiError
from app.live.writer import ActionWriter
from app.models import Match
from app.store import LogEntry
from tests.cluster.helpers import started_buses
from tests.support.databases import database_with_a_match

pytestmark = pytest.mark.every_database  # tests/conftest.py


def test_one_holder_renewals_and_expiry(redis_prefix):
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            # A ttl well above the renewal interval: on a loaded machine a 0.2 s sleep can take longer.
            la, lb = Leases(a, 1.5), Leases(b, 1.5)
            assert await la.acquire("room1")
            assert not await lb.acquire("room1")
            assert await la.acquire("room1")  # already its own
            assert await lb.owner("room1") == a.node_id
            for _ in range(8):  # renewing keeps it past its first ttl
                await asyncio.sleep(0.25)
                assert await la.renew("room1")
            assert not await lb.renew("room1")
            await lb.release("room1")  # not b's: nothing happens
            assert await lb.owner("room1") == a.node_id
            await asyncio.sleep(2.0)  # a stops renewing (paused, partitioned, dead)
            assert await lb.owner("room1") is None
            assert await lb.acquire("room1")
            assert not await la.renew("room1")  # the old owner learns it lost the room
            assert await la.owners(["room1", "room2"]) == {"room1": b.node_id, "room2": None}
            await lb.release("room1")
            assert await la.owner("room1") is None

    asyncio.run(scenario())


def commit_with(factory, match_id, epoch, version):
    with factory() as session, session.begin():
        fencing.check(session, match_id, epoch)
        session.get(Match, match_id).version = version


def test_a_superseded_epoch_cannot_commit_even_at_the_same_version(database_url):
    factory, match_id = database_with_a_match(database_url)
    with factory() as session, session.begin():
        old = fencing.claim(session, match_id, "node-a")
    commit_with(factory, match_id, old, 1)
    with factory() as session, session.begin():
        new = fencing.claim(session, match_id, "node-b")
    assert new == old + 1
    with pytest.raises(ApiError) as refused:  # the paused old owner wakes up at version 1 -> 2
        commit_with(factory, match_id, old, 2)
    assert refused.value.code == "not_owner"
    with factory() as session:
        assert session.get(Match, match_id).version == 1  # nothing of the refused commit
        assert fencing.current(session, match_id) == new
    commit_with(factory, match_id, new, 2)
    with pytest.raises(ApiError):
        commit_with(factory, match_id, 99, 3)  # an epoch nobody claimed


def test_a_claim_waits_for_a_commit_in_flight(postgres_url):
    factory, match_id = database_with_a_match(postgres_url)
    with factory() as session, session.begin():
        old = fencing.claim(session, match_id, "node-a")
    claimed = []
    with factory() as session, session.begin():
        fencing.check(session, match_id, old)  # the old owner's commit is in flight
        session.get(Match, match_id).version = 1

        def takeover():
            with factory() as other, other.begin():
                claimed.append(fencing.claim(other, match_id, "node-b"))

        thread = threading.Thread(target=takeover)
        thread.start()
        time.sleep(0.3)
        assert claimed == []  # waits for the commit's lock
    thread.join(5)
    assert claimed == [old + 1]
    with factory() as session:  # the new owner's reload sees the commit that went first
        assert session.get(Match, match_id).version == 1


def test_a_runner_of_an_older_take_over_by_the_same_process_cannot_commit(database_url):
    """A process that takes its own room over again (after a Redis restart) starts a new runner
    under a new epoch. An entry the old runner still has in the writer's queue carries the old
    epoch and is refused, though the process holds the match when the batch commits; the new
    runner's entry for the same version commits."""
    factory, match_id = database_with_a_match(database_url)
    with factory() as session, session.begin():
        old = fencing.claim(session, match_id, "node-a")
    with factory() as session, session.begin():
        new = fencing.claim(session, match_id, "node-a")
    held = {match_id: new}
    writer = ActionWriter(factory)
    writer.before_commit.append(lambda session, entries: fencing.check_entries(session, entries, held))
    writer.start()

    async def scenario():
        stale = fencing.FencedWriter(writer, old).append(LogEntry(match_id, 0, 0, {"play": "old"}))
        current = fencing.FencedWriter(writer, new).append(LogEntry(match_id, 0, 1, {"play": "new"}))
        results = await asyncio.gather(stale, current, return_exceptions=True)
        assert isinstance(results[0], ApiError) and results[0].code == "not_owner", results
        assert results[1] is None
        held.clear()  # the process gave the match up: even its newest runner is refused
        with pytest.raises(ApiError) as refused:
            await fencing.FencedWriter(writer, new).append(LogEntry(match_id, 1, 0, {"play": "late"}))
        assert refused.value.code == "not_owner"

    try:
        asyncio.run(scenario())
    finally:
        writer.close()
    with factory() as session:
        assert store.log_entry(session, match_id, 0) == (1, {"play": "new"})
        assert store.log_entry(session, match_id, 1) is None
