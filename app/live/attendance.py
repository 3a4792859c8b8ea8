"""Attendance: whether a person is at a live table (app/live/timers.py: with nobody there, its bots
wait and the match is aborted after UNATTENDED_END_SECONDS). A seated player who has not left is
there while a socket or stream of theirs is connected (a cluster counts every process's), or for
``REST_PRESENCE_SECONDS`` after a REST call of theirs about the room (start, join, view, action):
a program playing over REST polls, it keeps no socket open. Spectators and bots are nobody.
Decided where the room's absence watch runs (the match's owner in a cluster)."""

from __future__ import annotations

import asyncio
import weakref
from collections import Counter
from typing import Any, Protocol

from app.live.match import Match


class Room(Protocol):
    """What the attendance reads of its room (``LiveRoom``)."""

    runner: Match | None
    absence: Any  # app/live/zombies.py ``AbsenceWatch`` (its clock), or None where it does not run
    summary_base: dict

    def connection_counts(self) -> Counter: ...
    def configure(self, runner: Match) -> None: ...

# As long as the default grace (ZOMBIE_GRACE_SECONDS).
REST_PRESENCE_SECONDS = 60.0


class Attendance:
    def __init__(self, room: Room) -> None:
        self._room = weakref.ref(room)  # (the room holds this: no reference cycle)
        self.seen_at: dict[str, float] = {}  # player id -> their latest REST call about the room
        self._task: asyncio.Task | None = None  # looks again when the last such call stops counting
        self._due: float | None = None

    def seen(self, player_id: str) -> None:
        room = self._room()
        if room is not None and room.absence is not None:
            self.seen_at[player_id] = room.absence.clock.now()
            self.check()

    def here(self) -> tuple[bool, float | None]:
        """Whether a seated person is here, and, when only REST calls say so, until when."""
        room = self._room()
        if room is None:
            return False, None
        people = {s["player_id"] for s in room.summary_base.get("seats", [])
                  if s["player_id"] and not s["bot"] and not s.get("left")}
        connected = room.connection_counts() if people else {}
        if any(connected.get(player_id) for player_id in people):
            return True, None
        for player_id in [p for p in self.seen_at if p not in people]:
            del self.seen_at[player_id]
        if room.absence is None:  # (a cluster's other processes: the owner decides)
            return False, None
        until = max((self.seen_at[p] + REST_PRESENCE_SECONDS for p in people if p in self.seen_at), default=None)
        return (True, until) if until is not None and until > room.absence.clock.now() else (False, None)

    def check(self) -> None:
        """After a change of who is connected, seated or calling: the runner's bots wait while
        nobody is here (and the wait's abort is armed), and play again when someone is back."""
        room = self._room()
        runner = room.runner if room is not None else None
        if room is None or runner is None or room.absence is None:
            return
        before = runner.unattended
        room.configure(runner)
        running = runner.status == "running" and not runner.finished
        if runner.unattended != before and running:
            runner.reschedule()
        self._arm(room.absence.clock, self.here()[1] if running else None)

    def _arm(self, clock, when: float | None) -> None:
        if when == self._due:
            return
        self.stop()
        if when is None:
            return
        try:
            self._task = asyncio.get_running_loop().create_task(self._at(clock, when))
            self._due = when
        except RuntimeError:  # no loop (a synchronous caller at shutdown): nothing to time
            pass

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._task = self._due = None

    async def _at(self, clock, when: float) -> None:
        await clock.sleep_until(when)
        self._task = self._due = None
        self.check()
