"""What a running match shows each seat: the ``view`` message of a version, computed for one seat
(None = spectators) and encoded once per version and seat, and the versions kept for clients
that reconnect (``resync_window``). Composed by ``MatchRunner``, which tells it of each version."""

from __future__ import annotations

import weakref
from collections import Counter, deque
from typing import Any, Protocol

from app.endings import actions as platform
from app.live.wire import Encoded
from engines.protocol import Engine


class Shown(Protocol):
    """What the views read of their runner (``MatchRunner``)."""

    match_id: str
    engine: Engine
    state: Any
    version: int
    awaited: frozenset[int]
    shown: frozenset[int]  # the seats the views show as awaited (``shown_awaiting``)
    table: platform.Table

    @property
    def deadlines(self) -> dict[int, float]: ...


def shown_awaiting(engine: Engine, state, awaited: frozenset[int]) -> frozenset[int]:
    """The seats the views show as awaited, each with a deadline (``Engine.shown_awaiting``): the
    ``awaited`` ones themselves unless the game shows more (Three Magic's call window)."""
    if not awaited or type(engine).shown_awaiting is Engine.shown_awaiting:
        return awaited
    return engine.shown_awaiting(state)


class MatchViews:
    def __init__(self, runner: Shown, resync_window: int):
        # Weakly: the runner holds its views, and a back-reference would make every finished
        # match a reference cycle (~200 objects with its kept states) that only a full garbage
        # collection frees (app/observability/gc_tuning.py). Reached only through its runner.
        self._runner = weakref.ref(runner)
        # (version, state, platform table) of the versions kept for reconnects
        self.history: deque[tuple[int, object, platform.Table]] = deque([(runner.version, runner.state, runner.table)],
                                                                        maxlen=resync_window + 1)
        # Past versions' views per seat, made the first time a reconnect asks for one and kept while
        # their version is in ``history``, so a flood of reconnects is sent frames already made, not
        # views computed again. (Not every view pushed at the time: keeping those for every room
        # would cost memory for the few rooms where someone reconnects.)
        self._past: dict[int, dict[int | None, Encoded]] = {}
        # The current version's message per seat (None = spectators), encoded once (not kept as a
        # dict: see ``Encoded.of``).
        self._current: dict[int | None, Encoded] = {}
        # How many messages were encoded, per seat (None = spectators): once per version at most.
        self.encodes: Counter[int | None] = Counter()

    @property
    def runner(self) -> Shown:
        return self._runner()  # type: ignore[return-value]  # (alive: its runner called)

    def advanced(self, version: int, state, table: platform.Table) -> None:
        """A new version is current (kept for reconnects; every seat's message is made anew)."""
        self.history.append((version, state, table))
        self._current = {}

    def forget_current(self) -> None:
        """The current version's messages are out of date (its clocks were restarted)."""
        self._current = {}

    def message(self, seat: int | None, state=None, version: int | None = None,
                table: platform.Table | None = None) -> dict:
        """The ``view`` message for one seat (None = spectator), computed for that seat only.
        ``table``: the platform's open votes and ending at that version (app/endings)."""
        runner = self.runner
        engine = runner.engine
        current = state is None
        state = runner.state if current else state
        table = runner.table if current else (table or platform.Table())
        version = runner.version if version is None else version
        if current:
            awaited, shown = runner.awaited, runner.shown
        elif table.ended is not None:
            awaited = shown = frozenset()
        else:
            awaited = engine.awaiting(state)
            shown = shown_awaiting(engine, state, awaited)
        # the seats shown awaited (``Engine.shown_awaiting``); moves only for a seat really awaited
        legal = engine.legal_actions(state, seat) if seat is not None and seat in awaited else []
        view = engine.view(state, seat)
        deadlines = runner.deadlines if current and table.ended is None else {}
        if shown != awaited and deadlines:  # a shown seat without its own clock shows the first one
            first = min(deadlines.values())
            deadlines = {s: deadlines.get(s, first) for s in shown if s >= 0}
        return {
            "type": "view", "version": version, "seat": seat, "match_id": runner.match_id,
            "view": view, "awaiting": sorted(shown), "legal_actions": legal,
            "deadlines": {str(s): int(t * 1000) for s, t in deadlines.items()},
            "outcome": platform.outcome(engine, state, table),
            "platform": table.as_view(seat, view.get("teams") if isinstance(view, dict) else None),
        }

    def current(self, seat: int | None) -> Encoded:
        """This version's message for ``seat``, encoded: computed and encoded once per version and
        seat, then shared by every socket of that seat (and every spectator)."""
        cached = self._current.get(seat)
        if cached is None:
            cached = self._current[seat] = Encoded.of(self.message(seat))
            self.encodes[seat] += 1
        return cached

    def missed(self, seat: int | None, since: int) -> list[Encoded] | None:
        """The encoded views of the versions after ``since``, or None when they are no longer kept
        (the caller sends one full view instead). Each seat's view of a past version is computed
        and encoded at most once, by the first reconnect that misses it, so a flood of reconnects
        costs frame writes, not view computations."""
        kept = [entry for entry in self.history if entry[0] > since]
        if since > self.runner.version or not kept or kept[0][0] != since + 1:
            return None
        oldest = self.history[0][0]
        for gone in [v for v in self._past if v < oldest]:  # left the window
            del self._past[gone]
        views = []
        for version, state, table in kept:
            if version == self.runner.version:
                views.append(self.current(seat))
                continue
            by_seat = self._past.setdefault(version, {})
            encoded = by_seat.get(seat)
            if encoded is None:
                encoded = by_seat[seat] = Encoded.of(self.message(seat, state, version, table))
                self.encodes[seat] += 1
            views.append(encoded)
        return views
