"""The "12 hours left" event of a correspondence deadline: the hook other parts (Web Push, issue
31.4) plug their sender into, and the owner's timer that emits it.

``TWELVE_HOURS_LEFT`` is a list of functions; each is called with a ``Reminder`` on the event loop
of the match's owner, exactly once per deadline over the whole cluster: the owner arms a timer at
12 hours before each person's deadline and, when it wakes, flips the deadline's ``warned`` in the
database with a conditional update (``records.mark_warned``); only the process whose update
changed the row emits. A new owner after a take-over, or the same after a restart, reads
``warned`` back and does not emit again (a process that dies between the update and the call
loses that one event: at most once, never twice). A deadline moved by a vacation or a new decision
is a new deadline with its own event. A function may return an awaitable (run in the background);
one that fails is logged and does not stop the others."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from app.correspondence import pace, records

log = logging.getLogger("asobiba.correspondence")


@dataclass(frozen=True)
class Reminder:
    """What the "12 hours left" event says: whose decision (seat and player), in which room and
    match, due when (the server clock's seconds, like the views' ``deadlines`` / 1000)."""

    room_id: str
    match_id: str
    game: str
    seat: int
    player_id: str | None
    due_at: float


TWELVE_HOURS_LEFT: list[Callable[[Reminder], Awaitable[None] | None]] = []


class Reminders:
    """The owner's timer for one correspondence match (composed by ``CorrespondencePath``)."""

    def __init__(self, path: Any):
        self.path = path  # the match's ``CorrespondencePath``: runner, seats, warned, database
        self._warning: asyncio.Task | None = None
        self._warning_due: float | None = None
        self._emitting: set[asyncio.Task] = set()

    def arm(self, deadlines: dict[int, float], bots: set[int]) -> None:
        """Sleep until the first deadline (of a person, not warned yet) reaches 12 hours left."""
        due = min((when - pace.WARN_BEFORE for seat, when in deadlines.items()
                   if seat not in self.path.warned and seat not in bots), default=None)
        if due == self._warning_due and self._warning is not None:
            return
        self.stop()
        if due is not None:
            self._warning_due = due
            self._warning = asyncio.create_task(self._warn_at(due))

    def stop(self) -> None:
        if self._warning is not None:
            self._warning.cancel()
        self._warning = self._warning_due = None

    async def _warn_at(self, when: float) -> None:
        path = self.path
        runner = path.runner
        await runner.clock.sleep_until(when)
        self._warning = self._warning_due = None
        now = runner.clock.now()
        for seat, due in sorted(runner.timers.deadlines.items()):
            if seat in path.warned or seat in runner.bot_seats or due - pace.WARN_BEFORE > now:
                continue
            path.warned.add(seat)
            try:
                won = await path.database(_mark_warned, runner.match_id, seat, due)
            except Exception:
                log.exception("could not mark the 12-hours warning of match %s seat %s", runner.match_id, seat)
                continue
            if won:
                player = path.seats[seat].get("player_id") if seat < len(path.seats) else None
                self._emit(Reminder(path.room_id, runner.match_id, runner.engine.id, seat, player, due))
        if not runner.closing:
            self.arm(runner.timers.deadlines, runner.bot_seats)

    def _emit(self, reminder: Reminder) -> None:
        log.info("12 hours left", extra={"match_id": reminder.match_id, "seat": reminder.seat,
                                         "event": "twelve_hours_left"})
        for hook in list(TWELVE_HOURS_LEFT):
            try:
                result = hook(reminder)
            except Exception:
                log.exception("a 12-hours-left hook failed")
                continue
            if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
                task = asyncio.ensure_future(result)
                self._emitting.add(task)
                task.add_done_callback(self._emitting.discard)


def _mark_warned(session_factory, match_id: str, seat: int, due: float) -> bool:
    with session_factory() as session:
        return records.mark_warned(session, match_id, seat, due)
