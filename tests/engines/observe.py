"""What a seat observes of a game, and a check of log entries against the rules' own list of who
may see each private detail (shared by the games' no-leak tests).

``observed`` is everything the server sends a seat or lets it time: leak tests compare it, not the
view alone, so a leak through ``awaiting``, the seat's legal actions, the clocks or a SYSTEM delay
fails as surely as one in the view.

``log_leaks`` takes a per-game table written from the rules' "Hidden information" section — for
each kind of log entry, the keys anyone may see and, per private key, who may see it — rather than
the engine's own "seen by" lists, so an engine that files a secret under a public key, or shows it
to the wrong seats, fails."""

from __future__ import annotations

import json
from typing import Callable

from engines.protocol import SYSTEM


def view_json(engine, state, seat: int | None) -> str:
    """``seat``'s view alone as canonical JSON (sorted keys), for comparing two views."""
    return json.dumps(engine.view(state, seat), sort_keys=True)


def observed(engine, state, seat: int | None, num_players: int) -> str:
    awaited = engine.awaiting(state)
    clocks = [engine.clock_seconds(state, s) for s in range(num_players)] if hasattr(engine, "clock_seconds") else None
    return json.dumps({
        "view": engine.view(state, seat),
        "awaiting": sorted(awaited),
        "legal": engine.legal_actions(state, seat) if seat is not None else None,
        "clocks": clocks,
        "system": engine.legal_actions(state, SYSTEM) if SYSTEM in awaited else None,
        "delay": engine.delay(state) if hasattr(engine, "delay") and SYSTEM in awaited else None,
        "outcome": engine.outcome(state),
    }, sort_keys=True)


class LogRule:
    """One kind of log entry: ``public`` keys anyone may see; ``private`` maps a key to a function
    of the entry giving the seats that may see it."""

    def __init__(self, public: set[str], private: dict[str, Callable[[dict], set]] | None = None):
        self.public = set(public)
        self.private = private or {}


def log_leaks(entries: list[dict], viewer: int | None, rules: dict[str, LogRule], kind_key: str,
              marker: set[str] = frozenset()) -> list[str]:
    """Problems found in ``entries`` (a view's log as ``viewer`` got it): an unknown kind, a key the
    rules do not list, a private key shown to a seat the rules do not name. ``marker`` keys (such as
    ``private: true``) may accompany private details shown to their rightful seats."""
    problems = []
    for entry in entries:
        kind = entry.get(kind_key)
        rule = rules.get(kind)
        if rule is None:
            problems.append(f"unknown log entry kind {kind!r}: {entry}")
            continue
        allowed = set(rule.public) | {kind_key}
        entitled = False
        for key, who in rule.private.items():
            if viewer is not None and viewer in who(entry):
                allowed.add(key)
                entitled = True
        if entitled:
            allowed |= set(marker)
        extra = set(entry) - allowed
        if extra:
            problems.append(f"seat {viewer} sees {sorted(extra)} in {entry}")
    return problems
