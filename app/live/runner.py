"""A match that runs in this process (a ``Match``, app/live/match.py): its state, version and the
one-at-a-time apply path; it composes the timers for steps nobody types (``timers``: SYSTEM steps
after their delay, clocks running out, bots thinking) and each seat's views (``views``).

Every action, whoever takes it, goes through ``submit``: checked, applied by the engine (with the
SYSTEM steps it makes due at once), handed to the action writer, and once the writer reports it
committed, the runner advances and reports each new version to its ``listener`` (the room), which
decides what to push. The runner knows nothing of rooms, sockets or the hub: it is given a clock,
a writer and the seats its bots play."""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Executor
from typing import Protocol

import engines
from app.endings import actions as platform
from app.errors import ApiError, seat_name
from app.live.match import MatchEvents, MatchListener
from app.live.platform_path import PlatformPath
from app.live.timers import MatchTimers, immediate_steps
from app.live.views import MatchViews, shown_awaiting
from app.live.wire import Encoded
from app.observability import metrics
from app.store import LogEntry
from engines.bots import DEFAULT_LEVEL, get as get_bot
from engines.protocol import SYSTEM, IllegalAction, InvalidAction

log = logging.getLogger("asobiba.runner")


class Writer(Protocol):
    def append(self, *entries: LogEntry) -> asyncio.Future: ...


class MatchRunner:
    """A ``Match`` (app/live/match.py) that runs in this process."""

    def __init__(self, match_id: str, game: str, seed: int, num_players: int, state, version: int,
                 options: dict, *, clock, writer: Writer, resync_window: int = 32, snapshot_every: int = 32,
                 status: str = "running", bot_threads: Executor | None = None, table: platform.Table | None = None,
                 corr=None):  # corr: a correspondence match's deadlines (app/correspondence/path.py); None: live
        self.match_id = match_id
        self.corr = corr
        # Platform actions so far (app/endings): open votes to abort or concede, an early ending.
        self.table = table or platform.Table()
        self.zombie_seats: set[int] = set()  # set by the room: bot seats that play for an absent person
        self.bot_threads = bot_threads  # where bots think (None: the default thread pool)
        self.clock = clock
        self.writer = writer
        self.snapshot_every = max(1, snapshot_every)
        self.listener: MatchListener | None = None
        self.bot_seats: set[int] = set()  # set by the room whenever its seats change
        self.bot_levels: dict[int, str] = {}  # bot seat -> level (engines.bots.LEVELS)
        self.bot_think_seconds = 0.0
        self.unattended = False  # set by the room: no person is at the table (app/live/timers.py)
        self.engine = engines.get(game)
        self.seed = seed
        self.num_players = num_players
        self.options = options
        self.state = state
        self.version = version
        # The version since which the table is as it is now: later versions (if any) are platform
        # votes only, which change nothing on it, so a move answering any of them is not stale.
        self.table_version = version
        # "running", or "aborted" when an admin stopped the match (then it takes no more actions).
        self.status = status
        self.lock = asyncio.Lock()
        # Set when the server drains for a restart: actions not yet started are refused.
        self.closing = False
        self.timers = MatchTimers(self, clock)
        self.views = MatchViews(self, resync_window)
        self.platform = PlatformPath(self)
        # Notifications of this match's changes (app/push/events.py), set by the hub that runs it.
        self.events: MatchEvents | None = None
        corr and corr.bind(self)

    # --- reading ---------------------------------------------------------------------------

    @property
    def state(self):
        return self._state

    @state.setter
    def state(self, state) -> None:
        """States never change once made: whom one awaits (and shows awaited) is worked out once, here."""
        self._state = state
        self.awaited = frozenset() if self.table.ended is not None else self.engine.awaiting(state)
        self.shown: frozenset[int] = shown_awaiting(self.engine, state, self.awaited)

    @property
    def finished(self) -> bool:
        return not self.awaited

    def message(self, seat: int | None, state=None, version: int | None = None,
                table: platform.Table | None = None) -> dict:
        """The ``view`` message for one seat (None = spectator) of ``state`` (default: the current)."""
        return self.views.message(seat, state, version, table)

    def current(self, seat: int | None) -> Encoded:  # encoded once per version and seat
        return self.views.current(seat)

    async def caught_up(self) -> None:  # this process applies the actions: nothing newer exists elsewhere
        return

    def missed_views(self, seat: int | None, since: int) -> list[Encoded] | None:  # None: no longer kept
        return self.views.missed(seat, since)

    # --- the apply path ----------------------------------------------------------------------

    async def submit(self, seat: int, action, version: int | None) -> int:
        """Apply one action for ``seat``; returns the new version, or raises ``ApiError`` and changes
        nothing. Counted and timed for the metrics; logged with ids and codes, never the content."""
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
            if version is not None and not self.table_version <= version <= self.version and not request:
                raise ApiError(409, "stale_version",
                               f"version {version} is stale: the match is at version {self.version}; resync")
            if seat != SYSTEM and seat not in self.awaited and not request:
                # (named as the views show them: the really awaited would say who can call a discard)
                raise ApiError(409, "not_your_turn",
                               f"{seat_name(seat)} is not awaited now (awaiting "
                               f"{', '.join(seat_name(s) for s in sorted(self.shown) if s >= 0) or 'nobody'})")
            if not isinstance(action, dict):
                raise ApiError(400, "invalid_action", f"an action must be a JSON object, not {type(action).__name__}")
            if platform.is_request(action):
                return await self.platform.apply(seat, action)
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
            steps = [(seat, action, new_state), *immediate_steps(self.engine, new_state, self.match_id)]
            entries = []
            for index, (step_seat, step_action, step_state) in enumerate(steps):
                idx = self.version + index
                outcome = self.engine.outcome(step_state)
                snapshot_due = outcome is not None or (idx + 1) % self.snapshot_every == 0
                entries.append(LogEntry(self.match_id, idx, step_seat, step_action,
                                        self.engine.state_to_json(step_state) if snapshot_due else None, outcome))
            self.corr and self.corr.stamp(entries[-1], seat, steps[-1][2])  # its deadlines, in its transaction
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

    def _advance_all(self, steps: list, entries: list[LogEntry]) -> None:
        for index, ((seat, action, state), entry) in enumerate(zip(steps, entries)):
            fixed = self.corr.committed(entry) if self.corr is not None else None
            self._advance(state, seat, action, entry.outcome, index == len(steps) - 1, fixed)

    def _advance(self, new_state, seat: int, action: dict, outcome: dict | None, last: bool = True, fixed=None) -> None:
        """The action is committed: move to the new version, tell the listener, and (after the
        ``last`` of the steps committed together) restart timers."""
        before, shown_before = self.awaited, self.shown
        self.state = new_state
        self.version += 1
        self.table_version = self.version
        self.views.advanced(self.version, new_state, self.table)
        # A timeout (SYSTEM, or a deadline's bot move) counts as that seat's move: its next clock is fresh.
        acted = action.get("seat", seat) if seat < 0 else seat
        self.timers.update_deadlines(shown_before, acted, fixed)
        metrics.action_applied(self.engine.id)
        if outcome is not None:
            metrics.match_finished(self.engine.id)
            log.info("match finished", extra={"game": self.engine.id, "version": self.version,
                                              "match_id": self.match_id, "seat": seat})
        if self.listener is not None:
            self.listener.on_advanced(self)
            if outcome is not None:
                self.listener.on_finished(self)
        if self.events is not None:
            self.events.advanced(self, before, outcome is not None)
        if last:
            self.reschedule()

    # --- what nobody types (app/live/timers.py) ---------------------------------------------------

    @property
    def deadlines(self) -> dict[int, float]:
        return self.timers.deadlines if self.timers.pause.since is None else {}  # none while paused

    def bot_policy(self, seat: int):
        """The policy of the bot playing ``seat`` (None: the bot plays a random legal move)."""
        try:
            return get_bot(self.engine.id, self.bot_levels.get(seat, DEFAULT_LEVEL))
        except ValueError:
            return None

    def reschedule(self) -> None:
        """Cancel this version's pending steps and start the ones the current state calls for."""
        self.timers.reschedule()

    def stop(self) -> None:
        self.timers.stop()

    async def reload_deadlines(self) -> None:  # a vacation moved a correspondence match's deadlines
        await (self.corr.reload() if self.corr is not None else asyncio.sleep(0))

    def start_clocks(self) -> None:
        """Clocks for the current state as if every awaited seat just became awaited (start, resume)."""
        self.views.forget_current()
        self.timers.start_clocks()
