"""The steps of a match nobody types, for one runner: SYSTEM steps after their delay, bots
thinking, and the seats' clocks (a timeout action when one runs out).

Composed by ``MatchRunner``: the runner calls ``reschedule`` after each committed version and
``deadlines_after`` when the awaited seats change; the timers submit through the runner's own
apply path (``submit``), so an automatic step is checked, committed and pushed like any action."""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from concurrent.futures import Executor
from typing import Any, Protocol

from app.endings import actions as platform
from app.errors import ApiError
from app.observability import metrics
from engines.protocol import SYSTEM, Engine

log = logging.getLogger("asobiba.runner")

# Refusals an automatic step expects (the match moved on meanwhile): not worth a warning.
EXPECTED_REFUSALS = ("stale_version", "match_over", "not_your_turn", "shutting_down")


def step_delay(engine, state) -> float:
    """How long the SYSTEM step the state awaits waits (a delayed reveal), in seconds."""
    return float(engine.delay(state))


# A live table at which no person is (no seated player connected, by socket or stream, or calling
# over REST: app/live/attendance.py; or every seat a bot's, the host's bots and bots playing for
# everyone who left or went away) does not play by itself for nobody, which would also let anyone
# burn the server's bot threads with tables of bots: its bots wait for a person to come (back), and
# after this long the match is aborted ("unattended"; unrated). A match loaded at a restart with
# nobody at it waits and ends the same way. A correspondence table is attended by its seats alone
# (nobody stays connected for days): only one of bots alone waits.
UNATTENDED_END_SECONDS = 600.0

# Automatic steps applied with the action that made them due at once (a bound, not a rule: no
# game chains more than a couple).
MAX_IMMEDIATE_STEPS = 16


def immediate_steps(engine, state, match_id: str) -> list[tuple[int, dict, object]]:
    """The SYSTEM steps due at once after ``state`` (no delay: a reveal with ``reveal_delay``
    0), applied now with the action that made them due and committed in its transaction, so
    they cost no timer task, lock or commit of their own. Each still has its own version in
    the log and its own views. A step the engine refuses is left to the timer path."""
    steps: list[tuple[int, dict, Any]] = []
    while (len(steps) < MAX_IMMEDIATE_STEPS and SYSTEM in engine.awaiting(state)
           and step_delay(engine, state) <= 0):
        try:
            step = engine.legal_actions(state, SYSTEM)[0]
            state = engine.apply(state, SYSTEM, step)
        except Exception:
            log.exception("engine %s failed on an automatic step in match %s", engine.id, match_id)
            break
        steps.append((SYSTEM, step, state))
    return steps


async def _submit_quietly(runner: Timed, seat: int, action: dict, version: int) -> None:
    """Submit an automatic step (a timeout, a delayed step, a bot move); a refusal is logged, never raised."""
    try:
        await runner.submit(seat, action, version)
    except ApiError as exc:
        if exc.code not in EXPECTED_REFUSALS:
            log.warning("automatic action for seat %s refused in match %s: %s", seat, runner.match_id,
                        exc.message)
    except Exception:
        log.exception("automatic action failed in match %s", runner.match_id)


class Timed(Protocol):
    """What the timers read of their runner (``MatchRunner``)."""

    match_id: str
    engine: Engine
    seed: int
    state: Any
    version: int
    awaited: frozenset[int]
    shown: frozenset[int]
    bot_seats: set[int]
    bot_think_seconds: float
    unattended: bool
    bot_threads: Executor | None
    closing: bool
    corr: Any  # app/correspondence/path.py, or None
    table: platform.Table  # the open proposals (app/endings): while one is open the clocks pause

    lock: asyncio.Lock
    platform: Any  # app/live/platform_path.py: ``record`` logs a platform action (the runner's lock held)
    status: str

    @property
    def finished(self) -> bool: ...

    def bot_policy(self, seat: int): ...
    async def submit(self, seat: int, action, version: int | None) -> int: ...


class MatchTimers:
    def __init__(self, runner: Timed, clock):
        # Weakly, as ``MatchViews`` holds it (no reference cycle per match); a pending step or
        # clock task holds its runner itself, from its start to its end.
        self._runner = weakref.ref(runner)
        self.clock = clock
        self.deadlines: dict[int, float] = {}  # seat -> when its clock runs out (clock time)
        self._tasks: list[asyncio.Task] = []  # this version's automatic steps and bot moves
        # One task for every seat's clock, kept across versions: it sleeps until the earliest
        # deadline it was armed for and, woken early by a deadline that moved, arms itself again
        # (so a move costs no timer task per awaited seat).
        self._clock_task: asyncio.Task | None = None
        self._clock_due: float | None = None
        self._unattended_since: float | None = None  # since when no person is at the table
        self.pause = ProposalPause()

    @property
    def runner(self) -> Timed:
        return self._runner()  # type: ignore[return-value]  # (alive: its runner or a task of it called)

    # --- this version's steps ------------------------------------------------------------------

    def reschedule(self) -> None:
        """Cancel this version's pending steps and start the ones the current state calls for."""
        runner = self.runner
        for task in self._tasks:
            task.cancel()
        self._tasks = []
        awaited = runner.awaited
        if SYSTEM in awaited:
            delay = step_delay(runner.engine, runner.state)
            action = runner.engine.legal_actions(runner.state, SYSTEM)[0]
            self._start(self._at(self.clock.now() + delay, SYSTEM, action, runner.version))
        elif not runner.unattended:
            for seat in sorted(awaited):
                if seat in runner.bot_seats:
                    self._start(self._bot_move(seat, runner.version, self.clock.now() + runner.bot_think_seconds))
        if not runner.unattended:
            self._unattended_since = None
        elif not runner.finished:
            if self._unattended_since is None:
                self._unattended_since = self.clock.now()
            self._start(self._end_unattended(self._unattended_since))
        self._arm_clock()
        if runner.corr is not None:
            runner.corr.arm_warnings(self.deadlines if awaited else {}, runner.bot_seats)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        self._tasks = []
        self._cancel_clock()
        if self.runner.corr is not None:
            self.runner.corr.stop()

    def _start(self, coroutine) -> None:
        self._tasks.append(asyncio.create_task(coroutine))

    async def _at(self, when: float, seat: int, action: dict, version: int) -> None:
        runner = self.runner
        await self.clock.sleep_until(when)
        await _submit_quietly(runner, seat, action, version)

    async def _bot_move(self, seat: int, version: int, when: float) -> None:
        runner = self.runner
        await self.clock.sleep_until(when)
        if version != runner.version:
            return
        view = runner.engine.view(runner.state, seat)
        legal = runner.engine.legal_actions(runner.state, seat)
        if not legal:
            return
        policy = runner.bot_policy(seat)
        rng = random.Random(f"{runner.seed}:{version}:{seat}")
        # off the event loop: a strong bot thinks for up to 0.4 s
        started = time.perf_counter()
        try:
            action = (await asyncio.get_running_loop().run_in_executor(runner.bot_threads, policy, view, legal, rng)
                      if policy else rng.choice(legal))
        except Exception:  # a failing bot must not leave its table waiting forever
            log.exception("the %s bot failed in match %s; it plays a random legal move", runner.engine.id,
                          runner.match_id)
            action = rng.choice(legal)
        metrics.bot_thought(runner.engine.id, time.perf_counter() - started)
        await _submit_quietly(runner, seat, action, version)

    async def _end_unattended(self, since: float) -> None:
        runner = self.runner
        await self.clock.sleep_until(since + UNATTENDED_END_SECONDS)
        async with runner.lock:
            if (self._unattended_since != since or not runner.unattended or runner.finished
                    or runner.status != "running" or runner.closing):
                return  # a person came back meanwhile (or the match is over)
            # Decided here, under the lock, at the append: nobody is here. A person arriving while
            # it is committed is too late (a commit is not undone), and the reschedule their
            # arrival makes no longer cancels this task, which finishes its path (its line).
            task = asyncio.current_task()
            if task in self._tasks:
                self._tasks.remove(task)
            try:
                await runner.platform.record(platform.unattended_end())
            except ApiError as exc:  # not the owner any more, the database is down...: tried again on a reload
                log.warning("an unattended match %s was not ended: %s", runner.match_id, exc.message)
                return
        log.info("unattended match aborted", extra={"match_id": runner.match_id, "event": "unattended_ended"})

    # --- clocks --------------------------------------------------------------------------------

    def _next_deadline(self, skip: int | None = None) -> float | None:
        """The earliest deadline of a seat whose clock runs now (awaited, not played by a bot)."""
        awaited = self.runner.awaited
        if SYSTEM in awaited or self.pause.since is not None:
            return None
        return min((when for seat, when in self.deadlines.items()
                    if seat in awaited and seat not in self.runner.bot_seats and seat != skip), default=None)

    def _arm_clock(self, skip: int | None = None) -> None:
        due = self._next_deadline(skip)
        if due is None:
            self._cancel_clock()
        elif self._clock_task is None or self._clock_due is None or due < self._clock_due:
            self._cancel_clock()
            self._clock_due = due
            self._clock_task = asyncio.create_task(self._clock(due))
        # else: the clock task wakes at its earlier time, finds nothing due and arms again

    def _cancel_clock(self) -> None:
        if self._clock_task is not None:
            self._clock_task.cancel()
        self._clock_task = self._clock_due = None

    async def _clock(self, when: float) -> None:
        """At ``when``: the first seat whose clock ran out gets its timeout action, worked out only
        now (most clocks never run out), as that seat if legal, else as SYSTEM. Its version
        then re-arms the clock for the next deadline (a second seat out at the same time acts next)."""
        runner = self.runner
        await self.clock.sleep_until(when)
        self._clock_task = self._clock_due = None
        now = self.clock.now()
        awaited = runner.awaited
        due = sorted((deadline, seat) for seat, deadline in self.deadlines.items()
                     if deadline <= now and seat in awaited and seat not in runner.bot_seats and SYSTEM not in awaited
                     and self.pause.since is None)
        seat = due[0][1] if due else None
        if seat is not None and runner.corr is not None:  # a correspondence deadline: the host's choice
            try:
                await runner.corr.fire(seat, runner.version)
            except Exception:
                log.exception("a correspondence deadline failed in match %s", runner.match_id)
        elif seat is not None:
            action = runner.engine.on_timeout(runner.state, seat)
            actor = seat if action in runner.engine.legal_actions(runner.state, seat) else SYSTEM
            await _submit_quietly(runner, actor, action, runner.version)
        if self._clock_task is None and not runner.closing:  # nothing was due, or the timeout was refused:
            self._arm_clock(skip=seat)                        # not tried again

    def update_deadlines(self, shown_before: frozenset, actor: int, fixed: dict[int, float] | None = None) -> None:
        """A seat's clock starts when it becomes awaited (or is awaited again right after acting).
        A seat only shown as awaited (``Engine.shown_awaiting``: its secret answer given) keeps the
        deadline it had, so the clocks never tell it apart from a seat still deciding.
        A correspondence match's deadlines are ``fixed`` when its entries are committed (the
        versions between keep theirs): the engine's own clocks do not run there."""
        runner = self.runner
        if runner.corr is not None:
            if fixed is not None:
                self.deadlines = dict(fixed)
            return
        now = self.pause.base(self.clock.now())
        deadlines = {}
        for seat in runner.shown:
            if seat < 0:
                continue
            if seat not in runner.awaited:  # only shown: keeps its deadline (not a clock of its own)
                if seat in shown_before and seat in self.deadlines:
                    deadlines[seat] = self.deadlines[seat]
                continue
            seconds = runner.engine.clock_seconds(runner.state, seat)
            if not seconds:
                continue
            fresh = seat not in shown_before or seat == actor or seat not in self.deadlines
            deadlines[seat] = now + seconds if fresh else self.deadlines[seat]
        self.deadlines = deadlines

    def start_clocks(self) -> None:
        """Clocks for the current state as if every awaited seat just became awaited (start, resume);
        a correspondence match's are its deadlines in the database, re-armed as they were."""
        if self.runner.corr is not None:
            self.deadlines = self.runner.corr.resume(self.runner.awaited)
            return
        self.deadlines = {}
        self.pause = ProposalPause()
        self.update_deadlines(frozenset(), SYSTEM)
        self.follow_proposals()

    def follow_proposals(self) -> None:
        """After the table's proposals changed (a vote, a no, an end; a start or resume), before the
        version's views are made: ``ProposalPause``. Correspondence deadlines (days per move) do not pause."""
        if self.runner.corr is None:
            self.deadlines = self.pause.follow(self.runner.table, self.deadlines, self.clock.now())


class ProposalPause:
    """While an abort or a concession is proposed, no move clock runs (a player answering it is not
    also losing their move time: docs/decisions/2026-12-07-clocks-during-a-proposal.md); when the
    last one closes, every deadline moves on by the time it was open. The views show no deadline
    meanwhile (``MatchRunner.deadlines``)."""

    def __init__(self) -> None:
        self.since: float | None = None  # when the pause began; None while the clocks run

    def base(self, now: float) -> float:
        """Where a clock that starts now counts from: while paused, the pause's start (so it gets
        its whole time once the proposal closes)."""
        return now if self.since is None else self.since

    def follow(self, table: platform.Table, deadlines: dict[int, float], now: float) -> dict[int, float]:
        """The deadlines after the table's proposals changed (the same, or moved on at a close)."""
        proposed = table.ended is None and bool(table.abort_votes or table.resign_votes)
        if proposed and self.since is None:
            self.since = now
        elif not proposed and self.since is not None:
            shift, self.since = now - self.since, None
            return {seat: when + shift for seat, when in deadlines.items()}
        return deadlines
