"""Mipolin the Game (みぽりん・ざ・げーむ), 3 players: deduce the culprit and the location.

Gist of the rules (authoritative text: static/rules/mipolin.html):
- 24 cards: characters 1-9, places 1-9 (map areas of a 3x3 grid), 6 Day cards (one is
  "Gather at the Lodge!"). Setup: one character face up (the missing person), one face down (the
  culprit), one to each player face up (their piece starts on that character's home area), one
  place face down (the location); the other 18 are dealt 6 each, starting left of the provisional
  dealer, clockwise.
- Auction: the provisional dealer must bid 1-5; clockwise, each next player raises or passes; two
  passes in a row (or a bid of 5) end it. The high bidder is the dealer; the Day marker starts on
  that day. Turn order X (dealer's left), Y (dealer's right), Z (dealer), at most 6 turns each.
- A turn: (1) reveal a hand card face up; a Day card advances the marker, and reaching day 6
  puts the revealer out (hand revealed, piece removed; the marker resets to day 1). (2) Move:
  "Gather at the Lodge!" sends every piece to area 1; a place card moves the own piece there;
  any other card moves it to an adjacent area. (3) Exchange one random card with each other piece
  on the destination (after a gather: every pair), in the order the turn player picks; a drawn card
  cannot bounce back; empty hands skip. (4) Optionally accuse: right = win; wrong = out.
- Last player standing wins; after the last turn of round 6 nobody wins (a draw among those in).
- Variants (room options): suggestions (Cluedo-style, no auction, day starts at 1) and
  character choice (players pick characters before the shuffle).

Seats 0-2 sit clockwise: the left of seat s is seat s+1 (mod 3).
Clock: room option ``turn_seconds`` (default 60, 0 = none) for the one awaited seat; ``on_timeout``
is an ordinary legal action (see its docstring), never a server-only one.
The state is a JSON-native dict; ``apply`` copies only what it changes.
Random exchanges draw from an RNG derived from the seed and a draw counter kept in the state, so
replays are exact and no view can show a future draw.
"""

from __future__ import annotations

import random
from typing import Any
from itertools import permutations

from engines.mipolin import data
from engines.plain import copy_plain
from engines.protocol import IllegalAction, InvalidAction, check_seat, clock_option, resolve_options, seat_clock

# ---------------------------------------------------------------- metadata
ID = "mipolin"
TITLE = "Mipolin the Game"
TITLE_JA = "みぽりん・ざ・げーむ"
NUM_PLAYERS = 3
MIN_PLAYERS = MAX_PLAYERS = NUM_PLAYERS
VERSION = "1"
HAND_SIZE = 6
TURNS_EACH = 6
MAX_BID = 5
TIME_UP_DAY = 6

OPTIONS = [
    {"name": "suggestions", "type": "bool", "default": False,
     "label_en": "Variant: suggestions (Cluedo-style; no auction, day starts at 1)",
     "label_ja": "バリアント:推理フェイズ(クルード風。セリなし、1日目から)"},
    {"name": "character_choice", "type": "bool", "default": False,
     "label_en": "Variant: players choose their characters",
     "label_ja": "バリアント:キャラを選んで遊ぶ"},
    {"name": "provisional_dealer", "type": "int", "default": -1, "min": -1, "max": 2,
     "label_en": "Provisional dealer (to give it to the previous winner or dealer)",
     "label_ja": "仮親(前回の勝者/親に渡すとき)",
     # what each value means, in words (a page offers these, not the numbers)
     "value_labels": [[-1, "Random", "ランダム"], [0, "Seat 1", "席1"], [1, "Seat 2", "席2"], [2, "Seat 3", "席3"]]},
    clock_option(60, "pass or the lowest bid, end the turn without accusing, reveal a non-Day card if "
                     "there is one, otherwise the first choice",
                 "パスか最低の入札、告発せずに手番終了、日付カード以外を公開、それ以外は最初の選択肢"),
]

ACTION_TYPES = ("pick", "bid", "pass", "reveal", "move", "order", "suggest", "show", "accuse", "end_turn")
_FIELDS = {
    "pick": {"character"}, "bid": {"level"}, "pass": set(), "reveal": {"card"}, "move": {"area"},
    "order": {"pairs"}, "suggest": {"character", "place"}, "show": {"card"},
    "accuse": {"character", "place"}, "end_turn": set(),
}
# Which action types each phase takes.
_PHASE_TYPES = {
    "pick": ("pick",), "bid": ("bid", "pass"), "reveal": ("reveal",), "move": ("move",),
    "order": ("order",), "suggest": ("suggest",), "show": ("show",), "accuse": ("accuse", "end_turn"),
    "over": (),
}
_SEAT_PHASE_KEY = {"pick": "picker", "bid": "bidder", "show": "shower"}


# ---------------------------------------------------------------- state
def new_game(num_players: Any, seed: int, options: Any = None) -> dict:
    if num_players != NUM_PLAYERS:
        raise InvalidAction(f"mipolin is a {NUM_PLAYERS}-player game, not {num_players!r} players")
    opts = resolve_options(OPTIONS, options)
    pd = opts["provisional_dealer"]
    if pd < 0:
        pd = _rng(seed, "dealer").randrange(NUM_PLAYERS)
    state = {
        "seed": seed, "draws": 0, "opts": opts,
        "pd": pd, "dealer": None, "order": None,
        "phase": "pick", "turn": None, "round": 0,
        "picker": None, "bidder": None, "shower": None,
        "chars": [None] * NUM_PLAYERS, "missing": None, "culprit": None, "location": None,
        "hands": [[] for _ in range(NUM_PLAYERS)], "rows": [[] for _ in range(NUM_PLAYERS)],
        "exposed": [None] * NUM_PLAYERS, "area": [None] * NUM_PLAYERS,
        "active": [True] * NUM_PLAYERS, "day": 1,
        "auction": None, "pending": None, "log": [],
        "winner": None, "reason": None,
    }
    if opts["character_choice"]:
        state["picker"] = (pd + 1) % NUM_PLAYERS
        state["log"].append({"kind": "start", "pd": pd, "variant": "character_choice"})
    else:
        state["log"].append({"kind": "start", "pd": pd})
        _setup(state)
    return state


def awaiting(state: dict) -> frozenset[int]:
    phase = state["phase"]
    if phase == "over":
        return frozenset()
    key = _SEAT_PHASE_KEY.get(phase, "turn")
    return frozenset((state[key],))


# ---------------------------------------------------------------- legal actions
def legal_actions(state: dict, seat: Any) -> list[dict]:
    check_seat(seat, NUM_PLAYERS, system=True)
    phase = state["phase"]
    if phase == "over" or seat not in awaiting(state):
        return []
    if phase == "pick":
        taken = set(state["chars"])
        return [{"type": "pick", "character": c} for c in data.CHARACTERS if c not in taken]
    if phase == "bid":
        auc = state["auction"]
        acts = [{"type": "bid", "level": lv} for lv in range(auc["high"] + 1, MAX_BID + 1)]
        if auc["bids"]:
            acts.append({"type": "pass"})
        return acts
    if phase == "reveal":
        return [{"type": "reveal", "card": card} for card in state["hands"][seat]]
    if phase == "move":
        return [{"type": "move", "area": a} for a in data.ADJACENCY[state["area"][seat]]]
    if phase == "order":
        pairs = state["pending"]["pairs"]
        return [{"type": "order", "pairs": [list(p) for p in perm]} for perm in permutations(pairs)]
    if phase == "suggest":
        return [{"type": "suggest", "character": c, "place": p} for c in data.CHARACTERS for p in data.PLACES]
    if phase == "show":
        return [{"type": "show", "card": card} for card in _matching(state, seat)]
    # accuse
    return [{"type": "end_turn"}] + [
        {"type": "accuse", "character": c, "place": p} for c in data.CHARACTERS for p in data.PLACES]


# ---------------------------------------------------------------- apply
def apply(state: dict, seat: Any, action: Any) -> dict:
    check_seat(seat, NUM_PLAYERS, system=True)
    kind = _validate(action)
    phase = state["phase"]
    if phase == "over":
        raise IllegalAction(f"{action!r} refused: the game is over")
    if seat not in awaiting(state):
        raise IllegalAction(f"seat {seat!r} may not act now: phase {phase!r} awaits seat(s) "
                            f"{sorted(awaiting(state))}")
    if kind not in _PHASE_TYPES[phase]:
        raise IllegalAction(f"{action!r} refused: phase {phase!r} takes only {list(_PHASE_TYPES[phase])}")
    s = _clone(state)
    _HANDLERS[kind](s, seat, action)
    return s


def _do_pick(s, seat, action):
    c = action["character"]
    if c in s["chars"]:
        raise IllegalAction(f"{action!r} refused: character {c} was already picked")
    s["chars"][seat] = c
    s["log"].append({"kind": "pick", "seat": seat, "character": c})
    if None in s["chars"]:
        s["picker"] = (seat + 1) % NUM_PLAYERS
    else:
        s["picker"] = None
        _setup(s)


def _do_bid(s, seat, action):
    level = action["level"]
    auc = s["auction"]
    if level <= auc["high"]:
        raise IllegalAction(f"{action!r} refused: a bid must be higher than {auc['high']}")
    auc["bids"].append([seat, level])
    auc["high"], auc["high_bidder"], auc["passes"] = level, seat, 0
    s["log"].append({"kind": "bid", "seat": seat, "level": level})
    if level == MAX_BID:
        _end_auction(s)
    else:
        s["bidder"] = (seat + 1) % NUM_PLAYERS


def _do_pass(s, seat, action):
    auc = s["auction"]
    if not auc["bids"]:
        raise IllegalAction(f"{action!r} refused: the provisional dealer's opening bid is mandatory")
    auc["bids"].append([seat, None])
    auc["passes"] += 1
    s["log"].append({"kind": "pass", "seat": seat})
    if auc["passes"] >= 2:
        _end_auction(s)
    else:
        s["bidder"] = (seat + 1) % NUM_PLAYERS


def _do_reveal(s, seat, action):
    card = action["card"]
    hand = s["hands"][seat]
    if card not in hand:
        raise IllegalAction(f"{action!r} refused: card {card!r} is not in seat {seat}'s hand")
    hand.remove(card)
    s["rows"][seat].append(card)
    event = {"kind": "reveal", "seat": seat, "card": card}
    s["log"].append(event)
    if card in data.DAY_CARDS:
        event["day_from"] = s["day"]
        day = s["day"] + 1
        if day >= TIME_UP_DAY:
            event["time_up"] = True
            s["day"] = 1
            _leave(s, seat, "time_up")
            _next_turn(s)
            return
        s["day"] = day
        event["day_to"] = day
    if card == data.GATHER:
        order = s["order"]
        for p in range(NUM_PLAYERS):
            if s["active"][p]:
                s["area"][p] = data.LODGE
        s["log"].append({"kind": "gather", "area": data.LODGE})
        x, y, z = order
        pairs = [[a, b] for a, b in ((x, y), (y, z), (z, x)) if s["active"][a] and s["active"][b]]
        _exchange_phase(s, pairs)
    elif card[0] == "p":
        _move_to(s, seat, int(card[1:]), by_card=True)
    else:
        s["phase"] = "move"


def _do_move(s, seat, action):
    area = action["area"]
    here = s["area"][seat]
    if area not in data.ADJACENCY[here]:
        raise IllegalAction(f"{action!r} refused: area {area} is not adjacent to area {here} "
                            f"(adjacent: {data.ADJACENCY[here]})")
    _move_to(s, seat, area, by_card=False)


def _do_order(s, seat, action):
    wanted = [tuple(p) for p in action["pairs"]]
    pending = [tuple(p) for p in s["pending"]["pairs"]]
    canon = lambda pairs: sorted(tuple(sorted(p)) for p in pairs)  # noqa: E731
    if canon(wanted) != canon(pending):
        raise IllegalAction(f"{action!r} refused: the exchanges to order are {s['pending']['pairs']}")
    # keep the pairs as pending lists them (orientation), in the chosen order
    by_key = {tuple(sorted(p)): list(p) for p in pending}
    chosen = [by_key[tuple(sorted(p))] for p in wanted]
    s["pending"] = None
    s["log"].append({"kind": "order", "seat": seat, "pairs": chosen})
    for a, b in chosen:
        _exchange(s, a, b)
    _after_exchanges(s)


def _do_suggest(s, seat, action):
    c, p = action["character"], action["place"]
    s["log"].append({"kind": "suggest", "seat": seat, "character": c, "place": p})
    passed = []
    s["pending"] = {"character": c, "place": p, "passed": passed}
    for i in (1, 2):
        other = (seat + i) % NUM_PLAYERS
        if not s["active"][other]:
            continue
        if _matching(s, other):
            s["shower"] = other
            s["phase"] = "show"
            return
        passed.append(other)
        s["log"].append({"kind": "no_card", "seat": other})
    s["log"].append({"kind": "none_shown", "seat": seat})
    s["pending"] = None
    s["phase"] = "accuse"


def _do_show(s, seat, action):
    card = action["card"]
    if card not in _matching(s, seat):
        raise IllegalAction(f"{action!r} refused: seat {seat} must show one of {_matching(s, seat)}")
    asker = s["turn"]
    s["log"].append({"kind": "show", "seat": seat, "to": asker,
                     "secret": {"card": card}, "seen_by": sorted((seat, asker))})
    s["shower"] = None
    s["pending"] = None
    s["phase"] = "accuse"


def _do_accuse(s, seat, action):
    c, p = action["character"], action["place"]
    correct = c == s["culprit"] and p == s["location"]
    s["log"].append({"kind": "accuse", "seat": seat, "character": c, "place": p, "correct": correct,
                     "secret": {"culprit": s["culprit"], "location": s["location"]}, "seen_by": [seat]})
    if correct:
        _finish(s, seat, "accusation")
        return
    _leave(s, seat, "wrong_accusation")
    _next_turn(s)


def _do_end_turn(s, seat, action):
    s["log"].append({"kind": "end_turn", "seat": seat})
    _next_turn(s)


_HANDLERS = {
    "pick": _do_pick, "bid": _do_bid, "pass": _do_pass, "reveal": _do_reveal, "move": _do_move,
    "order": _do_order, "suggest": _do_suggest, "show": _do_show, "accuse": _do_accuse,
    "end_turn": _do_end_turn,
}


def public_action(after: Any, seat: int, action: dict) -> dict | None:
    """What the other players learn of an action as it is made: everything (picks, bids, revealed
    cards, moves, the exchange order, suggestions and accusations are all said at the table and
    in its public log) except which card a player showed the asker."""
    kind = action.get("type")
    if kind == "show":
        return {"type": "show"}
    if kind == "order":  # the pairs as the table's log says them (a pair may be written either way round)
        logged = next(e for e in reversed(after["log"]) if e["kind"] == "order")
        return {"type": "order", "pairs": copy_plain(logged["pairs"])}
    return dict(action)


# ---------------------------------------------------------------- view
# The one place that decides what a seat (or a spectator, seat None) may see.
#
# Public: characters in play, the missing person, pieces, the Day marker, every revealed row, the
# hands of players who left, hand sizes, the auction, who exchanged with whom, suggestions and who
# showed, accusations and whether they were right. Private: the own hand; the cards of an exchange
# (its two players); a shown card (shower and asker); an accusation's check (the accuser, during the
# check: until the next player's turn is over). A player who is out gets the public view (a
# spectator's log: the solution stays hidden from them, ruling). The culprit and the location are
# shown to everybody only once the game is over.
def view(s: dict, seat: Any) -> dict:
    """Everything ``seat`` (None = spectator) may know. The only place views are built; every
    call builds new objects (nothing shared with the state or another seat's view)."""
    me = check_seat(seat, NUM_PLAYERS, spectator=True)
    over = s["phase"] == "over"
    players = []
    for p in range(len(s["hands"])):
        players.append({
            "seat": p,
            "character": s["chars"][p],
            "area": s["area"][p],
            "active": s["active"][p],
            "hand_count": len(s["hands"][p]),
            "row": list(s["rows"][p]),
            "exposed": list(s["exposed"][p]) if s["exposed"][p] is not None else None,
            "left": _left_reason(s, p),
        })
    auction = None
    if s["auction"] is not None:
        auc = s["auction"]
        auction = {"bids": [list(b) for b in auc["bids"]], "high": auc["high"],
                   "high_bidder": auc["high_bidder"], "bidder": s["bidder"]}
    pending = None
    if s["phase"] == "order":
        pending = {"pairs": [list(p) for p in s["pending"]["pairs"]]}
    elif s["phase"] == "show":
        pend = s["pending"]
        pending = {"character": pend["character"], "place": pend["place"],
                   "passed": list(pend["passed"]), "shower": s["shower"], "asker": s["turn"]}
    out = me is not None and not s["active"][me] and not over
    log = [_redact(e, None if out and not _their_check(s["log"], i, me) else me) for i, e in enumerate(s["log"])]
    return {
        "game": "mipolin",
        "seat": me,
        "options": {"suggestions": s["opts"]["suggestions"], "character_choice": s["opts"]["character_choice"]},
        "phase": s["phase"],
        "provisional_dealer": s["pd"],
        "picker": s["picker"],
        "dealer": s["dealer"],
        "order": list(s["order"]) if s["order"] else None,
        "turn": s["turn"],
        "round": s["round"],
        "turns_each": 6,
        "day": s["day"],
        "time_up_day": 6,
        "missing": s["missing"],
        "players": players,
        "hand": list(s["hands"][me]) if me is not None else None,
        "auction": auction,
        "pending": pending,
        "log": log,
        "last": _last_turn_events(log),
        "solution": {"culprit": s["culprit"], "location": s["location"]} if over else None,
        "outcome": outcome(s),
        "catalog": data.public_catalog(),
    }


def _redact(event: dict, me: int | None) -> dict:
    if "secret" not in event:
        return copy_plain(event)
    out = {k: copy_plain(v) for k, v in event.items() if k not in ("secret", "seen_by")}
    if me is not None and me in event["seen_by"]:
        out.update(copy_plain(event["secret"]))
        out["private"] = True
    return out


def _their_check(log: list, index: int, seat: int) -> bool:
    """``log[index]`` is ``seat``'s (wrong) accusation and its check is still on: at most the next
    player's turn has begun since (that turn's events are the accuser's time to read what they saw)."""
    event = log[index]
    return (event["kind"] == "accuse" and event["seat"] == seat
            and sum(e["kind"] == "turn" for e in log[index + 1:]) <= 1)


def _left_reason(s: dict, p: int) -> str | None:
    if s["active"][p]:
        return None
    for event in reversed(s["log"]):
        if event["kind"] == "leave" and event["seat"] == p:
            return event["why"]
    return None


def _last_turn_events(log: list) -> list:
    """What just happened: the events of the previous turn and of the current one so far (the whole
    log before the second turn starts)."""
    starts = 0
    for i in range(len(log) - 1, -1, -1):
        if log[i]["kind"] == "turn":
            starts += 1
            if starts == 2:
                return log[i:]
    return log


# ---------------------------------------------------------------- outcome
def outcome(state: dict) -> dict | None:
    if state["phase"] != "over":
        return None
    winner = state["winner"]
    if winner is not None:
        ranks = [0 if p == winner else 1 for p in range(NUM_PLAYERS)]
    else:
        still_in = sum(state["active"])
        ranks = [0 if state["active"][p] else still_in for p in range(NUM_PLAYERS)]
    return {"ranks": ranks, "scores": None, "teams": None, "reason": state["reason"], "winner": winner}


def state_to_json(state: dict) -> dict:
    return copy_plain(state)


def state_from_json(data_: dict) -> dict:
    if not isinstance(data_, dict) or "phase" not in data_ or "hands" not in data_:
        raise InvalidAction(f"not a mipolin state: {str(data_)[:80]!r}")
    return copy_plain(data_)


def clock_seconds(state: dict, seat: Any) -> float | None:
    """The room clock (``turn_seconds``, default 60) for the awaited seat's decision."""
    check_seat(seat, NUM_PLAYERS, system=True)
    return seat_clock(state["opts"].get("turn_seconds", 0), seat, awaiting(state))


def on_timeout(state: dict, seat: Any) -> dict:
    """A plain legal action for a seat whose clock ran out: pass / the lowest bid, end the turn
    without accusing, reveal a card that cannot time out if there is one, else the first option."""
    legal = legal_actions(state, check_seat(seat, NUM_PLAYERS))
    if not legal:
        raise IllegalAction(f"seat {seat!r} is not awaited in phase {state['phase']!r}")
    for pick in ("pass", "end_turn"):
        for act in legal:
            if act["type"] == pick:
                return act
    if state["phase"] == "reveal":
        safe = [a for a in legal if a["card"] not in data.DAY_CARDS]
        return (safe or legal)[0]
    return legal[0]


def check_invariants(state: dict) -> None:
    cards = [c for hand in state["hands"] for c in hand] + [c for row in state["rows"] for c in row]
    cards += [c for hand in state["exposed"] if hand for c in hand]
    if state["culprit"] is None:  # character choice, before the deal
        assert state["phase"] == "pick" and not cards, "cards dealt before the picks ended"
        return
    cards += [f"c{state['missing']}", f"c{state['culprit']}", f"p{state['location']}"]
    cards += [f"c{c}" for c in state["chars"]]
    assert sorted(cards) == sorted(data.ALL_CARDS), f"card conservation broke: {sorted(cards)}"
    assert 1 <= state["day"] <= MAX_BID, f"day {state['day']} off the track"
    assert sum(state["active"]) >= 1, "nobody left in the game"
    for p in range(NUM_PLAYERS):
        played = len(state["rows"][p])
        if state["active"][p]:
            assert len(state["hands"][p]) + played == HAND_SIZE, f"seat {p} hand size off"
            assert state["area"][p] in data.ADJACENCY and state["exposed"][p] is None
        else:
            assert not state["hands"][p] and state["area"][p] is None
            assert len(state["exposed"][p]) + played == HAND_SIZE, f"seat {p} revealed hand off"
    if state["phase"] not in ("pick", "bid", "over"):
        assert state["active"][state["turn"]], "turn player is out"
    if state["phase"] == "over":
        assert state["winner"] is None or state["active"][state["winner"]]


# ---------------------------------------------------------------- private helpers
def _rng(seed, tag) -> random.Random:
    return random.Random(f"mipolin:{seed}:{tag}")


def _clone(state: dict) -> dict:
    s = dict(state)
    for key in ("chars", "rows", "hands", "exposed", "area", "active", "log"):
        s[key] = list(state[key])
    s["hands"] = [list(h) for h in s["hands"]]
    s["rows"] = [list(r) for r in s["rows"]]
    if state["auction"] is not None:
        s["auction"] = dict(state["auction"], bids=list(state["auction"]["bids"]))
    if state["pending"] is not None:
        s["pending"] = copy_plain(state["pending"])
    return s


def _validate(action) -> str:
    if not isinstance(action, dict):
        raise InvalidAction(f"action must be a dict with a 'type', got {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidAction(f"unknown action type {kind!r} in {action!r}; known: {list(ACTION_TYPES)}")
    extra = set(action) - _FIELDS[kind] - {"type"}
    missing = _FIELDS[kind] - set(action)
    if extra or missing:
        raise InvalidAction(f"{action!r}: {kind!r} takes fields {sorted(_FIELDS[kind])} "
                            f"(missing {sorted(missing)}, unexpected {sorted(extra)})")
    for name in ("character", "place", "area", "level"):
        if name in action:
            value = action[name]
            top = MAX_BID if name == "level" else 9
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
                raise InvalidAction(f"{action!r}: {name!r} must be an integer 1-{top}, got {value!r}")
    if "card" in action and (not isinstance(action["card"], str) or action["card"] not in data.CARD_ORDER):
        raise InvalidAction(f"{action!r}: unknown card {action['card']!r}")
    if "pairs" in action:
        pairs = action["pairs"]
        ok = isinstance(pairs, list) and 1 <= len(pairs) <= 3 and all(
            isinstance(p, list) and len(p) == 2 and p[0] != p[1]
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < NUM_PLAYERS for x in p)
            for p in pairs)
        if not ok:
            raise InvalidAction(f"{action!r}: 'pairs' must be a list of [seat, seat] pairs")
    return kind


def _sorted_hand(cards) -> list:
    return sorted(cards, key=data.CARD_ORDER.__getitem__)


def _setup(s: dict) -> None:
    """Shuffle and deal (after the picks in the character-choice variant), then start the auction."""
    rng = _rng(s["seed"], "setup")
    pd = s["pd"]
    deal_order = [(pd + 1) % NUM_PLAYERS, (pd + 2) % NUM_PLAYERS, pd]
    chars = [c for c in data.CHARACTERS if c not in s["chars"]]
    rng.shuffle(chars)
    s["missing"], s["culprit"] = chars[0], chars[1]
    rest_chars = chars[2:]
    if None in s["chars"]:
        for seat in deal_order:
            s["chars"][seat] = rest_chars.pop(0)
    places = list(data.PLACES)
    rng.shuffle(places)
    s["location"] = places[0]
    deck = [f"c{c}" for c in rest_chars] + [f"p{p}" for p in places[1:]] + list(data.DAY_CARDS)
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
    for i, card in enumerate(deck):
        hands[deal_order[i % NUM_PLAYERS]].append(card)
    s["hands"] = [_sorted_hand(h) for h in hands]
    s["area"] = [c for c in s["chars"]]
    s["log"].append({"kind": "deal", "missing": s["missing"], "chars": list(s["chars"])})
    if s["opts"]["suggestions"]:
        s["log"].append({"kind": "no_auction", "dealer": pd})
        _start_turns(s, pd, 1)
    else:
        s["phase"] = "bid"
        s["bidder"] = pd
        s["auction"] = {"bids": [], "high": 0, "high_bidder": None, "passes": 0}


def _end_auction(s: dict) -> None:
    auc = s["auction"]
    s["bidder"] = None
    s["log"].append({"kind": "dealer", "seat": auc["high_bidder"], "day": auc["high"]})
    _start_turns(s, auc["high_bidder"], auc["high"])


def _start_turns(s: dict, dealer: int, day: int) -> None:
    s["dealer"] = dealer
    s["order"] = [(dealer + 1) % NUM_PLAYERS, (dealer + 2) % NUM_PLAYERS, dealer]
    s["day"] = day
    s["round"] = 1
    s["turn"] = s["order"][0]
    s["phase"] = "reveal"
    s["log"].append({"kind": "turn", "seat": s["turn"], "round": 1})


def _move_to(s: dict, seat: int, area: int, by_card: bool) -> None:
    s["log"].append({"kind": "move", "seat": seat, "from": s["area"][seat], "to": area, "by_card": by_card})
    s["area"][seat] = area
    others = [(seat + i) % NUM_PLAYERS for i in (1, 2)]
    pairs = [[seat, o] for o in others if s["active"][o] and s["area"][o] == area]
    _exchange_phase(s, pairs)


def _exchange_phase(s: dict, pairs: list) -> None:
    hands = s["hands"]
    live = []
    for a, b in pairs:
        if hands[a] and hands[b]:
            live.append([a, b])
        else:
            s["log"].append({"kind": "exchange_skipped", "a": a, "b": b})
    if len(live) >= 2:
        s["phase"] = "order"
        s["pending"] = {"pairs": live}
        return
    for a, b in live:
        _exchange(s, a, b)
    _after_exchanges(s)


def _exchange(s: dict, a: int, b: int) -> None:
    """Old-Maid draw both ways: each takes one random card from the other's hand."""
    rng = _rng(s["seed"], f"x{s['draws']}")
    s["draws"] += 1
    hands = s["hands"]
    from_a = hands[a][rng.randrange(len(hands[a]))]
    from_b = hands[b][rng.randrange(len(hands[b]))]
    hands[a].remove(from_a)
    hands[b].remove(from_b)
    hands[a] = _sorted_hand(hands[a] + [from_b])
    hands[b] = _sorted_hand(hands[b] + [from_a])
    s["log"].append({"kind": "exchange", "a": a, "b": b,
                     "secret": {"a_got": from_b, "b_got": from_a}, "seen_by": sorted((a, b))})


def _after_exchanges(s: dict) -> None:
    s["phase"] = "suggest" if s["opts"]["suggestions"] else "accuse"


def _matching(s: dict, seat: int) -> list:
    pend = s["pending"]
    wanted = (f"c{pend['character']}", f"p{pend['place']}")
    return [card for card in s["hands"][seat] if card in wanted]


def _leave(s: dict, seat: int, why: str) -> None:
    hand = s["hands"][seat]
    s["exposed"][seat] = hand
    s["hands"][seat] = []
    s["active"][seat] = False
    s["area"][seat] = None
    s["log"].append({"kind": "leave", "seat": seat, "why": why, "hand": list(hand)})


def _finish(s: dict, winner: int | None, reason: str) -> None:
    s["phase"] = "over"
    s["winner"] = winner
    s["reason"] = reason
    s["pending"] = None
    s["shower"] = None
    s["log"].append({"kind": "game_over", "winner": winner, "reason": reason,
                     "culprit": s["culprit"], "location": s["location"]})


def _next_turn(s: dict) -> None:
    active = s["active"]
    if sum(active) == 1:
        _finish(s, active.index(True), "last_standing")
        return
    order = s["order"]
    pos, rnd = order.index(s["turn"]), s["round"]
    while True:
        pos += 1
        if pos == NUM_PLAYERS:
            pos, rnd = 0, rnd + 1
        if rnd > TURNS_EACH:
            _finish(s, None, "no_winner")
            return
        if active[order[pos]]:
            break
    s["turn"], s["round"], s["phase"] = order[pos], rnd, "reveal"
    s["log"].append({"kind": "turn", "seat": order[pos], "round": rnd})
