"""A running match in memory: its state, version, the one-at-a-time apply path, and the timers
for steps nobody types (SYSTEM steps after their delay, clocks running out, bots thinking).

Every action, whoever takes it, goes through ``submit``: checked, applied by the engine (with the
SYSTEM steps it makes due at once), handed to the action writer, and once the writer reports it
committed, the runner advances and reports each new version to its ``listener`` (the room), which
decides what to push. The runner knows nothing of rooms, sockets or the hub: it is given a clock,
a writer and the seats its bots play."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import Counter, deque
from concurrent.futures import Executor
from typing import Any, Protocol

import engines
from app.endings import actions as platform
from app.errors import ApiError, seat_name
from app.live.wire import Encoded
from app.observability import metrics
from app.store import LogEntry
from engines.bots import DEFAULT_LEVEL, get as get_bot
from engines.protocol import SYSTEM, IllegalAction, InvalidAction

log = logging.getLogger("asobiba.runner")


class RunnerListener(Protocol):
    def on_advanced(self, runner: "MatchRunner") -> None: ...
    def on_finished(self, runner: "MatchRunner") -> None: ...


class Writer(Protocol):
    def append(self, *entries: LogEntry) -> asyncio.Future: ...


# Automatic steps applied with the action that made them due at once (a bound, not a rule: no
# game chains more than a couple).
MAX_IMMEDIATE_STEPS = 16


class MatchRunner:
    def __init__(self, match_id: str, game: str, seed: int, num_players: int, state, version: int,
                 options: dict, *, clock, writer: Writer, resync_window: int = 32, snapshot_every: int = 32,
                 status: str = "running", bot_threads: Executor | None = None, table: platform.Table | None = None):
        self.match_id = match_id
        # Platform actions so far (app/endings): open votes to abort or concede, an early ending.
        self.table = table or platform.Table()
        # Set by the room: seats a bot plays for an absent person (a subset of ``bot_seats``).
        self.zombie_seats: set[int] = set()
        self.bot_threads = bot_threads  # where bots think (None: the default thread pool)
        self.clock = clock
        self.writer = writer
        self.snapshot_every = max(1, snapshot_every)
        self.listener: RunnerListener | None = None
        # Set by the room whenever its seats change.
        self.bot_seats: set[int] = set()
        self.bot_levels: dict[int, str] = {}  # bot seat -> level (engines.bots.LEVELS)
        self.bot_think_seconds = 0.0
        self.engine = engines.get(game)
        self.seed = seed
        self.num_players = num_players
        self.options = options
        self.state = state
        self.version = version
        # "running", or "aborted" when an admin stopped the match (then it takes no more actions).
        self.status = status
        self.history: deque[tuple[int, object, platform.Table]] = deque([(version, state, self.table)],
                                                                        maxlen=resync_window + 1)
        # Past versions' views per seat, made the first time a reconnect asks for one and kept while
        # their version is in ``history``, so a flood of reconnects is sent frames already made, not
        # views computed again. (Not every view pushed at the time: keeping those for every room
        # would cost memory for the few rooms where someone reconnects.)
        self._past_views: dict[int, dict[int | None, Encoded]] = {}
        # The current version's message per seat (None = spectators), as a dict and encoded once.
        self._current: dict[int | None, tuple[dict, Encoded]] = {}
        # How many messages were encoded, per seat (None = spectators): once per version at most.
        self.encodes: Counter[int | None] = Counter()
        self.lock = asyncio.Lock()
        # Set when the server drains for a restart: actions not yet started are refused.
        self.closing = False
        self.deadlines: dict[int, float] = {}
        self._timers: list[asyncio.Task] = []  # this version's automatic steps and bot moves
        # One task for every seat's clock, kept across versions: it sleeps until the earliest
        # deadline it was armed for and, woken early by a deadline that moved, arms itself again
        # (so a move costs no timer task per awaited seat).
        self._clock_task: asyncio.Task | None = None
        self._clock_due: float | None = None

    # --- reading ---------------------------------------------------------------------------

    @property
    def state(self):
        return self._state

    @state.setter
    def state(self, state) -> None:
        """States never change once made: who the current one awaits is worked out once here, not
        at every read of a move (the apply check, each seat's view, deadlines, timers)."""
        self._state = state
        self.awaited: frozenset[int] = frozenset() if self.table.ended is not None else self.engine.awaiting(state)

    @property
    def finished(self) -> bool:
        return not self.awaited

    def message(self, seat: int | None, state=None, version: int | None = None,
                table: platform.Table | None = None) -> dict:
        """The ``view`` message for one seat (None = spectator), computed for that seat only.
        ``platform``: the open votes this seat may see (app/endings)."""
        current = state is None
        state = self.state if current else state
        table = self.table if current else (table or platform.Table())
        version = self.version if version is None else version
        if current:
            awaiting = sorted(self.awaited)
        else:
            awaiting = [] if table.ended is not None else sorted(self.engine.awaiting(state))
        legal = self.engine.legal_actions(state, seat) if seat is not None and seat in awaiting else []
        view = self.engine.view(state, seat)
        return {
            "type": "view", "version": version, "seat": seat, "match_id": self.match_id,
            "view": view, "awaiting": awaiting, "legal_actions": legal,
            "deadlines": {str(s): int(t * 1000) for s, t in self.deadlines.items()} if current and table.ended is None else {},
            "outcome": platform.outcome(self.engine, state, table),
            "platform": table.as_view(seat, view.get("teams") if isinstance(view, dict) else None),
        }

    def current(self, seat: int | None) -> tuple[dict, Encoded]:
        """This version's message for ``seat``, encoded: computed and encoded once per version and
        seat, then shared by every socket of that seat (and every spectator)."""
        cached = self._current.get(seat)
        if cached is None:
            message = self.message(seat)
            cached = self._current[seat] = (message, Encoded.of(message))
            self.encodes[seat] += 1
        return cached

    def missed_messages(self, seat: int | None, since: int) -> list[Encoded] | None:
        """The encoded views of the versions after ``since``, or None when they are no longer kept
        (the caller sends one full view instead). Each seat's view of a past version is computed
        and encoded at most once, by the first reconnect that misses it, so a flood of reconnects
        costs frame writes, not view computations."""
        kept = [(v, s, t) for v, s, t in self.history if v > since]
        if since > self.version or not kept or kept[0][0] != since + 1:
            return None
        oldest = self.history[0][0]
        for gone in [v for v in self._past_views if v < oldest]:  # left the window
            del self._past_views[gone]
        views = []
        for version, state, table in kept:
            if version == self.version:
                views.append(self.current(seat)[1])
                continue
            by_seat = self._past_views.setdefault(version, {})
            encoded = by_seat.get(seat)
            if encoded is None:
                encoded = by_seat[seat] = Encoded.of(self.message(seat, state, version, table))
                self.encodes[seat] += 1
            views.append(encoded)
        return views

    # --- the apply path ----------------------------------------------------------------------

    async def submit(self, seat: int, action, version: int | None) -> int:
        """Apply one action for ``seat``; returns the new version. Raises ``ApiError`` and changes
        nothing when the action is refused. Counted and timed (receive -> views handed to the
        room) for the metrics; logged with ids and codes only, never the action's content. The
        lines name the match and seat themselves (binding them to the task for the call costs
        more, on every move, than the logging it serves)."""
        received = time.perf_counter()
        try:
            new_version, steps = await self._apply(seat, action, version)
        except ApiError as exc:
            metrics.action_refused(self.engine.id, exc.code)
            log.debug("action refused", extra={"match_id": self.match_id, "seat": seat, "code": exc.code,
                                               "version": version})
            raise
        elapsed = time.perf_counter() - received
        for _ in range(steps):  # the SYSTEM steps applied with it took the same time
            metrics.action_latency(self.engine.id, elapsed)
        log.debug("action applied", extra={"match_id": self.match_id, "seat": seat, "version": new_version})
        return new_version

    async def _apply(self, seat: int, action, version: int | None) -> tuple[int, int]:
        """The new version and the number of versions (steps) it took."""
        if self.closing:
            raise ApiError(503, "shutting_down", "the server is restarting: reconnect and send the action again")
        async with self.lock:
            if self.finished or self.status != "running":
                raise ApiError(409, "match_over", f"the match is {'over' if self.finished else self.status}; no more actions are taken")
            request = platform.is_request(action)  # resign, abort...: not tied to a move or a turn
            if version is not None and version != self.version and not request:
                raise ApiError(409, "stale_version",
                               f"version {version} is stale: the match is at version {self.version}; resync")
            awaited = self.awaited
            if seat != SYSTEM and seat not in awaited and not request:
                raise ApiError(409, "not_your_turn",
                               f"{seat_name(seat)} is not awaited now (awaiting "
                               f"{', '.join(seat_name(s) for s in sorted(awaited) if s >= 0) or 'nobody'})")
            if not isinstance(action, dict):
                raise ApiError(400, "invalid_action", f"an action must be a JSON object, not {type(action).__name__}")
            if platform.is_request(action):
                return await self._apply_platform(seat, action)
            try:
                new_state = self.engine.apply(self.state, seat, action)
            except InvalidAction as exc:
                raise ApiError(400, "invalid_action", str(exc)) from None
            except IllegalAction as exc:
                raise ApiError(422, "illegal_action", str(exc)) from None
            except Exception:
                log.exception("engine %s failed on an action in match %s", self.engine.id, self.match_id,
                              extra={"match_id": self.match_id, "seat": seat})
                raise ApiError(422, "illegal_action", "the action could not be applied") from None
            steps = [(seat, action, new_state), *self._immediate_steps(new_state)]
            entries = []
            for index, (step_seat, step_action, step_state) in enumerate(steps):
                idx = self.version + index
                outcome = self.engine.outcome(step_state)
                snapshot_due = outcome is not None or (idx + 1) % self.snapshot_every == 0
                entries.append(LogEntry(self.match_id, idx, step_seat, step_action,
                                        self.engine.state_to_json(step_state) if snapshot_due else None, outcome))
            committed = self.writer.append(*entries)
            try:
                await asyncio.shield(committed)
            except asyncio.CancelledError:
                # Cancelled while the write is in flight: memory must still follow the database.
                await asyncio.wait([committed])
                if not committed.cancelled() and committed.exception() is None:
                    self._advance_all(steps, entries)
                raise
            self._advance_all(steps, entries)
            return self.version, len(steps)

    def platform_seats(self) -> platform.Seats:
        view = self.engine.view(self.state, None)
        teams = view.get("teams") if isinstance(view, dict) else None
        return platform.Seats(self.num_players, teams or None, frozenset(self.bot_seats - self.zombie_seats),
                              frozenset(self.zombie_seats))

    async def _apply_platform(self, seat: int, request: dict) -> tuple[int, int]:
        """A resign, abort, decline or claim (app/endings): decided with who sits and who is
        present now, logged as the decision under ``PLATFORM`` (called with the lock held)."""
        if seat == SYSTEM or not 0 <= seat < self.num_players:
            raise ApiError(403, "not_seated", "only a seated player can resign, abort or claim")
        try:
            logged = platform.decide(self.table, seat, request, self.platform_seats())
        except platform.PlatformRefusal as exc:
            raise ApiError(exc.status, exc.code, exc.message) from None
        table = platform.fold(self.table, logged)
        ended = table.ended is not None
        entry = LogEntry(self.match_id, self.version, platform.PLATFORM, logged,
                         self.engine.state_to_json(self.state) if ended else None, table.ended,
                         status=table.status)
        committed = self.writer.append(entry)
        try:
            await asyncio.shield(committed)
        except asyncio.CancelledError:
            await asyncio.wait([committed])
            if not committed.cancelled() and committed.exception() is None:
                self._advance_platform(table, ended)
            raise
        self._advance_platform(table, ended)
        return self.version, 1

    def _advance_platform(self, table: platform.Table, ended: bool) -> None:
        self.table = table
        if ended:
            self.status = table.status
        self.state = self.state  # awaits nobody once the table has ended
        self.version += 1
        self.history.append((self.version, self.state, table))
        self._current = {}
        if ended:
            self.deadlines = {}
            log.info("match ended early", extra={"game": self.engine.id, "version": self.version,
                                                 "match_id": self.match_id})
        if self.listener is not None:
            self.listener.on_advanced(self)
            if ended:
                self.listener.on_finished(self)
        self.reschedule()

    def _immediate_steps(self, state) -> list[tuple[int, dict, object]]:
        """The SYSTEM steps due at once after ``state`` (no delay: a reveal with ``reveal_delay``
        0), applied now with the action that made them due and committed in its transaction, so
        they cost no timer task, lock or commit of their own. Each still has its own version in
        the log and its own views. A step the engine refuses is left to the timer path."""
        steps: list[tuple[int, dict, Any]] = []
        while len(steps) < MAX_IMMEDIATE_STEPS and SYSTEM in self.engine.awaiting(state) and self._delay(state) <= 0:
            try:
                step = self.engine.legal_actions(state, SYSTEM)[0]
                state = self.engine.apply(state, SYSTEM, step)
            except Exception:
                log.exception("engine %s failed on an automatic step in match %s", self.engine.id, self.match_id)
                break
            steps.append((SYSTEM, step, state))
        return steps

    def _delay(self, state) -> float:
        return float(self.engine.delay(state))

    def _advance_all(self, steps: list, entries: list[LogEntry]) -> None:
        for index, ((seat, action, state), entry) in enumerate(zip(steps, entries)):
            self._advance(state, seat, action, entry.outcome, last=index == len(steps) - 1)

    def _advance(self, new_state, seat: int, action: dict, outcome: dict | None, last: bool = True) -> None:
        """The action is committed: move to the new version, tell the listener, and (after the
        ``last`` of the steps committed together) restart timers."""
        before = self.awaited
        self.state = new_state
        self.version += 1
        self.history.append((self.version, new_state, self.table))
        self._current = {}
        # A clock timeout (SYSTEM acting for a seat) counts as that seat's move: its next clock is fresh.
        acted = action.get("seat", seat) if seat == SYSTEM else seat
        self._update_deadlines(before, acted)
        metrics.action_applied(self.engine.id)
        if outcome is not None:
            metrics.match_finished(self.engine.id)
            log.info("match finished", extra={"game": self.engine.id, "version": self.version,
                                              "match_id": self.match_id, "seat": seat})
        if self.listener is not None:
            self.listener.on_advanced(self)
            if outcome is not None:
                self.listener.on_finished(self)
        if last:
            self.reschedule()

    # --- timers ------------------------------------------------------------------------------

    def reschedule(self) -> None:
        """Cancel this version's pending steps and start the ones the current state calls for."""
        for task in self._timers:
            task.cancel()
        self._timers = []
        awaited = self.awaited
        if SYSTEM in awaited:
            delay = self._delay(self.state)
            action = self.engine.legal_actions(self.state, SYSTEM)[0]
            self._start(self._at(self.clock.now() + delay, SYSTEM, action, self.version))
        else:
            for seat in sorted(awaited):
                if seat in self.bot_seats:
                    self._start(self._bot_move(seat, self.version, self.clock.now() + self.bot_think_seconds))
        self._arm_clock()

    def stop(self) -> None:
        for task in self._timers:
            task.cancel()
        self._timers = []
        self._cancel_clock()

    def _start(self, coroutine) -> None:
        self._timers.append(asyncio.create_task(coroutine))

    async def _at(self, when: float, seat: int, action: dict, version: int) -> None:
        await self.clock.sleep_until(when)
        await self._submit_quietly(seat, action, version)

    # --- clocks ------------------------------------------------------------------------------

    def _next_deadline(self, skip: int | None = None) -> float | None:
        """The earliest deadline of a seat whose clock runs now (awaited, not played by a bot)."""
        awaited = self.awaited
        if SYSTEM in awaited:
            return None
        return min((when for seat, when in self.deadlines.items()
                    if seat in awaited and seat not in self.bot_seats and seat != skip), default=None)

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
        await self.clock.sleep_until(when)
        self._clock_task = self._clock_due = None
        now = self.clock.now()
        awaited = self.awaited
        due = sorted((deadline, seat) for seat, deadline in self.deadlines.items()
                     if deadline <= now and seat in awaited and seat not in self.bot_seats and SYSTEM not in awaited)
        seat = due[0][1] if due else None
        if seat is not None:
            action = self.engine.on_timeout(self.state, seat)
            actor = seat if action in self.engine.legal_actions(self.state, seat) else SYSTEM
            await self._submit_quietly(actor, action, self.version)
        if self._clock_task is None and not self.closing:  # nothing was due, or the timeout was refused:
            self._arm_clock(skip=seat)                      # not tried again

    async def _bot_move(self, seat: int, version: int, when: float) -> None:
        await self.clock.sleep_until(when)
        if version != self.version:
            return
        view = self.engine.view(self.state, seat)
        legal = self.engine.legal_actions(self.state, seat)
        if not legal:
            return
        try:
            policy = get_bot(self.engine.id, self.bot_levels.get(seat, DEFAULT_LEVEL))
        except ValueError:
            policy = None
        rng = random.Random(f"{self.seed}:{version}:{seat}")
        # off the event loop: a strong bot thinks for up to 0.4 s
        started = time.perf_counter()
        try:
            action = (await asyncio.get_running_loop().run_in_executor(self.bot_threads, policy, view, legal, rng)
                      if policy else rng.choice(legal))
        except Exception:  # a failing bot must not leave its table waiting forever
            log.exception("the %s bot failed in match %s; it plays a random legal move", self.engine.id, self.match_id)
            action = rng.choice(legal)
        metrics.bot_thought(self.engine.id, time.perf_counter() - started)
        await self._submit_quietly(seat, action, version)

    async def _submit_quietly(self, seat: int, action: dict, version: int) -> None:
        try:
            await self.submit(seat, action, version)
        except ApiError as exc:
            if exc.code not in ("stale_version", "match_over", "not_your_turn", "shutting_down"):
                log.warning("automatic action for seat %s refused in match %s: %s", seat, self.match_id, exc.message)
        except Exception:
            log.exception("automatic action failed in match %s", self.match_id)

    def _update_deadlines(self, awaited_before: frozenset, actor: int) -> None:
        """A seat's clock starts when it becomes awaited (or is awaited again right after acting)."""
        now = self.clock.now()
        awaited = self.awaited
        deadlines = {}
        for seat in awaited:
            if seat < 0:
                continue
            seconds = self.engine.clock_seconds(self.state, seat)
            if not seconds:
                continue
            fresh = seat not in awaited_before or seat == actor or seat not in self.deadlines
            deadlines[seat] = now + seconds if fresh else self.deadlines[seat]
        self.deadlines = deadlines

    def start_clocks(self) -> None:
        """Clocks for the current state as if every awaited seat just became awaited (start, resume)."""
        self.deadlines = {}
        self._current = {}
        self._update_deadlines(frozenset(), SYSTEM)
