"""Synomilia (シノミリア): a 2-player bluffing game about how many chips the pile will hold.

Rules gist (authoritative text: static/rules/synomilia.html):
- Each player has number cards 0-9, a sun/moon marker and 15 chips (30 chips in play, always).
- Each bout both players secretly and simultaneously put one *available* card face down as their
  prediction of the final pile count. Then, from the start player, alternating, each play is one of:
  stack a chip (sun or moon face up), change the prediction (swap or bluff-swap; give 1 chip to the
  opponent; marker to moon; once per bout, needs a chip), or pass.
- The bout ends after a play if: the pile holds 9 chips; two passes in a row; or a moon stack was
  followed directly by a pass. The last actor (stack/change) reveals first; with no chips on the
  pile (two passes in a row, maybe after a change) the start player does. The other reveals after
  ``reveal_delay`` seconds (a SYSTEM step, see below).
- Closer prediction wins; equal distance with an empty pile -> start player wins; otherwise equal
  distance -> the last actor loses. The loser pays (what they can) 5 if the winner held 0 chips,
  2 if the winner held 1, 1 per moon chip, 2; the winner takes the pile.
- Revealed cards are used up, except the 9. The game ends when a player holds 0 chips or has 2 or
  fewer available cards; more chips wins, equal chips is a draw. Else the bout winner starts next.

Phases: "predict" (both seats awaited until they submit), "play" (the turn seat), "reveal"
(SYSTEM awaited: the first card is already public; the SYSTEM ``reveal`` action shows the second
card, scores the bout and sets up the next one after ``delay(state)`` seconds), "over".

Actions: {"type": "predict", "card": n}, {"type": "stack", "face": "sun"|"moon"},
{"type": "change", "card": n} (n == current card is the bluff), {"type": "pass"},
SYSTEM {"type": "reveal"}.

Clock: room option ``turn_seconds`` (default 30; 0 = none): each awaited seat has that clock
(``clock_seconds``). When it runs out the server applies, as SYSTEM, the server-only action
``on_timeout(state, seat)`` = {"type": "timeout", "seat": seat}. ``apply`` accepts it only from
SYSTEM, only while that seat is awaited and the room has a clock; it is never in ``legal_actions``.
Its effect is the seat's default move: pass in the play phase; when predicting, an available card
drawn from a generator seeded by (match seed, bout, seat) — not a fixed card, so the opponent cannot
deduce a timed-out prediction.
"""

from __future__ import annotations

import random
from typing import Any

from engines.plain import copy_plain
from engines.protocol import SYSTEM, IllegalAction, InvalidAction, check_seat, clock_option, resolve_options, seat_clock
from engines.synomilia import data

# ---------------------------------------------------------------- metadata
ID = "synomilia"
TITLE = "Synomilia"
TITLE_JA = "シノミリア"
MIN_PLAYERS = data.NUM_PLAYERS
MAX_PLAYERS = data.NUM_PLAYERS
VERSION = "2"  # 2: two passes on an empty pile let the start player reveal first (recorded per match)
OPTIONS = [
    {"name": "reveal_delay", "type": "float", "default": 3, "min": 0, "max": 30,
     "label_en": "Delay before the second card is revealed (seconds)",
     "label_ja": "2枚目のカードを公開するまでの時間(秒)"},
    clock_option(30, "pass; when predicting, a random available card",
                 "パス。予想中は使えるカードからランダム"),
]

PREDICT, PLAY, REVEAL, OVER = "predict", "play", "reveal", "over"
ACTION_FIELDS = {"predict": {"card"}, "stack": {"face"}, "change": {"card"}, "pass": set(), "reveal": set(),
                 "timeout": {"seat"}}  # besides "type"; nothing else is accepted
ACTION_TYPES = tuple(ACTION_FIELDS)


# ---------------------------------------------------------------- state
class State:
    """Game state. Treated as immutable: ``apply`` copies it and replaces what changes.

    chips: (seat0, seat1) chips in hand. pile: str of "s"/"m" (sun/moon faces, bottom first).
    markers: (bool, bool) True = flipped to moon (change used this bout). available: per seat a
    sorted tuple of usable number cards. predictions: per seat the face-down card or None.
    plays: this bout's plays as (seat, kind), kind "sun", "moon", "change" or "pass".
    history: finished bouts (dicts, never mutated).
    """

    __slots__ = ("seed", "options", "phase", "bout", "start", "turn", "chips", "pile", "markers",
                 "available", "predictions", "plays", "last_actor", "first_revealer",
                 "end_condition", "history", "game_end")
    seed: int
    options: dict
    phase: str
    bout: int
    start: int
    turn: Any  # the seat to play, in the play phase
    chips: tuple[int, ...]
    pile: str
    markers: tuple[bool, ...]
    available: tuple[tuple[int, ...], ...]
    predictions: tuple[int | None, ...]
    plays: tuple[tuple[int, str], ...]
    last_actor: int | None
    first_revealer: Any  # the seat revealing first, in the reveal phase
    end_condition: str | None
    history: tuple[dict, ...]
    game_end: Any  # None until the end, then a dict

    def copy(self) -> "State":
        # Field by field, not a loop over __slots__: the compiled build (mypyc) makes State a native
        # class, which has no __slots__ to read. tests/engines/test_contract.py checks every field.
        new = State.__new__(State)
        new.seed = self.seed
        new.options = self.options
        new.phase = self.phase
        new.bout = self.bout
        new.start = self.start
        new.turn = self.turn
        new.chips = self.chips
        new.pile = self.pile
        new.markers = self.markers
        new.available = self.available
        new.predictions = self.predictions
        new.plays = self.plays
        new.last_actor = self.last_actor
        new.first_revealer = self.first_revealer
        new.end_condition = self.end_condition
        new.history = self.history
        new.game_end = self.game_end
        return new


def new_game(num_players: Any, seed: int, options: Any = None) -> State:
    if num_players != data.NUM_PLAYERS:
        raise InvalidAction(f"synomilia is for exactly {data.NUM_PLAYERS} players, not {num_players!r}")
    state = State()
    state.seed = seed
    state.options = resolve_options(OPTIONS, options)
    # Ruling: the coin toss for the start player is drawn from the match seed.
    state.start = random.Random(seed).randrange(data.NUM_PLAYERS)
    state.phase = PREDICT
    state.bout = 1
    state.turn = None
    state.chips = (data.START_CHIPS,) * data.NUM_PLAYERS
    state.pile = ""
    state.markers = (False, False)
    state.available = (data.CARDS, data.CARDS)
    state.predictions = (None, None)
    state.plays = ()
    state.last_actor = None
    state.first_revealer = None
    state.end_condition = None
    state.history = ()
    state.game_end = None
    return state


def awaiting(state: State) -> frozenset[int]:
    if state.phase == PREDICT:
        return frozenset(s for s in range(data.NUM_PLAYERS) if state.predictions[s] is None)
    if state.phase == PLAY:
        return frozenset((state.turn,))
    if state.phase == REVEAL:
        return frozenset((SYSTEM,))
    return frozenset()


# ---------------------------------------------------------------- legal actions
def legal_actions(state: State, seat: Any) -> list[dict]:
    check_seat(seat, data.NUM_PLAYERS, system=True)
    phase = state.phase
    if phase == PLAY:
        if seat != state.turn:
            return []
        actions: list[dict] = []
        if state.chips[seat] > 0:
            actions.append({"type": "stack", "face": "sun"})
            actions.append({"type": "stack", "face": "moon"})
            if not state.markers[seat]:
                actions.extend({"type": "change", "card": c} for c in state.available[seat])
        actions.append({"type": "pass"})
        return actions
    if phase == PREDICT:
        if seat not in (0, 1) or state.predictions[seat] is not None:
            return []
        return [{"type": "predict", "card": c} for c in state.available[seat]]
    if phase == REVEAL and seat == SYSTEM:
        return [{"type": "reveal"}]
    return []


# ---------------------------------------------------------------- apply
def apply(state: State, seat: Any, action: Any) -> State:
    check_seat(seat, data.NUM_PLAYERS, system=True)
    kind, value = _parse(action)
    phase = state.phase
    if phase == OVER:
        raise IllegalAction(f"{action!r}: the game is over")
    if kind == "timeout":
        return _apply_timeout(state, seat, value, action)
    if seat not in awaiting(state):
        raise IllegalAction(f"{action!r} from seat {seat!r}: not awaited now "
                            f"(phase {phase}, awaiting {sorted(awaiting(state))})")
    if kind == "predict":
        if phase != PREDICT:
            raise IllegalAction(f"{action!r}: predictions are only made at the start of a bout (phase {phase})")
        if value not in state.available[seat]:
            raise IllegalAction(f"{action!r}: card {value} is not available to seat {seat} "
                                f"(available {list(state.available[seat])})")
        new = state.copy()
        preds = list(state.predictions)
        preds[seat] = value
        new.predictions = tuple(preds)
        if None not in new.predictions:
            new.phase = PLAY
            new.turn = state.start
        return new
    if kind == "reveal":
        if phase != REVEAL:
            raise IllegalAction(f"{action!r}: nothing to reveal (phase {phase})")
        return _resolve_bout(state)
    if phase != PLAY:
        raise IllegalAction(f"{action!r}: no turns are played now (phase {phase})")
    chips = state.chips
    new = state.copy()
    if kind == "stack":
        if chips[seat] < 1:
            raise IllegalAction(f"{action!r}: seat {seat} holds no chips to stack")
        new.chips = _add(chips, seat, -1)
        new.pile = state.pile + ("m" if value == "moon" else "s")
        new.last_actor = seat
        play = value
    elif kind == "change":
        if state.markers[seat]:
            raise IllegalAction(f"{action!r}: seat {seat} already changed its prediction this bout")
        if chips[seat] < 1:
            raise IllegalAction(f"{action!r}: changing needs a chip to give, seat {seat} holds none")
        if value not in state.available[seat]:
            raise IllegalAction(f"{action!r}: card {value} is not available to seat {seat} "
                                f"(available {list(state.available[seat])})")
        other = 1 - seat
        new.chips = _add(_add(chips, seat, -1), other, 1)
        preds = list(state.predictions)
        preds[seat] = value
        new.predictions = tuple(preds)
        markers = list(state.markers)
        markers[seat] = True
        new.markers = tuple(markers)
        new.last_actor = seat
        play = "change"
    else:  # pass
        play = "pass"
    previous = state.plays[-1][1] if state.plays else None
    new.plays = state.plays + ((seat, play),)
    end = None
    if len(new.pile) >= data.PILE_LIMIT:
        end = "pile_full"
    elif play == "pass" and previous == "pass":
        end = "two_passes"
    elif play == "pass" and previous == "moon":
        end = "moon_then_pass"
    if end is None:
        new.turn = 1 - seat
    else:
        new.phase = REVEAL
        new.turn = None
        new.end_condition = end
        # The last actor reveals first; two passes in a row with no chips on the pile (the only way
        # a bout ends with an empty pile) let the start player reveal first, even after a change.
        new.first_revealer = state.start if not new.pile else new.last_actor
    return new


# ---------------------------------------------------------------- view
# Hidden: the opponent's face-down prediction (and so whether their change was a swap or a bluff)
# until it is revealed; during the reveal phase only the first revealer's card is shown — the
# second card appears only after the SYSTEM reveal step has been applied (in ``last_bout``).
# Everything else (chips, pile faces, markers, available/used cards, plays) is public.
# Plays and bout results are codes and numbers (``type``, ``end_condition``, ``reason``, payout
# ``step``/``due``/``paid``): a client words them in its player's language with the players' names
# (the browser's ``static/games/synomilia.js``); only the game's final ``result`` carries its texts.
_FACE = {"s": "sun", "m": "moon"}


def public_action(after: Any, seat: int, action: dict) -> dict | None:
    """What the opponent learns of an action as it is made: a stack's face, a pass, the server's
    reveal and timeouts; of a prediction or a change only that it was made (the card, and whether a change was a bluff,
    stay face down)."""
    kind = action.get("type")
    if kind in ("stack", "pass", "reveal", "timeout"):  # (the last two: the server's own steps)
        return dict(action)
    return {"type": kind} if kind in ("predict", "change") else None


def view(state: State, seat: Any) -> dict:
    """Everything ``seat`` (None = spectator) may know. The only place views are built; every
    call builds new objects (nothing shared with the state or another seat's view)."""
    seat = check_seat(seat, data.NUM_PLAYERS, spectator=True)
    phase = state.phase
    reveal = None
    if phase == REVEAL:
        first = state.first_revealer
        revealed = [None, None]
        revealed[first] = state.predictions[first]
        reveal = {"first_revealer": first, "cards": revealed, "count": len(state.pile),
                  "end_condition": state.end_condition, "delay": float(state.options["reveal_delay"])}
    history = state.history
    return {
        "game": ID,
        "viewer": seat,
        "phase": phase,
        "bout": state.bout,
        "start_player": state.start,
        "turn": state.turn,
        "chips": list(state.chips),
        "pile": [_FACE[f] for f in state.pile],
        "pile_count": len(state.pile),
        "pile_moons": state.pile.count("m"),
        "pile_limit": data.PILE_LIMIT,
        "markers": ["moon" if m else "sun" for m in state.markers],
        "available": [list(a) for a in state.available],
        "used": [[c for c in data.CARDS if c not in a] for a in state.available],
        "predicted": [p is not None for p in state.predictions],
        "my_prediction": state.predictions[seat] if seat is not None else None,
        "last_actor": state.last_actor,
        "plays": [_play_view(s, kind) for s, kind in state.plays],
        "reveal": reveal,
        "last_bout": _bout_view(history[-1]) if history else None,
        "history": [{"bout": h["bout"], "cards": list(h["cards"]), "count": h["count"],
                     "winner": h["winner"], "reason": h["reason"]} for h in history],
        "reveal_delay": float(state.options["reveal_delay"]),
        "result": _result_view(state) if phase == OVER else None,
    }


def _play_view(seat: int, kind: str) -> dict:
    if kind in data.FACES:
        return {"seat": seat, "type": "stack", "face": kind}
    return {"seat": seat, "type": kind}


def _bout_view(h: dict) -> dict:
    winner = h["winner"]
    return {
        "bout": h["bout"],
        "cards": list(h["cards"]),
        "pile": [_FACE[f] for f in h["pile"]],
        "count": h["count"],
        "moons": h["moons"],
        "start_player": h["start_player"],
        "last_actor": h["last_actor"],
        "first_revealer": h["first_revealer"],
        "end_condition": h["end_condition"],
        "winner": winner,
        "loser": 1 - winner,
        "reason": h["reason"],
        "winner_held": h["winner_held"],
        "payout": [{"step": line["step"], "due": line["due"], "paid": line["paid"], "from": line["from"]}
                   for line in h["payout"]],
        "received": sum(line["paid"] for line in h["payout"]),
        "chips_after": list(h["chips_after"]),
        "plays": [_play_view(s, kind) for s, kind in h["plays"]],
    }


def _result_view(state: State) -> dict:
    a, b = state.chips
    en, ja = result_text(state)
    return {"winner": None if a == b else (0 if a > b else 1), "draw": a == b,
            "chips": [a, b], "game_end": dict(state.game_end), "text_en": en, "text_ja": ja}


# ---------------------------------------------------------------- outcome


def outcome(state: State) -> dict | None:
    if state.phase != OVER:
        return None
    a, b = state.chips
    ranks = [0, 0] if a == b else ([0, 1] if a > b else [1, 0])
    return {"ranks": ranks, "scores": [a, b], "teams": None, "reason": result_text(state)[0]}


def result_text(state: State) -> tuple[str, str]:
    """(en, ja) explanation of the finished game: why it ended and who won."""
    end = state.game_end
    end_en, end_ja = data.GAME_END_TEXTS[end["code"]]
    fmt = {"p": end["seat"] + 1, "k": end.get("cards", 0)}
    a, b = state.chips
    if a == b:
        res_en, res_ja = (t.format(a=a) for t in data.RESULT_TEXTS["draw"])
    else:
        w = 0 if a > b else 1
        res = {"w": w + 1, "a": max(a, b), "b": min(a, b)}
        res_en, res_ja = (t.format(**res) for t in data.RESULT_TEXTS["win"])
    return (f"{end_en.format(**fmt)} {res_en}", f"{end_ja.format(**fmt)}{res_ja}")


# ---------------------------------------------------------------- serialisation, timing, checks
def state_to_json(state: State) -> dict:
    return {
        "seed": state.seed,
        "options": dict(state.options),
        "phase": state.phase,
        "bout": state.bout,
        "start": state.start,
        "turn": state.turn,
        "chips": list(state.chips),
        "pile": state.pile,
        "markers": list(state.markers),
        "available": [list(a) for a in state.available],
        "predictions": list(state.predictions),
        "plays": [list(p) for p in state.plays],
        "last_actor": state.last_actor,
        "first_revealer": state.first_revealer,
        "end_condition": state.end_condition,
        "history": copy_plain(list(state.history)),
        "game_end": copy_plain(state.game_end),
    }


def state_from_json(d: dict) -> State:
    state = State()
    state.seed = d["seed"]
    state.options = dict(d["options"])
    state.phase = d["phase"]
    state.bout = d["bout"]
    state.start = d["start"]
    state.turn = d["turn"]
    state.chips = tuple(d["chips"])
    state.pile = d["pile"]
    state.markers = tuple(d["markers"])
    state.available = tuple(tuple(a) for a in d["available"])
    state.predictions = tuple(d["predictions"])
    state.plays = tuple((p[0], p[1]) for p in d["plays"])
    state.last_actor = d["last_actor"]
    state.first_revealer = d["first_revealer"]
    state.end_condition = d["end_condition"]
    state.history = tuple(copy_plain(d["history"]))
    state.game_end = copy_plain(d["game_end"])
    return state


def delay(state: State) -> float:
    """Seconds the server waits before the SYSTEM reveal (the room option ``reveal_delay``)."""
    return float(state.options["reveal_delay"]) if state.phase == REVEAL else 0.0


def clock_seconds(state: State, seat: Any) -> float | None:
    """The room clock for an awaited seat (``turn_seconds``), or None when there is no clock."""
    check_seat(seat, data.NUM_PLAYERS, system=True)
    return seat_clock(state.options.get("turn_seconds", 0), seat, awaiting(state))


def on_timeout(state: State, seat: Any) -> dict:
    """The SYSTEM action the server applies when ``seat``'s clock runs out (see module docstring)."""
    if check_seat(seat, data.NUM_PLAYERS) == SYSTEM or seat not in awaiting(state):
        raise IllegalAction(f"seat {seat!r} is not awaited, no timeout applies (phase {state.phase})")
    return {"type": "timeout", "seat": seat}


def timeout_move(state: State, seat: int) -> dict:
    """The move a timed-out ``seat`` makes: pass, or a seeded-random available card when predicting."""
    if state.phase == PREDICT:
        rng = random.Random(f"{state.seed}:{state.bout}:{seat}")
        return {"type": "predict", "card": rng.choice(state.available[seat])}
    return {"type": "pass"}


def check_invariants(state: State) -> None:
    assert sum(state.chips) + len(state.pile) == data.TOTAL_CHIPS, \
        f"chips {state.chips} + pile {len(state.pile)} != {data.TOTAL_CHIPS}"
    assert all(c >= 0 for c in state.chips), f"negative chips {state.chips}"
    assert len(state.pile) <= data.PILE_LIMIT, f"pile {state.pile!r} over {data.PILE_LIMIT}"
    assert set(state.pile) <= {"s", "m"}, f"bad pile faces {state.pile!r}"
    for seat in range(data.NUM_PLAYERS):
        avail = state.available[seat]
        assert list(avail) == sorted(set(avail)) and set(avail) <= set(data.CARDS), avail
        assert set(data.RETURNING_CARDS) <= set(avail), f"seat {seat} lost a returning card: {avail}"
        pred = state.predictions[seat]
        assert pred is None or pred in avail, f"seat {seat} predicts {pred} not in {avail}"
        if state.phase in (PLAY, REVEAL):
            assert pred is not None, f"seat {seat} has no prediction in phase {state.phase}"
        used = sum(1 for h in state.history if h["cards"][seat] not in data.RETURNING_CARDS)
        assert len(avail) == len(data.CARDS) - used, f"seat {seat}: {len(avail)} cards after {used} used"
    if state.phase == OVER:
        assert state.game_end is not None and not state.pile


# ---------------------------------------------------------------- private helpers
def _parse(action) -> tuple[str, Any]:
    """Validate the shape of ``action``; return (type, card-or-face). Raises InvalidAction."""
    if not isinstance(action, dict):
        raise InvalidAction(f"action must be a dict with a 'type', got {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise InvalidAction(f"unknown action type {kind!r} in {action!r}; known: {list(ACTION_TYPES)}")
    if set(action) != ACTION_FIELDS[kind] | {"type"}:
        raise InvalidAction(f"{action!r}: a {kind!r} action has exactly the fields {sorted(ACTION_FIELDS[kind] | {'type'})}")
    if kind in ("predict", "change"):
        card = action.get("card")
        if not isinstance(card, int) or isinstance(card, bool) or card not in data.CARDS:
            raise InvalidAction(f"{action!r}: 'card' must be an integer 0-9")
        return kind, card
    if kind == "timeout":
        seat = action.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(data.NUM_PLAYERS):
            raise InvalidAction(f"{action!r}: 'seat' must be 0 or 1")
        return kind, seat
    if kind == "stack":
        face = action.get("face")
        if face not in data.FACES:
            raise InvalidAction(f"{action!r}: 'face' must be 'sun' or 'moon'")
        return kind, face
    return kind, None


def _apply_timeout(state: State, seat: int, late: int, action: dict) -> State:
    if seat != SYSTEM:
        raise IllegalAction(f"{action!r} from seat {seat!r}: timeouts are applied by the server only")
    if not state.options.get("turn_seconds"):
        raise IllegalAction(f"{action!r}: this room has no clock (turn_seconds = 0)")
    if late not in awaiting(state):
        raise IllegalAction(f"{action!r}: seat {late} is not awaited now (phase {state.phase}, "
                            f"awaiting {sorted(awaiting(state))})")
    return apply(state, late, timeout_move(state, late))


def _add(chips: tuple, seat: int, delta: int) -> tuple:
    return (chips[0] + delta, chips[1]) if seat == 0 else (chips[0], chips[1] + delta)


def _bout_winner(cards, n: int, start: int, last_actor) -> tuple[int, str]:
    d0, d1 = abs(cards[0] - n), abs(cards[1] - n)
    if d0 != d1:
        winner = 0 if d0 < d1 else 1
        return winner, ("exact" if cards[winner] == n else "closer")
    if n == 0:
        return start, "tie_zero_start"
    return 1 - last_actor, "tie_last_actor"


def _resolve_bout(state: State) -> State:
    """The SYSTEM reveal: second card shown, winner, payout, used cards, game end or next bout."""
    cards = state.predictions
    pile = state.pile
    n = len(pile)
    moons = pile.count("m")
    winner, reason = _bout_winner(cards, n, state.start, state.last_actor)
    loser = 1 - winner
    chips = list(state.chips)
    winner_held = chips[winner]
    lines = []
    for step in data.PAYOUT:
        k = step["kind"]
        if k == "if_winner_holds":
            due = step["amount"] if winner_held == step["holds"] else 0
        elif k == "per_moon":
            due = moons * step["amount"]
        elif k == "flat":
            due = step["amount"]
        else:
            due = n
        if k == "pile":
            paid = n
        else:
            paid = min(due, chips[loser])
            chips[loser] -= paid
        chips[winner] += paid
        lines.append({"step": step["step"], "due": due, "paid": paid, "from": "pile" if k == "pile" else "loser"})
    available = tuple(
        a if cards[s] in data.RETURNING_CARDS else tuple(c for c in a if c != cards[s])
        for s, a in enumerate(state.available))
    record = {
        "bout": state.bout, "cards": list(cards), "pile": pile, "count": n, "moons": moons,
        "start_player": state.start, "last_actor": state.last_actor,
        "first_revealer": state.first_revealer, "end_condition": state.end_condition,
        "winner": winner, "reason": reason, "winner_held": winner_held,
        "payout": lines, "chips_after": list(chips),
        "plays": [list(p) for p in state.plays],
    }
    new = state.copy()
    new.chips = tuple(chips)
    new.pile = ""
    new.available = available
    new.history = state.history + (record,)
    new.predictions = (None, None)
    new.markers = (False, False)
    new.plays = ()
    new.last_actor = None
    new.first_revealer = None
    new.end_condition = None
    new.turn = None
    game_end = None
    for s in range(data.NUM_PLAYERS):
        if chips[s] == 0:
            game_end = {"code": "no_chips", "seat": s}
            break
    if game_end is None:
        for s in range(data.NUM_PLAYERS):
            if len(available[s]) <= data.GAME_END_CARDS:
                game_end = {"code": "few_cards", "seat": s, "cards": len(available[s])}
                break
    if game_end is not None:
        new.phase = OVER
        new.game_end = game_end
    else:
        new.phase = PREDICT
        new.bout = state.bout + 1
        new.start = winner
    return new


def first_player(state: State) -> int:
    """Both predict at once; the start player leads."""
    return state.start
