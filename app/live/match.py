"""The one interface of a match, whatever runs it: ``Match``.

A room, the routers and the hub use a match only through this protocol. Two things implement it,
each by composing its own parts, never by overriding the other:

- ``app.live.runner.MatchRunner``: the match runs here (the one process, or the cluster's owner):
  it applies actions, commits them and runs the timers (``timers.MatchTimers``) and views
  (``views.MatchViews``);
- ``app.cluster.mirror.MirrorMatch``: the match runs in another process of the cluster: it keeps
  the owner's encoded views and forwards actions to it; its timer calls do nothing (the owner
  runs them).

Whoever places a match in a room (``app.live.hub.Hub`` in one process,
``app.cluster.placement.Placement`` in a cluster) decides which; nobody afterwards asks which
kind a room holds: what differs is behind these methods."""

from __future__ import annotations

import asyncio
from typing import Protocol

from app.live.wire import Encoded
from engines.protocol import Engine


class MatchListener(Protocol):
    """Told by a match of each new version (a room pushes the views; a cluster owner also
    publishes them) and of its end."""

    def on_advanced(self, match: "Match") -> None: ...
    def on_finished(self, match: "Match") -> None: ...


class MatchEvents(Protocol):
    """Notifications of a match's changes (app/push/events.py): only where the match runs."""

    def started(self, match) -> None: ...
    def advanced(self, match, before: frozenset[int], ended: bool) -> None: ...


class Match(Protocol):
    match_id: str
    engine: Engine  # the game's engine (``engines.get``): its id, and its rules for the routers
    num_players: int
    version: int  # the latest version this process knows
    # "running", or "aborted" when an admin stopped it (then it takes no more actions)
    status: str
    listener: MatchListener | None
    # Set by the room whenever its seats change (bots, zombie seats).
    bot_seats: set[int]
    bot_levels: dict[int, str]
    bot_think_seconds: float
    zombie_seats: set[int]  # the bot seats that play for an absent person (a subset of ``bot_seats``)
    unattended: bool  # no person is at the table (its bots wait: app/live/timers.py)
    lock: asyncio.Lock  # held while an action is applied (and by REST changes that must not cross one)
    closing: bool  # the server is draining: actions not yet started are refused
    events: MatchEvents | None  # notifications: set on the match that runs here, None on a mirror

    @property
    def finished(self) -> bool: ...

    def current(self, seat: int | None) -> Encoded:
        """The current version's ``view`` message for ``seat`` (None = spectators), encoded once
        (its fields: ``.message``)."""

    def missed_views(self, seat: int | None, since: int) -> list[Encoded] | None:
        """The views after ``since``, encoded, if they are all kept, else None (the client gets
        one full view instead)."""

    async def submit(self, seat: int, action, version: int | None) -> int:
        """Apply (or have applied) one action; the new version, or ``ApiError`` and no change.
        Once it returns, ``current`` shows that version or a later one."""

    async def caught_up(self) -> None:
        """Return once ``current`` shows every version the match had when this was called: what
        a REST read needs behind a load balancer (an action acknowledged by one process is seen
        by a read through another). The match that runs here is always caught up."""

    def start_clocks(self) -> None:
        """Clocks of the current state as if every awaited seat just became awaited."""

    def reschedule(self) -> None:
        """Cancel this version's automatic steps and start the ones the current state calls for."""

    def stop(self) -> None:
        """Stop every timer (the match is handed over, aborted or the server stops)."""

    async def reload_deadlines(self) -> None:
        """Read a correspondence match's deadlines again (a vacation moved them); only its owner
        runs them, so a mirror does nothing."""
