"""The platform's requests (app/live/platform_path.py): resign, abort, decline, claim, sent as
actions through ``submit``, decided with who sits and who is present, logged under the pseudo-seat
PLATFORM as one version of their own and committed before memory changes; a refusal changes
nothing."""

from __future__ import annotations

import asyncio

import pytest

from app.endings.actions import PLATFORM
from app.errors import ApiError
from engines.protocol import SYSTEM
from tests.support.live_parts import InMemoryWriter, RecordingListener, new_runner, turns, until

RESIGN, ABORT, CLAIM = {"platform": "resign"}, {"platform": "abort"}, {"platform": "claim"}


def listened(runner, writer):
    listener = RecordingListener(writer)
    runner.listener = listener
    return listener


async def refused(runner, seat, action, version=None) -> ApiError:
    with pytest.raises(ApiError) as caught:
        await runner.submit(seat, action, version)
    return caught.value


def test_a_resignation_ends_the_match_once_committed():
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer)
        listener = listened(runner, writer)
        submitted = asyncio.ensure_future(runner.submit(1, RESIGN, None))
        await until(lambda: writer.waiting == 1)
        (entry,) = writer.appended[0]
        assert entry.seat == PLATFORM and entry.idx == 0
        assert entry.action["platform"] == "end" and entry.action["kind"] == "resigned" and entry.action["seat"] == 1
        assert entry.outcome is not None and entry.outcome["ranks"] == [0, 1]
        assert entry.snapshot == runner.engine.state_to_json(runner.state) and entry.status == "finished"
        await turns()
        assert not runner.finished and runner.version == 0 and listener.heard == []
        writer.commit_next()
        assert await submitted == 1
        assert runner.finished and runner.status == "finished" and runner.deadlines == {}
        assert [h.kind for h in listener.heard] == ["advanced", "finished"]
        assert runner.message(None)["outcome"]["ending"] == "resigned"
        assert (await refused(runner, 0, {"type": "predict", "card": 3}, 1)).code == "match_over"

    asyncio.run(scenario())


def test_an_abort_needs_every_present_person_and_each_yes_is_a_version():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        assert await runner.submit(0, ABORT, None) == 1
        assert writer.entries()[-1].action == {"platform": "vote", "kind": "abort", "seat": 0}
        assert runner.message(1)["platform"]["abort_votes"] == [0] and not runner.finished
        assert (await refused(runner, 0, ABORT)).code == "already_voted"
        assert await runner.submit(1, ABORT, None) == 2
        last = writer.entries()[-1]
        assert last.action["kind"] == "aborted" and last.status == "aborted"
        assert runner.status == "aborted" and runner.finished

    asyncio.run(scenario())


def test_a_decline_clears_the_open_abort():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        await runner.submit(0, ABORT, None)
        await runner.submit(1, {"platform": "decline", "kind": "abort"}, None)
        view = runner.message(0)["platform"]
        assert view["abort_votes"] == [] and view["declined"] == {"kind": "abort", "seat": 1}
        assert (await refused(runner, 1, {"platform": "decline", "kind": "abort"})).code == "nothing_to_decline"
        assert runner.status == "running" and runner.version == 2

    asyncio.run(scenario())


def test_a_vote_does_not_make_a_move_on_the_version_before_it_stale():
    """Platform votes change nothing on the table: a move answering the version before them is
    still taken; a platform request answers no version at all."""
    async def scenario():
        runner = new_runner()
        await runner.submit(0, ABORT, None)
        assert await runner.submit(0, {"type": "predict", "card": 3}, 0) == 2
        assert await runner.submit(1, {"platform": "decline", "kind": "abort"}, 0) == 3  # stale number, no matter

    asyncio.run(scenario())


def test_the_claim_needs_every_other_player_gone():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        error = await refused(runner, 0, CLAIM)
        assert (error.status, error.code) == (409, "cannot_claim")
        assert writer.appended == [] and runner.version == 0
        runner.bot_seats, runner.zombie_seats = {1}, {1}  # (as the room sets them: Ben's seat is a zombie)
        assert await runner.submit(0, CLAIM, None) == 1
        entry = writer.entries()[-1]
        assert entry.action["kind"] == "claimed" and entry.outcome["ranks"] == [0, 1]
        assert runner.finished and runner.status == "finished"

    asyncio.run(scenario())


def test_a_seat_a_bot_plays_cannot_resign_or_vote():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        runner.bot_seats, runner.zombie_seats = {1}, {1}
        for request in (RESIGN, ABORT):
            assert (await refused(runner, 1, request)).code == "not_present"
        assert writer.appended == [] and runner.version == 0

    asyncio.run(scenario())


@pytest.mark.parametrize("seat", [SYSTEM, PLATFORM, 2, 99])
def test_only_a_seated_player_can_make_a_request(seat):
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        error = await refused(runner, seat, RESIGN)
        assert (error.status, error.code) == (403, "not_seated")
        assert writer.appended == [] and runner.version == 0 and not runner.finished

    asyncio.run(scenario())


@pytest.mark.parametrize("request_", [
    {"platform": "dance"},
    {"platform": "decline"},  # no kind
    {"platform": "decline", "kind": "draw"},
    {"platform": "resign", "extra": 1},
])
def test_a_malformed_request_is_refused_and_changes_nothing(request_):
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        error = await refused(runner, 0, request_)
        assert (error.status, error.code) == (400, "invalid_action")
        assert writer.appended == [] and runner.version == 0

    asyncio.run(scenario())


def test_a_refused_commit_of_a_request_changes_nothing():
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer)
        listener = listened(runner, writer)
        submitted = asyncio.ensure_future(runner.submit(0, RESIGN, None))
        await until(lambda: writer.waiting == 1)
        writer.refuse_next(ApiError(503, "unavailable", "the database is unavailable"))
        with pytest.raises(ApiError):
            await submitted
        assert not runner.finished and runner.status == "running" and runner.version == 0
        assert listener.heard == [] and runner.message(0)["outcome"] is None

    asyncio.run(scenario())


def test_too_many_votes_from_one_seat_are_refused():
    async def scenario():
        runner = new_runner()
        for _ in range(10):  # propose and withdraw, ten times each
            await runner.submit(0, ABORT, None)
            await runner.submit(0, {"platform": "decline", "kind": "abort"}, None)
        version = runner.version
        assert (await refused(runner, 0, ABORT)).code == "too_many_votes"
        assert runner.version == version
        assert await runner.submit(0, RESIGN, None) == version + 1  # an ending is still taken

    asyncio.run(scenario())
