"""A runner's path for the platform's requests (app/endings): resign, abort, decline, claim.

Decided with who sits and who is present now, logged under ``PLATFORM`` as one version of its
own (not tied to a move or a turn), committed before memory changes, like any action. Composed
by ``MatchRunner``, which calls ``apply`` with its lock held."""

from __future__ import annotations

import asyncio
import logging
import weakref

from app.endings import actions as platform
from app.errors import ApiError
from app.store import LogEntry
from engines.protocol import SYSTEM

log = logging.getLogger("asobiba.runner")


class PlatformPath:
    def __init__(self, runner):
        self._runner = weakref.ref(runner)  # a ``MatchRunner``, weakly: as ``MatchViews`` holds it

    @property
    def runner(self):
        return self._runner()

    def seats(self) -> platform.Seats:
        runner = self.runner
        view = runner.engine.view(runner.state, None)
        teams = view.get("teams") if isinstance(view, dict) else None
        return platform.Seats(runner.num_players, teams or None, frozenset(runner.bot_seats - runner.zombie_seats),
                              frozenset(runner.zombie_seats))

    async def apply(self, seat: int, request: dict) -> tuple[int, int]:
        """The new version and the number of versions it took (one)."""
        runner = self.runner
        if seat == SYSTEM or not 0 <= seat < runner.num_players:
            raise ApiError(403, "not_seated", "only a seated player can resign, abort or claim")
        try:
            logged = platform.decide(runner.table, seat, request, self.seats())
        except platform.PlatformRefusal as exc:
            raise ApiError(exc.status, exc.code, exc.message) from None
        return await self.record(logged)

    async def record(self, logged: dict) -> tuple[int, int]:
        """Log one decided platform action (also a correspondence deadline's ``timeout`` end,
        app/correspondence/path.py); the runner's lock is held."""
        runner = self.runner
        table = platform.fold(runner.table, logged)
        ended = table.ended is not None
        entry = LogEntry(runner.match_id, runner.version, platform.PLATFORM, logged,
                         runner.engine.state_to_json(runner.state) if ended else None, table.ended,
                         status=table.status)
        committed = runner.writer.append(entry)
        try:
            await asyncio.shield(committed)
        except asyncio.CancelledError:
            await asyncio.wait([committed])
            if not committed.cancelled() and committed.exception() is None:
                self._advance(table, ended)
            raise
        self._advance(table, ended)
        return runner.version, 1

    def _advance(self, table: platform.Table, ended: bool) -> None:
        runner = self.runner
        runner.table = table
        runner.timers.follow_proposals()  # a proposal open pauses the clocks, one closed resumes them
        if ended:
            runner.status = table.status
        before = runner.awaited
        runner.state = runner.state  # awaits nobody once the table has ended
        runner.version += 1
        runner.views.advanced(runner.version, runner.state, table)
        if ended:
            runner.timers.deadlines = {}
            log.info("match ended early", extra={"game": runner.engine.id, "version": runner.version,
                                                 "match_id": runner.match_id})
        if runner.listener is not None:
            runner.listener.on_advanced(runner)
            if ended:
                runner.listener.on_finished(runner)
        if runner.events is not None:
            runner.events.advanced(runner, before, ended)
        runner.reschedule()
