"""The engine protocol every game implements, and the two tiers of errors.

Every game is a package ``engines/<id>/`` of the same shape (in the manner of OpenSpiel's
``kuhn_poker.py``): ``engine.py`` holds, in this order, a docstring with the rules' gist and the
action shapes, the metadata (``ID``, ``TITLE``, ``TITLE_JA``, ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``VERSION``,
``OPTIONS``), the state, ``new_game``, ``awaiting``, ``legal_actions``, ``apply``, ``view`` (the one
place per-seat views are built), ``outcome``, persistence, clocks and checks, and private helpers:
module functions only. ``data.py`` holds the rules' tables; ``__init__.py`` makes the engine object
from ``engine.py`` (``ENGINE = engine_of(engine)``, below). A game may add a module of pure rules
arithmetic (Peribit's ``scoring.py``, Three Magic's ``spells.py``); nothing in a game package
imports ``engine.py`` but ``__init__.py``, so there are no import cycles. Keeping the object out of
``engine.py`` keeps the rules plain functions, which the optional compiled build
(``scripts/compile_engines.py``, mypyc) compiles module by module; the object is made here, in
Python, either way.

Required members: ``id``, ``title``, ``min_players``, ``max_players``, ``new_game``, ``awaiting``,
``legal_actions``, ``apply``, ``view``, ``outcome``, ``state_to_json``, ``state_from_json``.

Optional members, declared here with defaults (callers never probe with ``hasattr``):
- ``version`` ("1"): engine version string recorded in exports.
- ``options`` (none): option specs ``{"name", "type", "default", ...}`` shown in the catalog.
- ``delay(state) -> float`` (0): seconds the server waits before taking the SYSTEM step.
- ``clock_seconds(state, seat) -> float | None`` (None: no clock): clock length for that seat's
  pending input. When it runs out the server applies ``on_timeout(state, seat)``: as that seat when
  the action is one of the seat's legal actions, otherwise as the pseudo-seat SYSTEM (a server-only
  action such as ``{"type": "timeout", "seat": s}`` that may carry a penalty).
- ``on_timeout(state, seat) -> dict`` (refused: no clock): the action applied for a late seat.
- ``check_invariants(state) -> None`` (nothing to check): raises ``AssertionError`` if a
  conservation law broke.
- ``shown_awaiting(state) -> frozenset[int]`` (``awaiting``): the seats every view shows as awaited,
  with a clock each, when that must hide who has already given a secret answer (Three Magic's call
  window shows both other seats until it closes); a superset of ``awaiting``. The server still
  applies moves, runs clocks and moves bots for ``awaiting`` only.

Actions: ``apply`` refuses anything malformed (not a dict, an unknown or non-string type, missing,
extra or mistyped fields: lists, dicts, None, huge numbers) with ``InvalidAction``, and a
well-formed action that is not legal now with ``IllegalAction``; never another exception, and it
never changes its input state. A view is a new object each time: it shares no mutable part with
the state, with another seat's view or with the engine's tables, so a caller may change it.

Seats: every function taking a seat accepts only real ints in range (``check_seat``), ``None``
(spectator) in ``view`` and ``SYSTEM`` in ``legal_actions``/``apply``; anything else (``True``,
``7``, ``"1"``) raises ``InvalidAction``.

Automatic steps: ``SYSTEM`` (-1) is a pseudo-seat. ``awaiting`` contains it when the next step is
the server's; then ``legal_actions(state, SYSTEM)`` has exactly one action. ``awaiting`` is empty
exactly when the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

SYSTEM = -1


class IllegalAction(ValueError):
    """The action is well formed but not legal now (wrong seat, wrong phase, against the rules).

    ``InvalidAction`` is caught by ``except IllegalAction`` too, since malformed input is also
    not legal; catch ``InvalidAction`` first to tell them apart.
    """


class InvalidAction(IllegalAction):
    """The action is malformed: not a dict, unknown type, missing or mistyped fields."""


class Engine:
    """The engine protocol as a base class. ``engine_of`` makes a game's engine object as a subclass
    of it: the game's metadata, and its ``engine.py`` functions as the members; the optional members
    keep these defaults unless the game has them."""

    id: str
    title: str
    title_ja: str  # the title on Japanese pages
    min_players: int
    max_players: int
    version: str = "1"
    options: Sequence[dict] = ()

    def new_game(self, num_players: int, seed: int, options: dict | None = None, /) -> Any:
        raise NotImplementedError

    def awaiting(self, state: Any, /) -> frozenset[int]:
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int, /) -> list[dict]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: dict, /) -> Any:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None, /) -> dict:
        raise NotImplementedError

    def outcome(self, state: Any, /) -> dict | None:
        raise NotImplementedError

    def state_to_json(self, state: Any, /) -> dict:
        raise NotImplementedError

    def state_from_json(self, data: dict, /) -> Any:
        raise NotImplementedError

    def delay(self, state: Any, /) -> float:
        return 0.0

    def clock_seconds(self, state: Any, seat: int, /) -> float | None:
        return None

    def on_timeout(self, state: Any, seat: int, /) -> dict:
        raise IllegalAction(f"{self.id} has no clock: no timeout applies to seat {seat!r}")

    def check_invariants(self, state: Any, /) -> None:
        return None

    def shown_awaiting(self, state: Any, /) -> frozenset[int]:
        """The seats the views show as awaited (a superset of ``awaiting``): by default exactly those."""
        return self.awaiting(state)

    def first_player(self, state: Any, /) -> int | None:
        """The seat that decides first in a new game: by default the one seat awaited at the start
        (None when several act at once, as in Peribit). Game nights rotate it (app/nights)."""
        awaited = [seat for seat in self.awaiting(state) if seat != SYSTEM]
        return awaited[0] if len(awaited) == 1 else None

    def public_action(self, after: Any, seat: int, action: dict, /) -> dict | None:
        """What the other seats and spectators learn of ``seat``'s ``action`` as it is made (``after``:
        the state it led to): the part a replay may show them ("Ben stacked a chip, sun side up").
        None (the default): only that the seat acted. A game keeps every field that its views
        make public at that moment, and no field that tells apart moves its views do not."""
        return None

    def teams(self, state: Any, /) -> list[list[int]] | None:
        """The teams of a new game (lists of seats), for a team game; None for free-for-all. Game
        nights mix them fairly over the night (app/nights)."""
        return None

    def __repr__(self) -> str:
        return f"<engine {self.id}>"


# The members a game's engine.py may define as module functions (the required ones and the optional).
MEMBERS = ("new_game", "awaiting", "legal_actions", "apply", "view", "outcome", "state_to_json",
           "state_from_json", "delay", "clock_seconds", "on_timeout", "check_invariants", "first_player",
           "teams", "public_action", "shown_awaiting")


def engine_of(rules: ModuleType) -> Engine:
    """The engine object of a game's ``engine.py``: its metadata, and each of ``MEMBERS`` the
    module defines as a function; a member it does not define keeps ``Engine``'s default."""
    members: dict[str, Any] = {name: staticmethod(getattr(rules, name)) for name in MEMBERS if hasattr(rules, name)}
    metadata = {"id": rules.ID, "title": rules.TITLE, "title_ja": rules.TITLE_JA, "min_players": rules.MIN_PLAYERS,
                "max_players": rules.MAX_PLAYERS, "version": rules.VERSION, "options": rules.OPTIONS}
    name = "".join(part.title() for part in rules.ID.split("_")) + "Engine"
    return type(name, (Engine,), {**metadata, **members, "__module__": Engine.__module__})()


def check_seat(seat, num_players: int, *, spectator: bool = False, system: bool = False):
    """Return ``seat`` if it is a real seat number (an int, not a bool) in ``0..num_players-1``;
    ``None`` (a spectator) and ``SYSTEM`` pass only where allowed. Anything else raises
    ``InvalidAction`` naming the value: engine functions call this first, so ``True`` is never
    taken for seat 1 nor ``7`` for a spectator."""
    if seat is None and spectator:
        return None
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < num_players or (system and seat == SYSTEM):
            return seat
    allowed = f"0..{num_players - 1}" + (", None (spectator)" if spectator else "") + \
        (f", {SYSTEM} (the server)" if system else "")
    raise InvalidAction(f"seat {seat!r} is not a seat of this {num_players}-player game (expected {allowed})")


CLOCK_OPTION = "turn_seconds"
# The shortest per-decision clock a host may set, other than 0 (no clock): time to read the table
# and click on a phone over a slow link. A spec's ``floor``: the rooms refuse a value between 0 and
# it (app/routers/rooms.py ``check_timing``); the engines still play any value, so a match recorded
# with a shorter clock replays (docs/decisions/2026-12-07-timing-floors.md).
CLOCK_FLOOR = 10


def clock_option(default: int, what_en: str, what_ja: str) -> dict:
    """The per-decision clock every game offers (room option ``turn_seconds``; Peribit's is its
    rules' ``placement_clock``). ``what_*`` says what the server does for a seat whose time runs out.
    ``clock``: the option is a live table's clock (a correspondence table's deadlines replace it),
    so a page offers it only for a live table."""
    return {"name": CLOCK_OPTION, "type": "int", "default": default, "min": 0, "max": 600, "floor": CLOCK_FLOOR,
            "clock": True,
            "label_en": f"Clock per decision (seconds, 0 = none, else {CLOCK_FLOOR} or more; when it runs out: {what_en})",
            "label_ja": f"1手の持ち時間(秒、0=なし、それ以外は{CLOCK_FLOOR}以上。時間切れ: {what_ja})"}


def seat_clock(seconds: float, seat: int, awaited: frozenset) -> float | None:
    """``clock_seconds`` for one seat: the room's clock while that seat is awaited; None when the
    room has no clock (0), for SYSTEM, and for a seat nobody waits for."""
    if seconds <= 0 or seat == SYSTEM or seat not in awaited:
        return None
    return float(seconds)


def resolve_options(specs: Sequence[dict], options: dict | None) -> dict:
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
