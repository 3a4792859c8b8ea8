"""The engine protocol every game implements, and the two tiers of errors.

Required members (other code and outside checks rely on exactly these):
``id``, ``title``, ``min_players``, ``max_players``, ``new_game``, ``awaiting``,
``legal_actions``, ``apply``, ``view``, ``outcome``, ``state_to_json``, ``state_from_json``.

Optional members, used by the server when present:
- ``options``: list of option specs ``{"name", "type", "default", ...}`` shown in the catalog.
- ``delay(state) -> float``: seconds the server waits before taking the SYSTEM step.
- ``on_timeout(state, seat) -> dict``: the action applied for a seat whose clock ran out.
- ``clock_seconds(state, seat) -> float | None``: clock length for that seat's pending input (None = no clock).
  When it runs out the server applies ``on_timeout(state, seat)``: as that seat when the action is
  one of the seat's legal actions, otherwise as the pseudo-seat SYSTEM (a server-only action such
  as ``{"type": "timeout", "seat": s}`` that may carry a penalty).
- ``check_invariants(state) -> None``: raises ``AssertionError`` if a conservation law broke.
- ``version``: engine version string recorded in exports.

Automatic steps: ``SYSTEM`` (-1) is a pseudo-seat. ``awaiting`` contains it when the next step is
the server's; then ``legal_actions(state, SYSTEM)`` has exactly one action. ``awaiting`` is empty
exactly when the game is over.
"""

from __future__ import annotations

from typing import Any, Protocol

SYSTEM = -1


class IllegalAction(ValueError):
    """The action is well formed but not legal now (wrong seat, wrong phase, against the rules).

    ``InvalidAction`` is caught by ``except IllegalAction`` too, since malformed input is also
    not legal; catch ``InvalidAction`` first to tell them apart.
    """


class InvalidAction(IllegalAction):
    """The action is malformed: not a dict, unknown type, missing or mistyped fields."""


class Engine(Protocol):
    id: str
    title: str
    min_players: int
    max_players: int

    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> Any: ...
    def awaiting(self, state: Any) -> frozenset[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[dict]: ...
    def apply(self, state: Any, seat: int, action: dict) -> Any: ...
    def view(self, state: Any, seat: int | None) -> dict: ...
    def outcome(self, state: Any) -> dict | None: ...
    def state_to_json(self, state: Any) -> dict: ...
    def state_from_json(self, data: dict) -> Any: ...


def resolve_options(specs: list[dict], options: dict | None) -> dict:
    """Fill defaults and validate ``options`` against ``specs``; ``InvalidAction`` names the bad key."""
    options = dict(options or {})
    known = {spec["name"]: spec for spec in specs}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidAction(f"unknown option(s) {unknown}; known: {sorted(known)}")
    resolved = {}
    for name, spec in known.items():
        value = options.get(name, spec["default"])
        kind = spec["type"]
        if kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind == "float":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        elif kind == "choice":
            ok = value in spec["choices"]
        else:
            ok = True
        if ok and kind in ("int", "float"):
            ok = spec.get("min", value) <= value <= spec.get("max", value)
        if not ok:
            raise InvalidAction(f"option {name!r} has invalid value {value!r} (spec: {spec})")
        resolved[name] = value
    return resolved


_REQUIRED_FUNCTIONS = ("new_game", "awaiting", "legal_actions", "apply", "view", "outcome",
                       "state_to_json", "state_from_json")
_OPTIONAL_FUNCTIONS = ("delay", "clock_seconds", "on_timeout", "check_invariants")


class ModuleEngine:
    """The engine object for a rules module written as plain functions and constants.

    The module defines ``ID``, ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``VERSION``, ``OPTIONS``,
    the required protocol functions, and any of the optional ones; this exposes them as members."""

    def __init__(self, rules):
        self.id = rules.ID
        self.title = rules.TITLE
        self.min_players = rules.MIN_PLAYERS
        self.max_players = rules.MAX_PLAYERS
        self.version = rules.VERSION
        self.options = rules.OPTIONS
        for name in _REQUIRED_FUNCTIONS:
            setattr(self, name, getattr(rules, name))
        for name in _OPTIONAL_FUNCTIONS:
            if hasattr(rules, name):
                setattr(self, name, getattr(rules, name))

    def __repr__(self) -> str:
        return f"<engine {self.id}>"
