"""A correspondence match's deadlines, for the runner that owns it (composed by ``MatchRunner``).

- ``stamp``: every unit of log entries the runner commits carries the deadlines it changes
  (``pace.next_deadlines``/``pace.changes``), written in the same transaction as the entries
  (``store.write_log``), so the database always holds the deadlines of the committed version, under
  the owner's fencing check like the log itself.
- ``fire``: when a deadline passes, the owner (and only the owner: only it runs timers) logs the
  host's choice as one platform action (app/endings/actions.py): ``deadline`` with the bot's move,
  or ``end`` ``timeout``. The log's unique (match, version) and the fencing epoch make it happen once
  in the cluster: an old owner's commit is refused, and a new owner re-arms from the database,
  where a fired deadline is already gone.
- 12 hours before a deadline the owner emits ``reminders.TWELVE_HOURS_LEFT`` once (``Reminders``).

Vacations (app/correspondence/vacation.py) move the database's deadlines; the owner reads them
again (``reload``) when told, and before firing."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, Awaitable, Callable

from app.correspondence import pace, records
from app.correspondence.reminders import Reminders
from app.endings import actions as platform
from app.errors import ApiError
from app.live.timers import immediate_steps
from app.store import LogEntry
from engines.bots import get as get_bot

log = logging.getLogger("asobiba.correspondence")


def correspondence_path(pace_name: str, on_deadline: str, stored: records.Stored | None,
                        database: Callable[..., Awaitable[Any]]) -> "CorrespondencePath | None":
    """A match's correspondence part, or None at a live table."""
    return CorrespondencePath(pace_name, on_deadline, stored, database) if pace.is_correspondence(pace_name) else None


class CorrespondencePath:
    def __init__(self, pace_name: str, on_deadline: str, stored: records.Stored | None,
                 database: Callable[..., Awaitable[Any]]):
        self.length = pace.seconds(pace_name) or pace.DAY
        self.on_deadline = on_deadline
        stored = stored or records.Stored()
        self.room_id, self.seats = stored.room_id, list(stored.seats)
        self._pending: tuple[int, dict[int, float]] | None = None  # (entry idx, deadlines after it)
        self.unwritten: set[int] = set()  # seats whose first deadline may not be stored yet (``resume``)
        self.stored = dict(stored.deadlines)  # the deadlines of the committed version
        self.warned = set(stored.warned)
        self.vacations = dict(stored.vacations)  # seat -> vacation end
        self.database = database  # ``Hub.write``: fn(session_factory, *args) off the loop
        self.runner: Any = None
        self._background: set[asyncio.Task] = set()
        self.reminders = Reminders(self)

    def bind(self, runner) -> None:
        self.runner = runner

    # --- the deadlines each unit of entries changes ------------------------------------------

    def stamp(self, entry: LogEntry, actor: int, state) -> None:
        """``entry`` ends a unit the runner is about to commit, taking the match to ``state``."""
        runner = self.runner
        over = entry.outcome is not None
        after = frozenset() if over else runner.engine.awaiting(state)
        if platform.PLATFORM == actor or actor < 0:
            actor = entry.action.get("seat", actor) if isinstance(entry.action, dict) else actor
        now = runner.clock.now()
        vacations = {s: until for s, until in self.vacations.items() if until > now}
        new = pace.next_deadlines(self.stored, runner.awaited, after, actor, now, self.length,
                                  runner.bot_seats, vacations)
        entry.deadlines = pace.changes(self.stored, new)
        # first deadlines the background write may not have stored yet: written with this unit
        entry.deadlines.update({seat: new[seat] for seat in self.unwritten if seat in new})
        self._pending = (entry.idx, new)

    def committed(self, entry: LogEntry) -> dict[int, float] | None:
        """The deadlines after ``entry`` is committed (None: it ends no unit ``stamp`` saw)."""
        if self._pending is None or self._pending[0] != entry.idx or entry.deadlines is None:
            return None
        new = self._pending[1]
        self._pending = None
        self.unwritten.clear()
        for seat, due in (entry.deadlines or {}).items():
            if due is not None:
                self.warned.discard(seat)
        self.stored = dict(new)
        return self.stored

    def resume(self, awaited: frozenset[int]) -> dict[int, float]:
        """The deadlines to arm when the runner starts (a new match, a restart, a take-over): the
        database's; an awaited person without one (the match's first decisions) gets a fresh one,
        written in the background (only if still missing: another owner's stays)."""
        runner = self.runner
        now = runner.clock.now()
        vacations = {s: until for s, until in self.vacations.items() if until > now}
        wanted = pace.next_deadlines({}, (), awaited, -1, now, self.length, runner.bot_seats, vacations)
        missing = {seat: due for seat, due in wanted.items() if seat not in self.stored}
        if missing:
            self.stored.update(missing)
            self.unwritten |= set(missing)
            task = asyncio.ensure_future(self.reload((runner.version, missing)))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return {seat: due for seat, due in self.stored.items() if seat in awaited}

    # --- re-reading the database --------------------------------------------------------------

    async def reload(self, missing: tuple[int, dict[int, float]] | None = None) -> None:
        """The database's deadlines or vacations changed (a vacation): take them, re-arm, and show
        every seat the new deadlines. ``missing``: deadlines to write first where none is stored."""
        runner = self.runner
        for _ in range(5):  # read again when a move committed meanwhile (it wrote newer deadlines)
            try:
                version, stored = await self.database(_load, runner.match_id, self.room_id, self.seats, missing)
            except Exception:
                log.exception("could not read the deadlines of match %s", runner.match_id)
                return
            missing = None
            async with runner.lock:
                if runner.finished or runner.status != "running":
                    return
                if version == runner.version:
                    self._take(stored)
                    return

    def _take(self, stored: records.Stored) -> None:
        """The database's deadlines (read at the current version), with the runner's lock held."""
        runner = self.runner
        self.stored = dict(stored.deadlines)
        self.unwritten.clear()
        self.warned = set(stored.warned)
        self.vacations = dict(stored.vacations)
        runner.timers.deadlines = {seat: due for seat, due in self.stored.items() if seat in runner.awaited}
        runner.views.forget_current()
        runner.reschedule()
        if runner.listener is not None:
            runner.listener.on_advanced(runner)

    # --- a deadline passed --------------------------------------------------------------------

    async def fire(self, seat: int, version: int) -> None:
        """``seat``'s deadline passed at ``version`` (the runner's clock task): the host's choice."""
        runner = self.runner
        due = await self.database(_read_one, runner.match_id, seat)
        if due is None or due > runner.clock.now():  # moved by a vacation, or gone: read them all again
            await self.reload()
            return
        move = None
        if self.on_deadline == "bot":
            move = await self._bot_move(seat, version)
            if move is None:
                return
        async with runner.lock:
            if (runner.version != version or runner.finished or runner.status != "running"
                    or seat not in runner.awaited or runner.closing):
                return  # the seat moved meanwhile (or the match is over): nothing is late
            try:
                if move is None:
                    await runner.platform.record(platform.timeout_end(seat, runner.platform.seats()))
                else:
                    await self._commit_move(seat, move)
            except ApiError as exc:  # not the owner any more, the database is down...: the next owner fires it
                log.warning("a deadline in match %s was not recorded: %s", runner.match_id, exc.message)
                return
        log.info("correspondence deadline fired", extra={"match_id": runner.match_id, "seat": seat,
                                                         "version": version, "event": "deadline_fired"})

    async def _bot_move(self, seat: int, version: int) -> dict | None:
        runner = self.runner
        state = runner.state
        legal = runner.engine.legal_actions(state, seat)
        if not legal:
            return None
        view = runner.engine.view(state, seat)
        rng = random.Random(f"{runner.seed}:{version}:{seat}:deadline")
        try:
            policy = get_bot(runner.engine.id)
            return await asyncio.get_running_loop().run_in_executor(runner.bot_threads, policy, view, legal, rng)
        except Exception:
            log.exception("the %s bot failed at a deadline in match %s; a random legal move is played",
                          runner.engine.id, runner.match_id)
            return rng.choice(legal)

    async def _commit_move(self, seat: int, move: dict) -> None:
        """Log the deadline with the bot's move as one unit (with the automatic steps it makes due),
        committed before memory changes, like any action (``MatchRunner._apply``)."""
        runner = self.runner
        new_state = runner.engine.apply(runner.state, seat, move)
        logged = {"platform": "deadline", "seat": seat, "then": "bot", "move": move}
        steps = [(platform.PLATFORM, logged, new_state), *immediate_steps(runner.engine, new_state, runner.match_id)]
        entries = []
        for index, (step_seat, step_action, step_state) in enumerate(steps):
            idx = runner.version + index
            outcome = runner.engine.outcome(step_state)
            snapshot = outcome is not None or (idx + 1) % runner.snapshot_every == 0
            entries.append(LogEntry(runner.match_id, idx, step_seat, step_action,
                                    runner.engine.state_to_json(step_state) if snapshot else None, outcome))
        self.stamp(entries[-1], seat, steps[-1][2])
        committed = runner.writer.append(*entries)
        try:
            await asyncio.shield(committed)
        except asyncio.CancelledError:
            await asyncio.wait([committed])
            if not committed.cancelled() and committed.exception() is None:
                runner._advance_all(steps, entries)
            raise
        runner._advance_all(steps, entries)

    # --- 12 hours left (app/correspondence/reminders.py) ------------------------------------------

    def arm_warnings(self, deadlines: dict[int, float], bots: set[int]) -> None:
        self.reminders.arm(deadlines, bots)

    def stop(self) -> None:
        self.reminders.stop()


def _load(session_factory, match_id: str, room_id: str, seats: list[dict],
          missing: tuple[int, dict[int, float]] | None) -> tuple[int, records.Stored]:
    """(the match's version, its deadlines), read in one transaction."""
    with session_factory() as session:
        if missing:
            records.add_missing(session, match_id, *missing)
        with session.begin():
            return records.version(session, match_id), records.load(session, match_id, room_id, seats)


def _read_one(session_factory, match_id: str, seat: int) -> float | None:
    with session_factory() as session:
        return records.read_one(session, match_id, seat)


