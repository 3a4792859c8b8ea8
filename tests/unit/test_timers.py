"""The steps nobody types (app/live/timers.py) on the fake clock: a seat's clock running out
applies the engine's timeout move (as the pseudo-seat SYSTEM, -1, when it is a server-only action;
as the seat itself when it is one of its legal moves), a delayed SYSTEM step waits for its delay,
and a table nobody sits at any more is aborted after its wait. Each goes through the runner's own
apply path: appended, committed, then seen."""

from __future__ import annotations

import asyncio
import logging

from app.clock import FakeClock
from app.errors import ApiError
from app.endings.actions import PLATFORM
from app.live.timers import UNATTENDED_END_SECONDS
from engines.protocol import SYSTEM
from tests.support.live_parts import InMemoryWriter, RecordingListener, new_runner, turns, until

PREDICT_3 = {"type": "predict", "card": 3}
PASS = {"type": "pass"}


async def started(runner) -> None:
    """As the hub starts a match: its clocks, then its steps (whose tasks then reach their sleep)."""
    runner.start_clocks()
    runner.reschedule()
    await turns()


def test_a_clock_running_out_applies_the_timeout_as_system_through_the_same_path():
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 30})
        listener = RecordingListener(writer)
        runner.listener = listener
        await started(runner)
        assert runner.deadlines == {0: clock.now() + 30, 1: clock.now() + 30}
        assert clock.advance(29.9) == 0
        await turns()
        assert writer.appended == []
        assert clock.advance(0.1) == 1
        await until(lambda: writer.waiting == 1)
        (entry,) = writer.appended[0]
        assert (entry.seat, entry.action, entry.idx) == (SYSTEM, {"type": "timeout", "seat": 0}, 0)
        await turns()
        assert runner.version == 0 and listener.heard == []  # not seen before its commit
        writer.commit_next()
        await until(lambda: runner.version == 1)
        assert listener.versions() == [1]
        # Seat 1's clock ran out at the same time: its timeout follows, as the next version.
        await until(lambda: writer.waiting == 1)
        (second,) = writer.appended[1]
        assert (second.seat, second.action, second.idx) == (SYSTEM, {"type": "timeout", "seat": 1}, 1)
        writer.commit_next()
        await until(lambda: runner.version == 2)
        assert runner.state.phase == "play"  # both predictions were made for them
        runner.stop()

    asyncio.run(scenario())


def test_a_timeout_that_is_a_legal_move_is_applied_as_the_seat_itself():
    """Mipolin's timeout is an ordinary move (pass, the lowest bid...): logged as the late seat."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner("mipolin", {"turn_seconds": 60}, num_players=3, writer=writer, clock=clock)
        await started(runner)
        (late,) = runner.awaited
        expected = runner.engine.on_timeout(runner.state, late)
        assert expected in runner.engine.legal_actions(runner.state, late)
        assert clock.advance(60) == 1
        await until(lambda: runner.version == 1)
        (entry,) = writer.entries()
        assert (entry.seat, entry.action) == (late, expected)
        runner.stop()

    asyncio.run(scenario())


def test_a_move_in_time_keeps_the_other_seats_running_clock():
    """Aki predicts after 10 s: Ben's clock, started with hers, still runs out at 30 s, not 40."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 30})
        await started(runner)
        start = clock.now()
        clock.advance(10)
        await turns()
        await runner.submit(0, PREDICT_3, 0)
        assert runner.deadlines == {1: start + 30}
        assert runner.message(1)["deadlines"] == {"1": int((start + 30) * 1000)}
        assert clock.advance(19.9) == 0
        assert clock.advance(0.1) == 1
        await until(lambda: runner.version == 2)
        assert writer.entries()[-1].action == {"type": "timeout", "seat": 1}
        runner.stop()

    asyncio.run(scenario())


def test_the_acting_seats_clock_starts_afresh_on_its_next_turn():
    async def scenario():
        clock = FakeClock()
        runner = new_runner(clock=clock, options={"turn_seconds": 30, "reveal_delay": 0})
        await started(runner)
        await runner.submit(0, PREDICT_3, 0)
        await runner.submit(1, {"type": "predict", "card": 4}, 1)
        clock.advance(12)
        await turns()
        turn = runner.state.turn
        await runner.submit(turn, PASS, 2)
        (other,) = runner.awaited
        assert runner.deadlines == {other: clock.now() + 30}
        runner.stop()

    asyncio.run(scenario())


def test_a_delayed_system_step_waits_for_its_delay_on_the_clock():
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock, options={"reveal_delay": 3, "turn_seconds": 0})
        listener = RecordingListener(writer)
        runner.listener = listener
        for seat, action in [(0, PREDICT_3), (1, {"type": "predict", "card": 4}), (0, PASS), (1, PASS)]:
            await runner.submit(seat, action, runner.version)
        assert runner.awaited == frozenset({SYSTEM}) and runner.version == 4
        assert clock.advance(2.9) == 0
        await turns()
        assert runner.version == 4
        assert clock.advance(0.1) == 1
        await until(lambda: runner.version == 5)
        entry = writer.entries()[-1]
        assert (entry.seat, entry.action, entry.idx) == (SYSTEM, {"type": "reveal"}, 4)
        assert listener.versions() == [1, 2, 3, 4, 5]
        assert runner.awaited == frozenset({0, 1})
        runner.stop()

    asyncio.run(scenario())


def test_without_a_clock_nothing_is_scheduled():
    async def scenario():
        clock = FakeClock()
        runner = new_runner(clock=clock, options={"turn_seconds": 0})
        await started(runner)
        await turns()
        assert runner.deadlines == {} and clock.pending() == 0
        assert runner.message(0)["deadlines"] == {}

    asyncio.run(scenario())


def test_a_stopped_match_runs_no_timer():
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 30})
        await started(runner)
        await turns()
        runner.stop()
        await turns()
        assert clock.advance(60) == 0
        await turns()
        assert writer.appended == [] and runner.version == 0

    asyncio.run(scenario())


def test_a_timeout_refused_by_a_commit_leaves_the_match_where_it_was():
    """The timeout's commit is refused (the database is down): nothing advances, and the clock
    does not try that seat again (no loop of refused timeouts)."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 30})
        await started(runner)
        await runner.submit(0, PREDICT_3, 0)
        await runner.submit(1, {"type": "predict", "card": 4}, 1)
        (late,) = runner.awaited  # the play phase: one seat's turn
        writer.auto = False
        await turns()
        clock.advance(30)
        await until(lambda: writer.waiting == 1)
        assert writer.appended[-1][0].action == {"type": "timeout", "seat": late}
        writer.refuse_next(ApiError(503, "unavailable", "the database is unavailable"))
        await turns()
        assert runner.version == 2 and runner.awaited == frozenset({late})
        assert writer.waiting == 0 and clock.pending() == 0  # not tried again, nothing armed
        clock.advance(60)
        await turns()
        assert writer.waiting == 0 and len(writer.appended) == 3
        runner.stop()

    asyncio.run(scenario())


def test_a_table_nobody_sits_at_is_aborted_after_its_wait():
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 0})
        listener = RecordingListener(writer)
        runner.listener = listener
        runner.bot_seats, runner.unattended, runner.bot_think_seconds = {0, 1}, True, 0.5
        await started(runner)
        assert clock.advance(UNATTENDED_END_SECONDS - 1) == 0
        await turns()
        assert writer.appended == []  # its bots waited
        assert clock.advance(1) == 1
        await until(lambda: runner.status == "aborted")
        (entry,) = writer.entries()
        assert entry.seat == PLATFORM and entry.action["kind"] == "aborted"
        assert entry.outcome is not None and entry.outcome["ending"] == "unattended" and entry.status == "aborted"
        assert runner.finished and [h.kind for h in listener.heard] == ["advanced", "finished"]

    asyncio.run(scenario())


def test_a_person_coming_back_before_the_wait_ends_keeps_the_match():
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 0})
        runner.bot_seats, runner.unattended = {0, 1}, True
        await started(runner)
        clock.advance(UNATTENDED_END_SECONDS / 2)
        runner.bot_seats, runner.unattended = {1}, False  # (as the room sets them: Aki is back)
        runner.reschedule()
        clock.advance(UNATTENDED_END_SECONDS)
        await turns()
        assert runner.status == "running"
        assert all(entry.seat != PLATFORM for entry in writer.entries())
        runner.stop()

    asyncio.run(scenario())


def test_a_person_arriving_while_the_abort_is_written_is_too_late_and_the_abort_finishes(caplog):
    """The unattended abort is decided under the runner's lock at its append (nobody there then);
    a person who joins while it is being committed cannot un-commit it: the match ends aborted,
    and the reschedule their arrival makes does not cut the abort's own path short (its line)."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter(auto=False)
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 0})
        runner.bot_seats, runner.unattended, runner.bot_think_seconds = {0, 1}, True, 0.5
        await started(runner)
        clock.advance(UNATTENDED_END_SECONDS)
        await until(lambda: writer.waiting == 1)  # the abort is being written
        runner.bot_seats, runner.unattended = {1}, False  # (as the room sets them: Aki joins now)
        runner.reschedule()
        await turns()
        writer.commit_next()
        await until(lambda: runner.status == "aborted")
        await turns()
        (entry,) = writer.entries()
        assert entry.seat == PLATFORM and entry.outcome is not None and entry.outcome["ending"] == "unattended"
        assert len(writer.appended) == 1  # no bot move was made for the aborted match
        clock.advance(60)
        await turns()
        assert len(writer.appended) == 1
        runner.stop()

    with caplog.at_level(logging.INFO, logger="asobiba.runner"):
        asyncio.run(scenario())
    assert [r.getMessage() for r in caplog.records].count("unattended match aborted") == 1


def test_answering_a_proposal_does_not_run_the_move_clock():
    """A seat with a 10 s clock; an abort proposed at t=2 and declined at t=15: no clock ran out,
    the views showed no deadline while the proposal was open, and afterwards each seat has what it
    had left (8 s), its clock then running out as before."""
    async def scenario():
        clock = FakeClock()
        writer = InMemoryWriter()
        runner = new_runner(writer=writer, clock=clock, options={"turn_seconds": 10})
        await started(runner)
        start = clock.now()
        assert runner.deadlines == {0: start + 10, 1: start + 10}
        clock.advance(2)
        await runner.submit(0, {"platform": "abort"}, runner.version)
        assert runner.message(1)["deadlines"] == {}  # paused: nothing counts down
        clock.advance(13)
        await turns()
        assert [entry.seat for entry in writer.entries()] == [PLATFORM]  # no timeout meanwhile
        await runner.submit(1, {"platform": "decline", "kind": "abort"}, runner.version)
        assert runner.deadlines == {0: clock.now() + 8, 1: clock.now() + 8}
        assert runner.message(1)["deadlines"] == {"0": int((clock.now() + 8) * 1000), "1": int((clock.now() + 8) * 1000)}
        clock.advance(7.9)
        await turns()
        assert len(writer.entries()) == 2
        clock.advance(0.1)
        await until(lambda: len(writer.entries()) == 3)
        assert (writer.entries()[2].seat, writer.entries()[2].action) == (SYSTEM, {"type": "timeout", "seat": 0})
        runner.stop()

    asyncio.run(scenario())
