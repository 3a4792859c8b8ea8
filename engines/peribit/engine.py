"""Peribit (ペリビット), two players, simultaneous placement; rules: static/rules/peribit.html.

Gist: 36 stones (12 each of Bellum, Natura, Societas). Each round, 5 face-up stones start 5
lanes; each player holds 3 secret stones. Every placement is simultaneous: first an optional
exchange (give 2 hand stones for 1 random deck stone), then each player places one stone either
onto a lane whose first stone has the same mark or as a new lane (only for a mark no lane has).
Two stones onto the same lane collide and both join it; otherwise a stone placed onto a lane
captures the whole lane into the placer's public multa. Captures raise the round's metus (2-3
stones: +1, 4+: +n). Before every odd placement (Mane) hands refill to 3 and the field to 5 lanes;
if that would use the deck up (or needs more), the deck has run out and the round ends instead; it
also ends when metus reaches 12. Multas score by the best
single role of the house table (data.ROLES). Surplus metus carries to the next round only and sums
into Stella Metus; after round 3 the player with fewer round wins draws that many stones from the
deck into the round-3 multa (equal wins: split), round 3 is re-scored, and the higher 3-round total
wins.

Actions (JSON dicts):
- ``{"type": "exchange", "give": [mark, mark]}`` / ``{"type": "no_exchange"}`` (exchange step)
- ``{"type": "place", "lane": i, "mark": m}`` (onto lane ``i``; ``mark`` optional, must match)
- ``{"type": "new_lane", "mark": m}``
- SYSTEM only: ``{"type": "next_round"}`` (between rounds, the one legal SYSTEM action) and
  ``{"type": "timeout", "seat": s}``. The timeout is never in ``legal_actions``: the server applies
  ``on_timeout(state, s)`` as SYSTEM when seat ``s``'s clock (``clock_seconds``) ran out; it is
  accepted only while ``s`` is awaited and the ``placement_clock`` option is > 0. During the
  placement it makes ``s``'s first legal placement (``legal_actions(state, s)[0]``: lanes in order,
  then new lanes in hand order) and adds 1 metus; during the exchange step it records "no
  exchange" for ``s`` without penalty (house ruling).
"""

from __future__ import annotations

import random
from typing import Any

from engines.peribit import data
from engines.peribit.scoring import best_role
from engines.plain import copy_plain
from engines.protocol import CLOCK_FLOOR, SYSTEM, IllegalAction, InvalidAction, check_seat, resolve_options, seat_clock

ID = "peribit"
TITLE = "Peribit"
TITLE_JA = "ペリビット"
NUM_PLAYERS = 2
MIN_PLAYERS = MAX_PLAYERS = NUM_PLAYERS
VERSION = "2"  # 2: the round ends when the Mane refill would use the deck up (recorded per match)
MARKS = data.MARKS
MARK_INDEX = {name: i for i, name in enumerate(MARKS)}
SEATS = (0, 1)
LOG_KEEP = 12

OPTIONS = [
    {"name": "placement_clock", "type": "int", "default": 30, "min": 0, "max": 600, "floor": CLOCK_FLOOR, "clock": True,
     "label_en": f"Placement clock (seconds, 0 = none, else {CLOCK_FLOOR} or more; a late placement is made for you, metus +1)",
     "label_ja": f"配置の制限時間(秒・0 = なし、それ以外は{CLOCK_FLOOR}以上。時間切れは自動配置、メトゥス+1)"},
]

# Fields of each action type besides "type" (Peribit's "place" may also name its lane's "mark").
ACTION_FIELDS = {"exchange": {"give"}, "no_exchange": set(), "place": {"lane"}, "new_lane": {"mark"},
                 "next_round": set(), "timeout": {"seat"}}
PLAYER_TYPES = ("exchange", "no_exchange", "place", "new_lane")
SYSTEM_TYPES = ("next_round", "timeout")

# steps
EXCHANGE, PLACE, BETWEEN, OVER = "exchange", "place", "between_rounds", "over"


# ---------------------------------------------------------------------------------------- state

class State:
    """Immutable by convention: ``apply`` builds a new State, sharing unchanged tuples.

    Stones are mark indices 0..2. ``deck`` is face down, drawn from the front. ``lanes`` are
    ``(mark, stones)``. ``multas`` are per-mark counts. ``pending_ex[s]``: None = undecided,
    ``()`` = no exchange, ``(m, m)`` = the two marks given. ``pending_pl[s]``: None or
    ``(lane index | -1 for a new lane, mark, late)``; the stone stays in the hand until both placed.
    """

    seed: int
    options: dict
    round: int
    placement: int
    step: str
    deck: tuple[int, ...]
    lanes: tuple[tuple[int, int], ...]
    hands: tuple[tuple[int, ...], ...]
    multas: tuple[tuple[int, ...], ...]
    metus: int
    metus_start: int
    stella: int
    eligible: tuple[bool, ...]
    pending_ex: tuple[tuple[int, ...] | None, ...]
    pending_pl: tuple[Any, ...]  # per seat None or (lane, mark, late)
    drawn: tuple[int | None, ...]
    last_exchange: tuple[bool, ...] | None
    last: dict | None
    log: tuple[dict, ...]
    rounds: tuple[dict, ...]
    final: Any  # None until the end, then a dict
    shuffles: int

    def copy(self) -> "State":
        # Shallow (fields are tuples / never-mutated dicts), field by field: the compiled build
        # (mypyc) makes State a native class, which has no __dict__ to update from.
        new = State.__new__(State)
        new.seed = self.seed
        new.options = self.options
        new.round = self.round
        new.placement = self.placement
        new.step = self.step
        new.deck = self.deck
        new.lanes = self.lanes
        new.hands = self.hands
        new.multas = self.multas
        new.metus = self.metus
        new.metus_start = self.metus_start
        new.stella = self.stella
        new.eligible = self.eligible
        new.pending_ex = self.pending_ex
        new.pending_pl = self.pending_pl
        new.drawn = self.drawn
        new.last_exchange = self.last_exchange
        new.last = self.last
        new.log = self.log
        new.rounds = self.rounds
        new.final = self.final
        new.shuffles = self.shuffles
        return new


# ---------------------------------------------------------------------------------- rules


# -- setup ---------------------------------------------------------------------------------
def new_game(num_players: Any, seed: int, options: Any = None) -> State:
    if num_players != NUM_PLAYERS:
        raise InvalidAction(f"peribit is for exactly 2 players, not {num_players!r}")
    s = State.__new__(State)
    s.seed = seed
    s.options = resolve_options(OPTIONS, options)
    s.stella = 0
    s.rounds = ()
    s.log = ()
    s.final = None
    s.shuffles = 0
    s.last = None
    return _start_round(s, 1, 0)

# -- whose turn ----------------------------------------------------------------------------
def awaiting(state: State) -> frozenset[int]:
    step = state.step
    if step == PLACE:
        return frozenset(s for s in SEATS if state.pending_pl[s] is None)
    if step == EXCHANGE:
        return frozenset(s for s in SEATS if state.eligible[s] and state.pending_ex[s] is None)
    if step == BETWEEN:
        return frozenset((SYSTEM,))
    return frozenset()

def legal_actions(state: State, seat: Any) -> list[dict]:
    if check_seat(seat, NUM_PLAYERS, system=True) == SYSTEM:
        return [{"type": "next_round"}] if state.step == BETWEEN else []
    if state.step == PLACE and state.pending_pl[seat] is None:
        return _placements(state.lanes, state.hands[seat])
    if state.step == EXCHANGE and state.eligible[seat] and state.pending_ex[seat] is None:
        hand = state.hands[seat]
        pairs = sorted({tuple(sorted((hand[i], hand[j])))
                        for i in range(len(hand)) for j in range(i + 1, len(hand))})
        return [{"type": "no_exchange"}] + [
            {"type": "exchange", "give": [MARKS[a], MARKS[b]]} for a, b in pairs]
    return []

# -- apply ---------------------------------------------------------------------------------
def apply(state: State, seat: Any, action: Any) -> State:
    check_seat(seat, NUM_PLAYERS, system=True)
    kind = _validate(action)
    if seat == SYSTEM:
        if kind == "next_round":
            if state.step != BETWEEN:
                raise IllegalAction(f"{action!r}: the next round starts only between rounds "
                                    f"(now: {state.step}, round {state.round})")
            return _start_round(state.copy(), state.round + 1, state.rounds[-1]["surplus"])
        if kind == "timeout":
            return _timeout(state, action["seat"], action)
        raise IllegalAction(f"{action!r}: the server (SYSTEM) only takes next_round/timeout steps")
    if kind in SYSTEM_TYPES:
        raise IllegalAction(f"{action!r}: only the server takes {kind!r} steps")
    if seat not in awaiting(state):
        raise IllegalAction(f"seat {seat} is not awaited now (step {state.step}, round {state.round}, "
                            f"placement {state.placement}); refused {action!r}")
    if kind in ("exchange", "no_exchange"):
        if state.step != EXCHANGE:
            raise IllegalAction(f"{action!r}: exchanges are decided only in the exchange step (now {state.step})")
        give: tuple[int, ...] = ()
        if kind == "exchange":
            give = tuple(sorted(MARK_INDEX[m] for m in action["give"]))
            if not _has(state.hands[seat], give):
                raise IllegalAction(f"seat {seat} cannot give {action['give']!r}: hand is "
                                    f"{[MARKS[m] for m in state.hands[seat]]}")
        return _decide_exchange(state, seat, give)
    if state.step != PLACE:
        raise IllegalAction(f"{action!r}: stones are placed only in the placement step (now {state.step})")
    hand = state.hands[seat]
    if kind == "place":
        lane = action["lane"]
        if lane >= len(state.lanes):
            raise IllegalAction(f"{action!r}: there is no lane {lane} (the field has {len(state.lanes)} lanes)")
        mark = state.lanes[lane][0]
        if "mark" in action and MARK_INDEX[action["mark"]] != mark:
            raise IllegalAction(f"{action!r}: lane {lane} is a {MARKS[mark]} lane")
        if mark not in hand:
            raise IllegalAction(f"seat {seat} holds no {MARKS[mark]} stone for lane {lane}")
        return _decide_placement(state, seat, (lane, mark, False))
    mark = MARK_INDEX[action["mark"]]
    if mark not in hand:
        raise IllegalAction(f"seat {seat} holds no {MARKS[mark]} stone for a new lane")
    if any(lane_mark == mark for lane_mark, _ in state.lanes):
        raise IllegalAction(f"{action!r}: a {MARKS[mark]} lane exists, so no new {MARKS[mark]} lane")
    return _decide_placement(state, seat, (-1, mark, False))

# -- clocks and server steps ---------------------------------------------------------------
def clock_seconds(state: State, seat: Any) -> float | None:
    check_seat(seat, NUM_PLAYERS, system=True)
    return seat_clock(state.options["placement_clock"], seat, awaiting(state))

def on_timeout(state: State, seat: Any) -> dict:
    return {"type": "timeout", "seat": check_seat(seat, NUM_PLAYERS)}

def delay(state: State) -> float:
    return data.BETWEEN_ROUNDS_DELAY if state.step == BETWEEN else 0.0

# -- view ----------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------- view

def _multa_view(multa) -> dict:
    scored = _score(multa)
    return {"counts": {MARKS[m]: multa[m] for m in range(3)}, "total": sum(multa), **scored}


def _round_view(r: dict) -> dict:
    """``r`` is already a private copy."""
    r["multas"] = [{MARKS[m]: c[m] for m in range(3)} for c in r["multas"]]
    return r


def public_action(after: State, seat: int, action: dict) -> dict | None:
    """What the opponent learns of a choice as it is made: nothing while it waits for theirs (both
    choose at once); once both have chosen, a placement (the stones are on the table: the lane, or
    the new lane's mark) and of an exchange only that it was made (the stones given go back into
    the deck unseen)."""
    kind = action.get("type")
    if kind in SYSTEM_TYPES:  # the server's own steps: a new round, a clock that ran out
        return dict(action)
    if kind in ("exchange", "no_exchange"):
        return None if after.pending_ex[seat] is not None else {"type": kind}
    if after.pending_pl[seat] is not None:
        return None
    if kind == "place":  # (its optional mark left out: whether the client named it is not the table's)
        return {"type": "place", "lane": action.get("lane")}
    return {"type": "new_lane", "mark": action.get("mark")} if kind == "new_lane" else None


def view(s: State, seat: Any) -> dict:
    """Everything ``seat`` (None = spectator) may know. The only place views are built; every
    call builds new objects (nothing shared with the state or another seat's view)."""
    viewer = check_seat(seat, NUM_PLAYERS, spectator=True)
    step = s.step
    own_pending = None
    own_exchange = None
    if viewer is not None:
        p = s.pending_pl[viewer]
        if p is not None:
            own_pending = {"lane": p[0] if p[0] >= 0 else None, "mark": MARKS[p[1]],
                           "new_lane": p[0] < 0, "late": p[2]}
        e = s.pending_ex[viewer]
        if e is not None:
            own_exchange = [MARKS[m] for m in e]
    wins = [sum(1 for r in s.rounds if r["winner"] == x) for x in SEATS]
    last, log, rounds, final = copy_plain([s.last, list(s.log), list(s.rounds), s.final])
    return {
        "game": "peribit",
        "seat": viewer,
        "round": s.round,
        "rounds_total": data.ROUNDS,
        "placement": s.placement,
        "time": "mane" if s.placement % 2 else "nox",
        "step": step,
        "metus": s.metus,
        "metus_limit": data.METUS_LIMIT,
        "metus_start": s.metus_start,
        "stella_metus": s.stella,
        "lanes": [{"index": i, "mark": MARKS[m], "stones": n} for i, (m, n) in enumerate(s.lanes)],
        "deck_count": len(s.deck),
        "hand_counts": [len(h) for h in s.hands],
        "hand": None if viewer is None else [MARKS[m] for m in s.hands[viewer]],
        "drawn": None if viewer is None or s.drawn[viewer] is None else MARKS[s.drawn[viewer]],
        "multas": [_multa_view(m) for m in s.multas],
        "exchange": {
            "open": step == EXCHANGE,
            "can": list(s.eligible) if step == EXCHANGE else [False, False],
            "decided": [s.pending_ex[x] is not None for x in SEATS] if step == EXCHANGE else [False, False],
            "mine": own_exchange,
            "last": None if s.last_exchange is None else list(s.last_exchange),
        },
        "placed": [s.pending_pl[x] is not None for x in SEATS] if step == PLACE else [False, False],
        "my_placement": own_pending,
        "last_result": last,
        "log": log,
        "rounds": [_round_view(r) for r in rounds],
        "round_wins": wins,
        "final": final,
        "placement_clock": s.options["placement_clock"],
        "scoring": {"name_en": data.SCORING_NAME["en"], "name_ja": data.SCORING_NAME["ja"],
                    "roles": [{k: r[k] for k in ("id", "en", "ja", "condition_en", "condition_ja", "points_text")}
                              for r in data.ROLES]},
        "marks": [{"id": m, **data.MARK_LABELS[m]} for m in MARKS],
    }


# -- outcome -------------------------------------------------------------------------------
def outcome(state: State) -> dict | None:
    if state.step != OVER:
        return None
    final = state.final
    totals = final["totals"]
    winner = final["winner"]
    if winner is None:
        ranks = [0, 0]
        reason = f"draw: equal totals {totals[0]}–{totals[1]} over 3 rounds (house scoring)"
    else:
        ranks = [0 if s == winner else 1 for s in SEATS]
        reason = (f"seat {winner} wins with the higher total over 3 rounds, "
                  f"{totals[winner]} to {totals[1 - winner]} (house scoring)")
    return {"ranks": ranks, "scores": list(totals), "teams": None, "reason": reason}

# -- persistence and checks ----------------------------------------------------------------

def check_invariants(state: State) -> None:
    counts = [0, 0, 0]
    for m in state.deck:
        counts[m] += 1
    for mark, n in state.lanes:
        assert n >= 1, f"empty lane {mark}"
        counts[mark] += n
    for hand in state.hands:
        assert len(hand) <= data.HAND_SIZE, f"hand too big: {hand}"
        for m in hand:
            counts[m] += 1
    for multa in state.multas:
        assert all(c >= 0 for c in multa), multa
        for m in range(3):
            counts[m] += multa[m]
    assert counts == [data.STONES_PER_MARK] * 3, f"stones not conserved: {counts}"
    assert state.metus >= 0 and state.stella >= 0
    assert state.stella == sum(r["surplus"] for r in state.rounds)
    assert 1 <= state.round <= data.ROUNDS
    if state.step == PLACE:
        for s in SEATS:
            assert state.hands[s], f"seat {s} has no stone to place"
            p = state.pending_pl[s]
            if p is not None:
                lane, mark, _late = p
                assert mark in state.hands[s]
                assert (lane == -1 and all(m != mark for m, _ in state.lanes)) or state.lanes[lane][0] == mark
    if state.step == EXCHANGE:
        assert any(state.eligible), "an exchange step nobody can take"
    if state.step == OVER:
        assert state.final is not None and len(state.rounds) == data.ROUNDS


# --------------------------------------------------------------------------------- persistence

def state_to_json(state: State) -> dict:
    return {
        "seed": state.seed,
        "options": dict(state.options),
        "round": state.round,
        "placement": state.placement,
        "step": state.step,
        "deck": list(state.deck),
        "lanes": [list(lane) for lane in state.lanes],
        "hands": [list(h) for h in state.hands],
        "multas": [list(m) for m in state.multas],
        "metus": state.metus,
        "metus_start": state.metus_start,
        "stella": state.stella,
        "eligible": list(state.eligible),
        "pending_ex": [None if p is None else list(p) for p in state.pending_ex],
        "pending_pl": [None if p is None else list(p) for p in state.pending_pl],
        "drawn": list(state.drawn),
        "last_exchange": None if state.last_exchange is None else list(state.last_exchange),
        **copy_plain({"last": state.last, "log": list(state.log), "rounds": list(state.rounds), "final": state.final}),
        "shuffles": state.shuffles,
    }


def state_from_json(d: dict) -> State:
    s = State.__new__(State)
    s.seed = d["seed"]
    s.options = dict(d["options"])
    s.round = d["round"]
    s.placement = d["placement"]
    s.step = d["step"]
    s.deck = tuple(d["deck"])
    s.lanes = tuple(tuple(lane) for lane in d["lanes"])
    s.hands = tuple(tuple(h) for h in d["hands"])
    s.multas = tuple(tuple(m) for m in d["multas"])
    s.metus = d["metus"]
    s.metus_start = d["metus_start"]
    s.stella = d["stella"]
    s.eligible = tuple(d["eligible"])
    s.pending_ex = tuple(None if p is None else tuple(p) for p in d["pending_ex"])
    s.pending_pl = tuple(None if p is None else tuple(p) for p in d["pending_pl"])
    s.drawn = tuple(d["drawn"])
    s.last_exchange = None if d["last_exchange"] is None else tuple(d["last_exchange"])
    s.last = copy_plain(d["last"])
    s.log = tuple(copy_plain(d["log"]))
    s.rounds = tuple(copy_plain(d["rounds"]))
    s.final = copy_plain(d["final"])
    s.shuffles = d["shuffles"]
    return s


# ------------------------------------------------------------------------------------ helpers

def _validate(action) -> str:
    if not isinstance(action, dict):
        raise InvalidAction(f"action must be a dict, got {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise InvalidAction(f"unknown action type {kind!r} in {action!r}; known: "
                            f"{', '.join(PLAYER_TYPES + SYSTEM_TYPES)}")
    fields = set(action) - {"type"} - ({"mark"} if kind == "place" else set())
    if fields != ACTION_FIELDS[kind]:
        raise InvalidAction(f"{action!r}: a {kind!r} action has the fields {sorted(ACTION_FIELDS[kind])}"
                            + (" (and optionally 'mark')" if kind == "place" else ""))
    if kind == "exchange":
        give = action.get("give")
        if not isinstance(give, (list, tuple)) or len(give) != data.EXCHANGE_GIVE or \
                not all(isinstance(m, str) and m in MARK_INDEX for m in give):
            raise InvalidAction(f"{action!r}: 'give' must list exactly 2 marks out of {MARKS}")
    elif kind == "place":
        lane = action.get("lane")
        if not isinstance(lane, int) or isinstance(lane, bool) or lane < 0:
            raise InvalidAction(f"{action!r}: 'lane' must be a lane index (int >= 0)")
        if "mark" in action and (not isinstance(action["mark"], str) or action["mark"] not in MARK_INDEX):
            raise InvalidAction(f"{action!r}: 'mark' must be one of {MARKS}")
    elif kind == "new_lane":
        if not isinstance(action.get("mark"), str) or action["mark"] not in MARK_INDEX:
            raise InvalidAction(f"{action!r}: 'mark' must be one of {MARKS}")
    elif kind == "timeout":
        s = action.get("seat")
        if not isinstance(s, int) or isinstance(s, bool):
            raise InvalidAction(f"{action!r}: 'seat' must be a seat number")
    return kind


def _has(hand: tuple, stones: tuple) -> bool:
    rest = list(hand)
    for m in stones:
        if m not in rest:
            return False
        rest.remove(m)
    return True


def _without(hand: tuple, stones) -> tuple:
    rest = list(hand)
    for m in stones:
        rest.remove(m)
    return tuple(rest)


def _placements(lanes: tuple, hand: tuple) -> list[dict]:
    """Every legal placement, in the timeout order: lanes in order, then new lanes in hand order."""
    actions = [{"type": "place", "lane": i, "mark": MARKS[mark]}
               for i, (mark, _) in enumerate(lanes) if mark in hand]
    lane_marks = {mark for mark, _ in lanes}
    seen = set()
    for m in hand:
        if m not in lane_marks and m not in seen:
            seen.add(m)
            actions.append({"type": "new_lane", "mark": MARKS[m]})
    return actions


def _rng(state: State) -> random.Random:
    """A sub-RNG derived from the seed and the number of shuffles so far (exact replays)."""
    return random.Random(f"peribit:{state.seed}:{state.shuffles}")


def _push_log(state: State, *events: dict) -> None:
    state.log = (state.log + events)[-LOG_KEEP:]


def _start_round(s: State, number: int, carried: int) -> State:
    """Gather and shuffle all 36 stones, deal 5 lanes and 3 stones each (alternating from seat 0)."""
    stones = [m for m in range(3) for _ in range(data.STONES_PER_MARK)]
    _rng(s).shuffle(stones)
    s.shuffles += 1
    s.lanes = tuple((m, 1) for m in stones[:data.FIELD_LANES])
    rest = stones[data.FIELD_LANES:]
    hands: tuple[list[int], list[int]] = ([], [])
    for _ in range(data.HAND_SIZE):
        for seat in SEATS:
            hands[seat].append(rest.pop(0))
    s.hands = (tuple(hands[0]), tuple(hands[1]))
    s.deck = tuple(rest)
    s.multas = ((0, 0, 0), (0, 0, 0))
    s.round = number
    s.metus = s.metus_start = carried
    s.placement = 1
    s.pending_pl = (None, None)
    s.pending_ex = (None, None)
    s.drawn = (None, None)
    s.last_exchange = None
    s.last = None
    _push_log(s, {"kind": "round_start", "round": number, "metus": carried})
    return _begin_exchange(s)


def _begin_exchange(s: State) -> State:
    """Open the exchange step of the current placement (skipped when nobody can exchange)."""
    s.pending_ex = (None, None)
    s.pending_pl = (None, None)
    deck_ok = len(s.deck) >= data.EXCHANGE_GIVE  # enough for both players to be served
    s.eligible = tuple(deck_ok and len(h) >= data.EXCHANGE_GIVE for h in s.hands)
    s.last_exchange = None
    s.drawn = (None, None)
    s.step = EXCHANGE if any(s.eligible) else PLACE
    return s


def _decide_exchange(state: State, seat: int, give: tuple) -> State:
    s = state.copy()
    pending = list(s.pending_ex)
    pending[seat] = give
    s.pending_ex = tuple(pending)
    if all(not s.eligible[x] or s.pending_ex[x] is not None for x in SEATS):
        _resolve_exchange(s)
    return s


def _resolve_exchange(s: State) -> None:
    deck = list(s.deck)
    hands = list(s.hands)
    drawn: list[int | None] = [None, None]
    given: list[int] = []
    for seat in SEATS:
        give = s.pending_ex[seat]
        if give:
            hands[seat] = _without(hands[seat], give) + (deck.pop(0),)
            drawn[seat] = hands[seat][-1]
            given.extend(give)
    if given:
        deck.extend(given)
        _rng(s).shuffle(deck)
        s.shuffles += 1
    s.deck = tuple(deck)
    s.hands = tuple(hands)
    s.drawn = tuple(drawn)
    s.last_exchange = tuple(bool(s.pending_ex[x]) for x in SEATS)
    _push_log(s, {"kind": "exchange", "round": s.round, "placement": s.placement,
                  "exchanged": list(s.last_exchange), "could": list(s.eligible)})
    s.pending_ex = (None, None)
    s.step = PLACE


def _decide_placement(state: State, seat: int, placement: tuple) -> State:
    s = state.copy()
    pending = list(s.pending_pl)
    pending[seat] = placement
    s.pending_pl = tuple(pending)
    if all(p is not None for p in s.pending_pl):
        _resolve_placement(s)
    return s


def _timeout(state: State, seat, action: dict) -> State:
    if state.options["placement_clock"] <= 0:
        raise IllegalAction(f"{action!r}: this room has no placement clock (placement_clock = 0)")
    if seat not in SEATS:
        raise IllegalAction(f"{action!r}: seat {seat!r} is not a seat of this 2-player game")
    if state.step == EXCHANGE and state.eligible[seat] and state.pending_ex[seat] is None:
        s = _decide_exchange(state, seat, ())
        _push_log(s, {"kind": "late_exchange", "seat": seat, "round": state.round,
                      "placement": state.placement})
        return s
    if state.step == PLACE and state.pending_pl[seat] is None:
        first = _placements(state.lanes, state.hands[seat])[0]
        lane = first["lane"] if first["type"] == "place" else -1
        s = state.copy()
        s.metus = state.metus + 1
        _push_log(s, {"kind": "late", "seat": seat, "round": s.round, "placement": s.placement,
                      "metus": s.metus})
        return _decide_placement(s, seat, (lane, MARK_INDEX[first["mark"]], True))
    raise IllegalAction(f"{action!r}: seat {seat!r} has no running clock (step {state.step}, "
                        f"round {state.round}, placement {state.placement})")


def _resolve_placement(s: State) -> None:
    lanes = s.lanes
    pl = s.pending_pl
    hands = tuple(_without(s.hands[x], (pl[x][1],)) for x in SEATS)
    metus_before = s.metus
    metus = s.metus
    multas = [list(m) for m in s.multas]
    captures = []
    collision = None
    placements = [{"seat": x, "mark": MARKS[pl[x][1]], "lane": pl[x][0] if pl[x][0] >= 0 else None,
                   "new_lane": pl[x][0] < 0, "late": pl[x][2]} for x in SEATS]
    if pl[0][0] >= 0 and pl[0][0] == pl[1][0]:
        collision = pl[0][0]
        mark, n = lanes[collision]
        new_lanes = list(lanes)
        new_lanes[collision] = (mark, n + 2)
    else:
        taken = set()
        for x in SEATS:
            lane = pl[x][0]
            if lane >= 0:
                mark, n = lanes[lane]
                stones = n + 1
                gained = 1 if stones <= 3 else stones
                metus += gained
                multas[x][mark] += stones
                taken.add(lane)
                captures.append({"seat": x, "lane": lane, "mark": MARKS[mark], "stones": stones,
                                 "metus": gained})
        new_lanes = [lane for i, lane in enumerate(lanes) if i not in taken]
    started = []
    for x in SEATS:
        if pl[x][0] < 0:
            new_lanes.append((pl[x][1], 1))
            started.append({"seat": x, "mark": MARKS[pl[x][1]], "lane": len(new_lanes) - 1})
    s.lanes = tuple(new_lanes)
    s.hands = hands
    s.multas = tuple(tuple(m) for m in multas)
    s.metus = metus
    s.pending_pl = (None, None)
    s.last = {"kind": "placement", "round": s.round, "placement": s.placement,
              "time": "mane" if s.placement % 2 else "nox", "placements": placements,
              "collision": collision, "captures": captures, "new_lanes": started,
              "late": [x for x in SEATS if pl[x][2]],
              "metus_before": metus_before, "metus_after": metus, "round_end": None}
    if metus >= data.METUS_LIMIT:
        s.last["round_end"] = "metus"
        _push_log(s, s.last)
        _end_round(s, "metus")
        return
    _push_log(s, s.last)
    s.placement += 1
    if s.placement % 2 == 1 and not _refill(s):
        s.last["round_end"] = "deck"  # same dict as the log entry, made in this apply
        _end_round(s, "deck")
        return
    _begin_exchange(s)


def _refill(s: State) -> bool:
    """Mane refill: hands to 3 (one at a time, alternating from seat 0), then lanes to 5.
    False (and nothing changes) if the deck runs out: the refill needs all of it or more (the
    original ends the round when the deck is gone; a refill that emptied it would leave a Mane
    and a Nox played with no deck and no exchange)."""
    need = sum(max(0, data.HAND_SIZE - len(h)) for h in s.hands) + max(0, data.FIELD_LANES - len(s.lanes))
    if need >= len(s.deck):
        _push_log(s, {"kind": "deck_short", "round": s.round, "placement": s.placement,
                      "need": need, "deck": len(s.deck)})
        return False
    deck = list(s.deck)
    hands = [list(h) for h in s.hands]
    while any(len(h) < data.HAND_SIZE for h in hands):
        for x in SEATS:
            if len(hands[x]) < data.HAND_SIZE:
                hands[x].append(deck.pop(0))
    lanes = list(s.lanes)
    added = 0
    while len(lanes) < data.FIELD_LANES:
        lanes.append((deck.pop(0), 1))
        added += 1
    s.hands = tuple(tuple(h) for h in hands)
    s.lanes = tuple(lanes)
    s.deck = tuple(deck)
    if need:
        _push_log(s, {"kind": "refill", "round": s.round, "placement": s.placement,
                      "stones": need, "new_lanes": added, "deck": len(deck)})
    return True


def _score(multa) -> dict:
    role, pts = best_role(tuple(multa))
    return {"role": role["id"], "role_en": role["en"], "role_ja": role["ja"], "points": pts}


def _end_round(s: State, reason: str) -> None:
    surplus = max(0, s.metus - data.METUS_LIMIT) if reason == "metus" else 0
    scored = [_score(m) for m in s.multas]
    pts = [x["points"] for x in scored]
    winner = None if pts[0] == pts[1] else (0 if pts[0] > pts[1] else 1)
    record = {"round": s.round, "reason": reason, "metus": s.metus, "surplus": surplus,
              "multas": [list(m) for m in s.multas], "scores": pts,
              "roles": [x["role"] for x in scored], "winner": winner}
    s.rounds = s.rounds + (record,)
    s.stella += surplus
    s.pending_ex = (None, None)
    s.pending_pl = (None, None)
    s.eligible = (False, False)
    s.drawn = (None, None)
    _push_log(s, {"kind": "round_end", "round": s.round, "reason": reason, "scores": pts,
                  "winner": winner, "surplus": surplus})
    if s.round < data.ROUNDS:
        s.step = BETWEEN
    else:
        _peribit(s)


def _peribit(s: State) -> None:
    """After round 3: Stella Metus stones from the deck to the player(s) with fewer round wins,
    round 3 re-scored, totals compared."""
    wins = [sum(1 for r in s.rounds if r["winner"] == x) for x in SEATS]
    deck = list(s.deck)
    got: list[list[int]] = [[], []]
    if wins[0] != wins[1]:
        receiver = 0 if wins[0] < wins[1] else 1
        for _ in range(min(s.stella, len(deck))):
            got[receiver].append(deck.pop(0))
    else:
        receiver = None
        share = s.stella // 2
        while deck and (len(got[0]) < share or len(got[1]) < share):
            for x in SEATS:
                if deck and len(got[x]) < share:
                    got[x].append(deck.pop(0))
    multas = [list(m) for m in s.multas]
    for x in SEATS:
        for m in got[x]:
            multas[x][m] += 1
    s.multas = tuple(tuple(m) for m in multas)
    s.deck = tuple(deck)
    rescored = [_score(m) for m in s.multas]
    r3 = [x["points"] for x in rescored]
    totals = [s.rounds[0]["scores"][x] + s.rounds[1]["scores"][x] + r3[x] for x in SEATS]
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    s.final = {"stella_metus": s.stella, "round_wins": wins, "receiver": receiver,
               "drawn": [[MARKS[m] for m in g] for g in got],
               "round3_rescored": r3, "round3_roles": [x["role"] for x in rescored],
               "totals": totals, "winner": winner}
    _push_log(s, {"kind": "peribit", "receiver": receiver, "drawn": [len(g) for g in got],
                  "totals": totals, "winner": winner})
    s.step = OVER
