"""The runner's apply path (app/live/runner.py), in process: an action is checked, applied by the
engine with the SYSTEM steps it makes due at once, appended to the writer, and only once the
writer's future resolves (the commit) does the version advance and the listener hear of it. A
refusal (stale version, wrong seat, bad action, a refused commit) changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from app.clock import FakeClock
from app.errors import ApiError
from engines.protocol import SYSTEM
from tests.support.live_parts import Heard, InMemoryWriter, RecordingListener, new_runner, turns, until

PREDICT_3 = {"type": "predict", "card": 3}
PREDICT_4 = {"type": "predict", "card": 4}
PASS = {"type": "pass"}


def listened(runner, writer: InMemoryWriter) -> RecordingListener:
    listener = RecordingListener(writer, start=runner.version)
    runner.listener = listener
    return listener


async def refused(runner, seat, action, version) -> ApiError:
    with pytest.raises(ApiError) as caught:
        await runner.submit(seat, action, version)
    return caught.value


def test_an_action_is_committed_before_the_version_advances_and_the_listener_hears_of_it():
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer)
        listener = listened(runner, writer)
        submitted = asyncio.ensure_future(runner.submit(0, PREDICT_3, 0))
        await until(lambda: writer.waiting == 1)
        (entry,) = writer.appended[0]
        assert (entry.match_id, entry.idx, entry.seat, entry.action) == ("m1", 0, 0, PREDICT_3)
        # Appended, not committed: memory and every view still show version 0.
        await turns()
        assert not submitted.done() and runner.version == 0 and listener.heard == []
        assert runner.awaited == frozenset({0, 1}) and runner.current(0).message["version"] == 0
        writer.commit_next()
        assert await submitted == 1
        assert runner.version == 1 and runner.awaited == frozenset({1})
        assert listener.versions() == [1] and listener.heard[0].committed_through == 1
        assert runner.current(0).message["view"]["my_prediction"] == 3

    asyncio.run(scenario())


def test_a_commit_that_never_comes_advances_nothing_and_tells_nobody():
    """The writer's future does not resolve: the runner must wait for it (a runner that advanced
    on ``append`` alone would show an action the database may never hold)."""
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer)
        listener = listened(runner, writer)
        submitted = asyncio.ensure_future(runner.submit(0, PREDICT_3, 0))
        await until(lambda: writer.waiting == 1)
        await turns(200)
        assert not submitted.done()
        assert runner.version == 0 and listener.heard == []
        assert runner.current(0).message["version"] == 0 and runner.current(0).message["view"]["my_prediction"] is None
        assert runner.awaited == frozenset({0, 1})
        # The commit is finally refused: the caller gets the refusal and nothing changed.
        writer.refuse_next(ApiError(503, "unavailable", "the database is unavailable"))
        with pytest.raises(ApiError) as caught:
            await submitted
        assert caught.value.code == "unavailable"
        assert runner.version == 0 and listener.heard == [] and writer.committed == []

    asyncio.run(scenario())


def test_the_listener_is_told_of_each_version_only_after_its_commit():
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer, options={"reveal_delay": 0})
        listener = listened(runner, writer)
        moves = [(0, PREDICT_3), (1, PREDICT_4), (0, PASS), (1, PASS)]
        for seat, action in moves:
            submitted = asyncio.ensure_future(runner.submit(seat, action, runner.version))
            await until(lambda: writer.waiting == 1)
            told = len(listener.heard)
            await turns()
            assert len(listener.heard) == told, "told before the commit"
            writer.commit_next()
            await submitted
        assert listener.heard, "told of nothing"
        assert all(h.version <= h.committed_through for h in listener.heard), listener.heard
        assert listener.versions() == list(range(1, runner.version + 1))

    asyncio.run(scenario())


def test_a_stale_version_is_refused_and_changes_nothing():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        listener = listened(runner, writer)
        assert await runner.submit(0, PREDICT_3, 0) == 1
        before = runner.current(1).message
        error = await refused(runner, 1, PREDICT_4, 0)  # answers version 0; the match is at 1
        assert (error.status, error.code) == (409, "stale_version")
        ahead = await refused(runner, 1, PREDICT_4, 7)  # a version that does not exist yet
        assert ahead.code == "stale_version"
        assert runner.version == 1 and len(writer.appended) == 1 and listener.versions() == [1]
        assert runner.current(1).message == before

    asyncio.run(scenario())


def test_without_a_version_the_action_is_applied_at_the_current_one():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        assert await runner.submit(0, PREDICT_3, None) == 1
        assert await runner.submit(1, PREDICT_4, None) == 2
        assert [e.idx for e in writer.entries()] == [0, 1]

    asyncio.run(scenario())


def test_a_seat_that_is_not_awaited_is_refused_and_changes_nothing():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        await runner.submit(0, PREDICT_3, 0)
        error = await refused(runner, 0, PREDICT_4, 1)  # seat 0 predicted already: only seat 1 is awaited
        assert (error.status, error.code) == (409, "not_your_turn")
        outside = await refused(runner, 5, PREDICT_4, 1)  # no such seat
        assert outside.code == "not_your_turn"
        assert runner.version == 1 and runner.awaited == frozenset({1}) and len(writer.appended) == 1

    asyncio.run(scenario())


@pytest.mark.parametrize(("action", "status", "code"), [
    ({"type": "stack", "face": "sun"}, 422, "illegal_action"),  # a move of the play phase while predicting
    ({"type": "pass"}, 422, "illegal_action"),  # no turns are played while predicting
    ({"type": "predict", "card": 10}, 400, "invalid_action"),  # no such card
    ({"type": "predict"}, 400, "invalid_action"),  # a field missing
    ({"type": "dance"}, 400, "invalid_action"),  # no such move
    ("predict 3", 400, "invalid_action"),  # not a JSON object
    ([1, 2], 400, "invalid_action"),
])
def test_an_illegal_or_malformed_action_is_refused_and_changes_nothing(action, status, code):
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        listener = listened(runner, writer)
        state, view = runner.state, runner.current(0).message
        error = await refused(runner, 0, action, 0)
        assert (error.status, error.code) == (status, code)
        assert runner.state is state and runner.version == 0 and runner.current(0).message == view
        assert writer.appended == [] and listener.heard == []
        assert await runner.submit(0, PREDICT_3, 0) == 1  # and the seat may still move

    asyncio.run(scenario())


def test_a_refused_commit_is_the_callers_refusal_and_changes_nothing():
    """The writer refuses the unit (another writer recorded this version first): the runner stays
    where it was and the same move at the same version can be sent again."""
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer)
        listener = listened(runner, writer)
        submitted = asyncio.ensure_future(runner.submit(0, PREDICT_3, 0))
        await until(lambda: writer.waiting == 1)
        writer.refuse_next(ApiError(409, "stale_version", "another action was recorded for this version first"))
        with pytest.raises(ApiError) as caught:
            await submitted
        assert caught.value.code == "stale_version"
        assert runner.version == 0 and runner.awaited == frozenset({0, 1}) and listener.heard == []
        again = asyncio.ensure_future(runner.submit(0, PREDICT_3, 0))
        await until(lambda: writer.waiting == 1)
        writer.commit_next()
        assert await again == 1

    asyncio.run(scenario())


def test_system_steps_due_at_once_are_committed_with_the_action_that_made_them_due():
    """Two passes end the bout; with no reveal delay the SYSTEM reveal is due at once: it is in the
    same unit as the pass (one commit), each step with its own version and its own notice."""
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer, options={"reveal_delay": 0})
        listener = listened(runner, writer)
        for seat, action in [(0, PREDICT_3), (1, PREDICT_4), (0, PASS)]:
            submitted = asyncio.ensure_future(runner.submit(seat, action, runner.version))
            await until(lambda: writer.waiting == 1)
            writer.commit_next()
            await submitted
        assert runner.version == 3 and runner.awaited == frozenset({1})
        last = asyncio.ensure_future(runner.submit(1, PASS, 3))
        await until(lambda: writer.waiting == 1)
        unit = writer.appended[-1]
        assert [(e.idx, e.seat, e.action) for e in unit] == [(3, 1, PASS), (4, SYSTEM, {"type": "reveal"})]
        await turns()
        assert runner.version == 3 and listener.versions() == [1, 2, 3]
        writer.commit_next()
        assert await last == 5
        assert listener.versions() == [1, 2, 3, 4, 5]
        assert runner.awaited == frozenset({0, 1})  # the next bout's predictions
        assert runner.current(None).message["view"]["last_bout"] is not None

    asyncio.run(scenario())


def test_a_delayed_system_step_is_not_applied_with_the_action():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, options={"reveal_delay": 3})
        for seat, action in [(0, PREDICT_3), (1, PREDICT_4), (0, PASS), (1, PASS)]:
            await runner.submit(seat, action, runner.version)
        assert [len(unit) for unit in writer.appended] == [1, 1, 1, 1]
        assert runner.version == 4 and runner.awaited == frozenset({SYSTEM})
        # Nobody may act for the SYSTEM step.
        error = await refused(runner, 0, {"type": "reveal"}, 4)
        assert error.code == "not_your_turn"
        runner.stop()

    asyncio.run(scenario())


def test_snapshots_are_written_every_snapshot_every_versions():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, snapshot_every=2)
        await runner.submit(0, PREDICT_3, 0)
        await runner.submit(1, PREDICT_4, 1)
        first, second = writer.entries()
        assert first.snapshot is None and first.outcome is None
        assert second.snapshot == runner.engine.state_to_json(runner.state)

    asyncio.run(scenario())


def test_two_moves_racing_for_the_same_version_are_applied_one_at_a_time():
    """Both seats predict against version 0 at once: the first committed takes the match to
    version 1, the second is then stale, and exactly one unit was appended for it."""
    async def scenario():
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer)
        first = asyncio.ensure_future(runner.submit(0, PREDICT_3, 0))
        second = asyncio.ensure_future(runner.submit(1, PREDICT_4, 0))
        await until(lambda: writer.waiting == 1)
        await turns()
        assert writer.waiting == 1 and not second.done()  # held behind the first one's commit
        writer.commit_next()
        assert await first == 1
        with pytest.raises(ApiError) as caught:
            await second
        assert caught.value.code == "stale_version"
        assert len(writer.appended) == 1 and runner.version == 1

    asyncio.run(scenario())


def test_a_draining_runner_refuses_new_actions():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer)
        runner.closing = True
        error = await refused(runner, 0, PREDICT_3, 0)
        assert (error.status, error.code) == (503, "shutting_down")
        assert writer.appended == [] and runner.version == 0

    asyncio.run(scenario())


def test_an_aborted_match_takes_no_more_actions():
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, status="aborted")
        error = await refused(runner, 0, PREDICT_3, 0)
        assert (error.status, error.code) == (409, "match_over")
        assert writer.appended == []

    asyncio.run(scenario())


def test_the_action_that_ends_the_match_carries_its_outcome_and_snapshot():
    """Played to its end by always taking the first legal move: the last unit holds the outcome
    and the snapshot, the listener hears ``finished`` once, and later actions are refused."""
    async def scenario():
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, options={"reveal_delay": 0})
        listener = listened(runner, writer)
        for _ in range(2000):
            if runner.finished:
                break
            seat = min(s for s in runner.awaited if s >= 0)
            await runner.submit(seat, runner.engine.legal_actions(runner.state, seat)[0], runner.version)
        assert runner.finished
        last = writer.entries()[-1]
        assert last.outcome == runner.engine.outcome(runner.state) and last.outcome is not None
        assert last.snapshot == runner.engine.state_to_json(runner.state)
        assert [h.kind for h in listener.heard].count("finished") == 1
        assert listener.heard[-1] == Heard("finished", runner.version, runner.version)
        error = await refused(runner, 0, PASS, runner.version)
        assert error.code == "match_over"
        runner.stop()

    asyncio.run(scenario())


def test_a_bots_move_goes_through_the_same_path_after_its_think_time():
    """A bot seat moves once its think time has passed on the clock, through ``submit``: appended,
    and seen only after its commit."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer, clock=clock)
        listener = listened(runner, writer)
        runner.bot_seats, runner.bot_think_seconds = {1}, 2.0
        runner.reschedule()
        assert clock.advance(1.5) == 0  # still thinking
        await turns()
        assert writer.appended == []
        assert clock.advance(0.5) == 1
        await until(lambda: writer.waiting == 1)
        (entry,) = writer.appended[0]
        assert entry.seat == 1 and entry.idx == 0
        assert entry.action in runner.engine.legal_actions(runner.state, 1)
        await turns()
        assert runner.version == 0 and listener.heard == []
        writer.commit_next()
        await until(lambda: runner.version == 1)
        assert runner.awaited == frozenset({0}) and listener.versions() == [1]
        runner.stop()

    asyncio.run(scenario())


def test_a_bots_move_for_a_version_that_has_passed_is_dropped():
    """The person moves while the bot thinks: the bot's pending move (for version 0) is cancelled
    and it thinks again for the new version, so only one move of the bot is logged."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock)
        runner.bot_seats, runner.bot_think_seconds = {1}, 2.0
        runner.reschedule()
        clock.advance(1.0)
        await runner.submit(0, PREDICT_3, 0)
        assert clock.advance(1.0) == 0  # the first think (due now) was cancelled with its version
        await turns()
        assert [e.seat for e in writer.entries()] == [0]
        assert clock.advance(1.0) == 1  # the new think, started at version 1
        await until(lambda: runner.version == 2)
        assert [(e.idx, e.seat) for e in writer.entries()] == [(0, 0), (1, 1)]
        runner.stop()

    asyncio.run(scenario())


def test_bots_alone_at_an_unattended_table_wait():
    """Every seat a bot's and no person at the table: the bots do not play by themselves."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock)
        runner.bot_seats, runner.bot_think_seconds, runner.unattended = {0, 1}, 1.0, True
        runner.reschedule()
        clock.advance(5.0)
        await turns()
        assert writer.appended == [] and runner.version == 0
        runner.stop()

    asyncio.run(scenario())
