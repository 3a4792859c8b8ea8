"""Three Magic (スリーマジック): a 3-player mahjong-like card game about casting three spells.

Rules gist (authoritative text: static/rules/three_magic.html; rulings in the rules page):
- 60 mana cards: Fire/Wood/Water x numbers 0-4 x 4 copies (numbers 1-4: 3 of 4 copies starred).
  Each player has an element (dealt from the seed) and 270 od. The Fire player deals first.
- A *spell* is 3 same-element cards, equal numbers or a run 012 123 234 340 / 043 432 321 210
  (0 only at a run's end). Hand order is fixed: a drawn card is inserted anywhere, any card can be
  discarded. 9 cards whose positions 1-3, 4-6, 7-9 are spells win (called spells count as groups).
- A match: deal 8 each, 5 spare (first one revealed as the catalyst indicator), the rest is the
  pile. From the dealer, each turn: draw + insert, then tsumo or discard (optionally riichi).
- After every discard both other seats are in the call window (Ruling: whether or not they can call,
  so nobody learns who could): ron > pon > chi; several rons go to the seat next after the
  discarder; chi only from the left player. Pledges (pon/chi) cost od
  (own element 10/30, other 30/90, a 2nd pledge pays the 2nd price), at most two per match, lose
  riichi and the ley line pot; the caller discards next and cannot ron until their next draw.
- Riichi: tenpai, not pledged, 10 od on the discard, a new indicator from the spare; afterwards
  every drawn card is discarded unless it wins.
- Scoring: element (10/30/90 for 1/2/3 spells of the counted element), number (best of 180/60/
  30/30), star (10/30/90 for all-starred spells), catalyst (10 per named card per indicator, only if
  the rest reaches 10). Ron: discarder pays; tsumo: the others pay half each. Table od goes back to
  a riichi winner or into the ley line pot; a winner without pledges takes the pot.
- Exhaustive draw and 0-point wins: table od to the pot; dealer stays (+10 to the pot) when tenpai
  (always for a 0-point win), else the deal passes. The game ends after two rounds of dealers (sun,
  moon; one with ``short_game``) or when a player has 0 od after a match. Highest od wins.

Phases: "insert" (turn seat holds a drawn card: insert it, tsumo, or — in riichi — discard it),
"discard" (turn seat discards, optionally declaring riichi), "calls" (the call window after every
discard, see below), "match_end" (SYSTEM deals the next match after ``delay``), "over".

The call window (Ruling "call window"): after every discard both other seats are awaited, with the
same clock, whether or not they can call; while the window's minimum time runs (room option
``call_window``, default 1 s) SYSTEM is awaited too, its one action ``close_window`` applied after
``delay``. A seat may decide (ron/pon/chi/pass) at any time; a decision is final and secret. When
the minimum time is over the server passes for the undecided seats with nothing to call; the
window closes once every seat that has a real choice has decided, and the calls are resolved.
``awaiting`` is the undecided seats (who may still act), but every view shows ``shown_awaiting``:
both other seats (and SYSTEM while the minimum runs) until the window closes, with one clock. So
what a seat receives never tells which other seat has decided, or which one can call; that the
window stays open past its minimum (somebody can call) and the moments answers arrive are public.

Actions: {"type": "insert", "pos": p}, {"type": "tsumo", "pos": p}, {"type": "discard_drawn"}
(riichi only), {"type": "discard", "index": i, "riichi": bool}, {"type": "ron", "pos": p},
{"type": "pon"|"chi", "cards": [i, j]} (hand indices, i < j), {"type": "pass"}, SYSTEM
{"type": "close_window"} and {"type": "next_match"}. Clock: room option ``turn_seconds``; ``on_timeout`` returns an ordinary
legal action (insert at the end / discard the drawn card / pass), no server-only action exists.
"""

from __future__ import annotations

import random
from typing import Any

from engines.plain import copy_plain
from engines.protocol import SYSTEM, IllegalAction, InvalidAction, check_seat, clock_option, resolve_options, seat_clock
from engines.three_magic import data
from engines.three_magic import spells as sp

# ---------------------------------------------------------------- metadata
ID = "three_magic"
TITLE = "Three Magic"
TITLE_JA = "スリーマジック"
MIN_PLAYERS = data.NUM_PLAYERS
MAX_PLAYERS = data.NUM_PLAYERS
VERSION = "1"
OPTIONS = [
    {"name": "short_game", "type": "bool", "default": False,
     "label_en": "Short game (one round of dealers)", "label_ja": "短縮ゲーム(管理者1巡)"},
    clock_option(30, "the drawn card goes to the end (in riichi: discarded), the card just inserted "
                     "is discarded, a call decision passes",
                 "引いた札は右端へ(リーチ中は捨てる)、差した札を捨てる、誓約はパス"),
    {"name": "call_window", "type": "float", "default": data.CALL_WINDOW_SECONDS, "min": 0.5, "max": 10,
     "label_en": "Call window after every discard (minimum seconds; hides who can call)",
     "label_ja": "捨て札ごとの誓約受付(最短秒数。誰が鳴けるかを隠す)"},
]
# Fields of each action type besides "type" ("discard" may also carry "riichi"); nothing else is accepted.
ACTION_FIELDS = {"insert": {"pos"}, "tsumo": {"pos"}, "discard_drawn": set(), "discard": {"index"}, "ron": {"pos"},
                 "pon": {"cards"}, "chi": {"cards"}, "pass": set(), "close_window": set(), "next_match": set()}
ACTION_TYPES = tuple(ACTION_FIELDS)
SYSTEM_TYPES = ("close_window", "next_match")
TOTAL_OD = data.START_OD * data.NUM_PLAYERS


# ---------------------------------------------------------------- state
def new_game(num_players: Any, seed: int, options: Any = None) -> dict:
    if num_players != data.NUM_PLAYERS:
        raise InvalidAction(f"Three Magic is for exactly 3 players, not {num_players!r}")
    opts = resolve_options(OPTIONS, options)
    elements = list(range(len(data.ELEMENTS)))
    random.Random(f"three_magic/{seed}/elements").shuffle(elements)
    first_dealer = elements.index(data.FIRE)
    state = {
        "seed": seed, "opts": opts, "elements": elements,
        "od": [data.START_OD] * 3, "pot": 0, "table_od": 0,
        "first_dealer": first_dealer, "dealer": first_dealer, "passes": 0, "match_no": 0,
        "last_result": None, "log": [], "over_reason": None,
    }
    _deal(state)
    return state


def awaiting(state: dict) -> frozenset[int]:
    phase = state["phase"]
    if phase in ("insert", "discard"):
        return frozenset((state["turn"],))
    if phase == "calls":
        call = state["call"]
        undecided = [s for s in call["callers"] if call["choices"][s] is None]
        return frozenset(undecided + ([SYSTEM] if call.get("open") else []))
    if phase == "match_end":
        return frozenset((SYSTEM,))
    return frozenset()


def shown_awaiting(state: dict) -> frozenset[int]:
    """What every view shows as awaited: in a call window both other seats until it closes (and
    SYSTEM while its minimum time runs), whoever has decided already (Ruling "call window")."""
    if state["phase"] == "calls":
        call = state["call"]
        return frozenset(list(call["callers"]) + ([SYSTEM] if call.get("open") else []))
    return awaiting(state)


def state_to_json(state: dict) -> dict:
    return copy_plain(state)


def state_from_json(data_: dict) -> dict:
    return copy_plain(data_)


# ---------------------------------------------------------------- legal actions
def legal_actions(state: dict, seat: Any) -> list[dict]:
    if check_seat(seat, data.NUM_PLAYERS, system=True) not in awaiting(state):
        return []
    phase = state["phase"]
    if phase == "match_end":
        return [{"type": "next_match"}]
    if seat == SYSTEM:
        return [{"type": "close_window"}]
    if phase == "insert":
        hand = state["hands"][seat]
        out = [{"type": "tsumo", "pos": p} for p in sp.winning_positions(hand, state["drawn"])]
        if state["riichi"][seat]:
            out.append({"type": "discard_drawn"})
        else:
            out.extend({"type": "insert", "pos": p} for p in range(len(hand) + 1))
        return out
    if phase == "discard":
        hand = state["hands"][seat]
        out = [{"type": "discard", "index": i, "riichi": False} for i in range(len(hand))]
        if _may_riichi(state, seat) and _has_spell_window(hand):
            melds = state["melds"][seat]
            out.extend({"type": "discard", "index": i, "riichi": True} for i in range(len(hand))
                       if sp.is_tenpai(hand[:i] + hand[i + 1:], melds))
        return out
    # calls
    call = state["call"]
    return _call_options(state, seat, call["card"], call["from"]) + [{"type": "pass"}]


# ---------------------------------------------------------------- apply
def apply(state: dict, seat: Any, action: Any) -> dict:
    check_seat(seat, data.NUM_PLAYERS, system=True)
    kind = _validate(action)
    if seat not in awaiting(state):
        raise IllegalAction(f"seat {seat!r} is not awaited now (phase {state['phase']!r}, "
                            f"awaiting {sorted(awaiting(state))}); cannot {action!r}")
    phase = state["phase"]
    if phase == "match_end":
        if kind != "next_match":
            raise IllegalAction(f"{action!r}: the match is over, only the server's next_match step is due")
        s = _clone(state)
        s["match_no"] += 1
        _deal(s)
        return s
    if (seat == SYSTEM) != (kind in SYSTEM_TYPES) or kind == "next_match":
        raise IllegalAction(f"{action!r} from seat {seat}: the server takes only close_window (while a call "
                            f"window's minimum time runs) and next_match (after a match); players never do")
    if phase == "insert":
        return _apply_insert(state, seat, kind, action)
    if phase == "discard":
        return _apply_discard(state, seat, kind, action)
    return _apply_call(state, seat, kind, action)


def _apply_insert(state, seat, kind, action):
    hand = state["hands"][seat]
    drawn = state["drawn"]
    if kind == "tsumo":
        pos = action["pos"]
        new_hand = hand[:pos] + [drawn] + hand[pos:] if 0 <= pos <= len(hand) else None
        if new_hand is None or not sp.is_winning(new_hand):
            raise IllegalAction(f"{action!r}: inserting the drawn card there does not complete three spells")
        s = _clone(state)
        s["hands"][seat] = new_hand
        s["drawn"] = None
        _win(s, seat, "tsumo", None)
        return s
    if kind == "insert":
        if state["riichi"][seat]:
            raise IllegalAction(f"{action!r}: seat {seat} declared riichi and must discard the drawn card (or tsumo)")
        pos = action["pos"]
        if not 0 <= pos <= len(hand):
            raise IllegalAction(f"{action!r}: position must be 0..{len(hand)} for a hand of {len(hand)}")
        s = _clone(state)
        s["hands"][seat] = hand[:pos] + [drawn] + hand[pos:]
        s["drawn"] = None
        s["inserted"] = pos
        s["phase"] = "discard"
        return s
    if kind == "discard_drawn":
        if not state["riichi"][seat]:
            raise IllegalAction(f"{action!r}: only a seat in riichi discards the drawn card directly; insert it first")
        s = _clone(state)
        s["drawn"] = None
        _discard(s, seat, drawn, False)
        return s
    raise IllegalAction(f"{action!r}: seat {seat} holds a drawn card: insert it, or tsumo")


def _apply_discard(state, seat, kind, action):
    if kind != "discard":
        raise IllegalAction(f"{action!r}: seat {seat} must discard a card now")
    hand = state["hands"][seat]
    index = action["index"]
    if not 0 <= index < len(hand):
        raise IllegalAction(f"{action!r}: index must be 0..{len(hand) - 1} for a hand of {len(hand)}")
    rest = hand[:index] + hand[index + 1:]
    riichi = action.get("riichi", False)
    if riichi:
        if not _may_riichi(state, seat):
            raise IllegalAction(f"{action!r}: seat {seat} may not declare riichi (already in riichi, pledged, "
                                f"or cannot pay {data.RIICHI_PRICE} od)")
        if not sp.is_tenpai(rest, state["melds"][seat]):
            raise IllegalAction(f"{action!r}: the hand after this discard is not tenpai, so no riichi")
    s = _clone(state)
    s["hands"][seat] = rest
    s["inserted"] = None
    _discard(s, seat, hand[index], riichi)
    return s


def _apply_call(state, seat, kind, action):
    call = state["call"]
    if kind == "close_window":
        s = _clone(state)
        s["call"] = dict(call, open=False)
        _settle_window(s)
        return s
    if kind == "pass":
        choice = {"type": "pass"}
    elif kind in ("ron", "pon", "chi"):
        choice = _normalize_call(action, kind)
        if choice not in _call_options(state, seat, call["card"], call["from"]):
            raise IllegalAction(f"{action!r}: not a legal call for seat {seat} on the discard "
                                f"{_card_text(call['card'])} from seat {call['from']}")
    else:
        raise IllegalAction(f"{action!r}: seat {seat} is deciding on a call (ron/pon/chi/pass) now")
    s = _clone(state)
    new_call = dict(call)
    new_call["choices"] = list(call["choices"])
    new_call["choices"][seat] = choice
    s["call"] = new_call
    if not new_call.get("open"):
        _settle_window(s)
    return s


def public_action(after: Any, seat: int, action: dict) -> dict | None:
    """What the other players learn of an action as it is made: its kind, and a discard's riichi.
    Hand positions (where a card went in, which one left) are not given: the table shows the
    discarded card, never where in a hand it was. An answer in the call window (a pass, pon, chi
    or ron) is nothing yet: the window shows no answer until it closes (Ruling "call window").
    The server's own steps (the window closing, the next deal) are public."""
    kind = action.get("type")
    if kind == "discard":
        return {"type": "discard", "riichi": bool(action.get("riichi"))}
    return {"type": kind} if kind in ("insert", "discard_drawn", "tsumo") or kind in SYSTEM_TYPES else None


# ---------------------------------------------------------------- view
# The one place a Three Magic view is built: what a seat (or a spectator) may know.
#
# Public: discards (riichi od, who took a card), called spells with their od, revealed indicators
# and the card each names, od, table od, ley line pot, dealer, round, riichi flags, counts of hidden
# cards, the last match result and a log of public events. Private: the seat's own hand in its fixed
# order, its drawn card and where it inserted it, its tenpai waits, its own pending call choice, and
# (the dealer's) its tenpai hand after an exhaustive draw.
# Never: other hands, the pile, the spare, other seats' call choices, whether another seat has
# decided in a call window, or whether a seat can call (the server shows ``shown_awaiting``).
def view(s: dict, seat: Any) -> dict:
    """Everything ``seat`` (None = spectator) may know. The only place views are built; every
    call builds new objects (nothing shared with the state or another seat's view)."""
    me = check_seat(seat, data.NUM_PLAYERS, spectator=True)
    phase = s["phase"]
    in_match = phase in ("insert", "discard", "calls")
    rounds = data.SHORT_GAME_ROUNDS if s["opts"]["short_game"] else data.FULL_GAME_ROUNDS
    round_index = min(s["passes"] // 3, rounds - 1)
    players = []
    for p in range(data.NUM_PLAYERS):
        hand_count = len(s["hands"][p]) + (1 if in_match and phase == "insert" and s["turn"] == p else 0)
        players.append({
            "seat": p,
            "element": data.ELEMENTS[s["elements"][p]],
            "weak_to": data.ELEMENTS[data.WEAKNESS[s["elements"][p]]],
            "od": s["od"][p],
            "dealer": p == s["dealer"],
            "riichi": s["riichi"][p],
            "pledges": s["pledged"][p],
            "lost_rights": s["pledged"][p] > 0,
            "no_ron_until_draw": s["no_ron"][p],
            "hand_count": hand_count,
            "melds": [{"cards": [card(c) for c in m[:3]], "od": m[3], "from": m[4],
                       "kind": "pon" if sp.number(m[0]) == sp.number(m[1]) else "chi"}
                      for m in s["melds"][p]],
            "discards": [{"card": card(d[0]), "riichi_od": d[1], "taken_by": d[2] if d[2] >= 0 else None}
                         for d in s["discards"][p]],
        })
    v = {
        "game": "three_magic",
        "seat": me,
        "phase": phase,
        "turn": s["turn"] if in_match else None,
        "match": s["match_no"],
        "round": data.ROUND_NAMES[round_index][0],
        "round_index": round_index,
        "rounds": rounds,
        "dealer": s["dealer"],
        "first_dealer": s["first_dealer"],
        "dealer_passes": s["passes"],
        "pot": s["pot"],
        "table_od": s["table_od"],
        "pile_count": len(s["pile"]),
        "spare_count": len(s["spare"]),
        "indicators": [{"card": card(c), "names": type_card(sp.named_type(c)),
                        "riichi_by": by if by >= 0 else None} for c, by in s["indicators"]],
        "players": players,
        "hand": None,
        "drawn": None,
        "inserted": None,
        "waits": None,
        "call": None,
        "options": dict(s["opts"]),  # scalars only
        "last_result": _result(s["last_result"], me),
        "log": [_event(e) for e in s["log"]],  # this match's public events
        "over_reason": s["over_reason"],
        "prices": None,
    }
    if phase == "calls":
        call = s["call"]
        v["call"] = {"card": card(call["card"]), "from": call["from"], "my_choice": None}
    if me is not None:
        hand = s["hands"][me]
        v["hand"] = [card(c) for c in hand]
        if in_match and phase == "insert" and s["turn"] == me:
            v["drawn"] = card(s["drawn"])
        if in_match and phase == "discard" and s["turn"] == me:
            v["inserted"] = s["inserted"]
        if in_match and len(hand) % 3 == 2:
            v["waits"] = [{"pos": p, "card": type_card(t)} for p, t in sp.tenpai_waits(hand, s["melds"][me])]
        if v["call"] is not None:
            choice = s["call"]["choices"][me]
            v["call"]["my_choice"] = copy_plain(choice) if choice is not None else None
        own = s["elements"][me]
        k = min(s["pledged"][me], data.MAX_PLEDGES - 1)
        v["prices"] = {"own_element": data.PLEDGE_PRICE[(k, True)], "other_element": data.PLEDGE_PRICE[(k, False)],
                       "element": data.ELEMENTS[own], "riichi": data.RIICHI_PRICE}
    return v


_CARDS = [(data.ELEMENTS[sp.element(c)], sp.number(c), sp.has_star(c)) for c in range(data.NUM_CARDS)]


def card(c: int) -> dict:
    el, n, star = _CARDS[c]
    return {"el": el, "n": n, "star": star}


def type_card(t: int) -> dict:
    return {"el": data.ELEMENTS[sp.type_element(t)], "n": sp.type_number(t)}


def _event(e: dict) -> dict:
    out = copy_plain(e)
    if "card" in out:
        out["card"] = card(out["card"])
    if "indicator" in out:
        out["indicator"] = card(out["indicator"])
    if "cards" in out:
        out["cards"] = [card(c) for c in out["cards"]]
    return out


def _result(r: dict | None, me: int | None) -> dict | None:
    if r is None:
        return None
    out = copy_plain(r)  # never hand out the state's own lists
    if "spells" in r:
        out["spells"] = [{"cards": [card(c) for c in sp_["cards"]], "called": sp_["called"]} for sp_ in r["spells"]]
        score = r["score"]
        kind = score["number"]["kind"]
        en, ja = next((e, j) for k, _p, e, j in data.NUMBER_KINDS if k == kind)
        out["score"] = {
            "element": {"element": data.ELEMENTS[score["element"]["element"]], "count": score["element"]["count"],
                        "points": score["element"]["points"],
                        "why": "winner's own element (tsumo)" if r["kind"] == "tsumo"
                        else "the discarder's weakness element (ron)"},
            "number": {"kind": kind, "points": score["number"]["points"], "en": en, "ja": ja},
            "star": dict(score["star"]),
            "catalyst": {"points": score["catalyst"]["points"], "applies": score["catalyst"]["applies"],
                         "cards": [{"card": card(c), "times": k} for c, k in score["catalyst"]["cards"]]},
            "items": score["items"],
            "total": score["total"],
        }
        out["indicators_counted"] = [card(c) for c in r["indicators_counted"]]
    out.pop("dealer_hand", None)  # a tenpai dealer's hand after an exhaustive draw: the dealer only
    if r.get("dealer_hand") is not None and me == r["dealer"]:  # (rules: hands, the owner only)
        out["dealer_hand"] = [card(c) for c in r["dealer_hand"]]
    return out


# ---------------------------------------------------------------- outcome
def outcome(state: dict) -> dict | None:
    if state["phase"] != "over":
        return None
    od = state["od"]
    ranks = [sum(1 for other in od if other > mine) for mine in od]
    return {"ranks": ranks, "scores": list(od), "teams": None, "reason": state["over_reason"]}


# ---------------------------------------------------------------- server helpers
def delay(state: dict) -> float:
    """Seconds before the SYSTEM step: the result on show, or the call window's minimum time."""
    if state["phase"] == "match_end":
        return data.NEXT_MATCH_DELAY
    if state["phase"] == "calls" and state["call"].get("open"):
        return float(state["opts"].get("call_window", data.CALL_WINDOW_SECONDS))
    return 0.0


def clock_seconds(state: dict, seat: Any) -> float | None:
    check_seat(seat, data.NUM_PLAYERS, system=True)
    return seat_clock(state["opts"]["turn_seconds"], seat, awaiting(state))


def on_timeout(state: dict, seat: Any) -> dict:
    """An ordinary legal action for a late seat: keep the drawn card at the end of the hand (or
    discard it in riichi), discard the card just drawn, or pass on a call."""
    check_seat(seat, data.NUM_PLAYERS)
    phase = state["phase"]
    if phase == "insert":
        if state["riichi"][seat]:
            return {"type": "discard_drawn"}
        return {"type": "insert", "pos": len(state["hands"][seat])}
    if phase == "discard":
        index = state.get("inserted")
        if index is None:
            index = len(state["hands"][seat]) - 1
        return {"type": "discard", "index": index, "riichi": False}
    return {"type": "pass"}


def check_invariants(state: dict) -> None:
    od = state["od"]
    assert all(isinstance(x, int) and x >= 0 for x in od), f"negative od {od}"
    assert state["pot"] >= 0 and state["table_od"] >= 0
    assert sum(od) + state["table_od"] + state["pot"] == TOTAL_OD, \
        f"od not conserved: {od} + table {state['table_od']} + pot {state['pot']} != {TOTAL_OD}"
    on_table = sum(m[3] for melds in state["melds"] for m in melds) + \
        sum(d[1] for pond in state["discards"] for d in pond)
    if state["phase"] in ("insert", "discard", "calls"):
        assert on_table == state["table_od"], f"table od {state['table_od']} != od on spells/discards {on_table}"
        cards = list(state["pile"]) + list(state["spare"]) + [i[0] for i in state["indicators"]]
        for seat in range(3):
            cards += state["hands"][seat]
            cards += [c for m in state["melds"][seat] for c in m[:3]]
            cards += [d[0] for d in state["discards"][seat] if d[2] < 0]
            size = len(state["hands"][seat]) + 3 * len(state["melds"][seat])
            holding = state["phase"] == "discard" and state["turn"] == seat
            assert size == (9 if holding else 8), f"seat {seat} holds {size} cards"
        if state["drawn"] is not None:
            cards.append(state["drawn"])
        assert sorted(cards) == list(range(data.NUM_CARDS)), "cards not conserved"
        assert len(state["indicators"]) == 1 + sum(state["riichi"])
        assert all(p <= data.MAX_PLEDGES for p in state["pledged"])
        assert all(len(state["melds"][s]) == state["pledged"][s] for s in range(3))


# ---------------------------------------------------------------- private helpers
def _deal(s: dict) -> None:
    deck = list(range(data.NUM_CARDS))
    random.Random(f"three_magic/{s['seed']}/match/{s['match_no']}").shuffle(deck)
    h = data.HAND_SIZE
    s["hands"] = [deck[i * h:(i + 1) * h] for i in range(3)]
    spare = deck[3 * h:3 * h + data.SPARE_SIZE]
    s["indicators"] = [[spare[0], -1]]
    s["spare"] = spare[1:]
    s["pile"] = deck[3 * h + data.SPARE_SIZE:]
    s["melds"] = [[], [], []]
    s["discards"] = [[], [], []]
    s["riichi"] = [False] * 3
    s["pledged"] = [0] * 3
    s["no_ron"] = [False] * 3
    s["table_od"] = 0
    s["call"] = None
    s["inserted"] = None
    s["drawn"] = None
    s["log"] = []  # the log holds this match's public events
    _log(s, {"ev": "deal", "dealer": s["dealer"], "round": _round(s),
             "indicator": spare[0]})
    _start_turn(s, s["dealer"])


def _start_turn(s: dict, seat: int) -> None:
    if not s["pile"]:
        _exhaustive_draw(s)
        return
    s["drawn"] = s["pile"][-1]
    s["pile"] = s["pile"][:-1]
    s["turn"] = seat
    s["phase"] = "insert"
    s["no_ron"][seat] = False
    s["call"] = None


def _discard(s: dict, seat: int, card: int, riichi: bool) -> None:
    if riichi:
        s["od"][seat] -= data.RIICHI_PRICE
        s["table_od"] += data.RIICHI_PRICE
        s["riichi"][seat] = True
        s["indicators"].append([s["spare"][0], seat])
        s["spare"] = s["spare"][1:]
        _log(s, {"ev": "riichi", "seat": seat, "card": card, "indicator": s["indicators"][-1][0]})
    s["discards"][seat].append([card, data.RIICHI_PRICE if riichi else 0, -1])
    # Ruling (call window): both other seats, every time, whether or not they can call.
    s["phase"] = "calls"
    s["call"] = {"card": card, "from": seat, "callers": _after(seat), "choices": [None, None, None], "open": True}


def _after(seat: int) -> list[int]:
    """The other seats in turn order starting next after ``seat``."""
    return [(seat + 1) % 3, (seat + 2) % 3]


def _may_riichi(s: dict, seat: int) -> bool:
    return (not s["riichi"][seat] and s["pledged"][seat] == 0 and s["od"][seat] >= data.RIICHI_PRICE
            and bool(s["spare"]))


def _has_spell_window(hand: list[int]) -> bool:
    """Necessary for "some discard leaves tenpai": of the winning hand's three groups, one holds
    the inserted card and at most one spans the discarded card's gap, so some three adjacent cards
    of the current hand already form a spell. A cheap filter before the nine tenpai checks."""
    return any(sp.is_spell_cards(hand[i], hand[i + 1], hand[i + 2]) for i in range(len(hand) - 2))


def _pledge_price(s: dict, seat: int, card: int) -> int:
    return data.PLEDGE_PRICE[(s["pledged"][seat], sp.element(card) == s["elements"][seat])]


def _call_options(s: dict, seat: int, card: int, discarder: int) -> list[dict]:
    hand = s["hands"][seat]
    out: list[dict] = []
    if not s["no_ron"][seat]:
        out.extend({"type": "ron", "pos": p} for p in sp.winning_positions(hand, card))
    if s["riichi"][seat] or s["pledged"][seat] >= data.MAX_PLEDGES or \
            s["od"][seat] < _pledge_price(s, seat, card):
        return out
    t = card // 4
    el = t // data.NUMBERS
    chi_ok = seat == (discarder + 1) % 3  # the discarder is this seat's left player
    n = len(hand)
    for i in range(n):
        ti = hand[i] // 4
        if ti // data.NUMBERS != el:
            continue
        for j in range(i + 1, n):
            tj = hand[j] // 4
            if not sp.IS_SPELL[ti * 225 + tj * 15 + t]:
                continue
            if ti == tj == t:
                out.append({"type": "pon", "cards": [i, j]})
            elif chi_ok and ti != tj:
                out.append({"type": "chi", "cards": [i, j]})
    return out


def _settle_window(s: dict) -> None:
    """The (no longer open) call window: the server passes for the undecided seats with nothing to
    call (in secret: no bot, clock or person answers for them later, so no answer after the minimum
    time tells the others which seat is still deciding); once no seat with a real choice is still
    deciding, the calls are resolved."""
    call = s["call"]
    choices = list(call["choices"])
    for c in call["callers"]:
        if choices[c] is None and not _call_options(s, c, call["card"], call["from"]):
            choices[c] = {"type": "pass"}
    s["call"] = dict(call, choices=choices)
    if all(choices[c] is not None for c in call["callers"]):
        _resolve_calls(s)


def _resolve_calls(s: dict) -> None:
    call = s["call"]
    card, discarder, choices = call["card"], call["from"], call["choices"]
    for seat in _after(discarder):  # several rons: the seat next after the discarder wins
        choice = choices[seat]
        if choice is not None and choice["type"] == "ron":
            hand = s["hands"][seat]
            s["hands"][seat] = hand[:choice["pos"]] + [card] + hand[choice["pos"]:]
            _take_discard(s, discarder, seat)
            _win(s, seat, "ron", discarder)
            return
    for kind in ("pon", "chi"):
        for seat in _after(discarder):
            choice = choices[seat]
            if choice is not None and choice["type"] == kind:
                _pledge(s, seat, kind, choice["cards"], card, discarder)
                return
    _start_turn(s, (discarder + 1) % 3)


def _take_discard(s: dict, discarder: int, taker: int) -> None:
    pond = s["discards"][discarder]
    last = pond[-1]
    pond[-1] = [last[0], last[1], taker]  # the riichi od (if any) stays on the table


def _pledge(s: dict, seat: int, kind: str, idx: list[int], card: int, discarder: int) -> None:
    hand = s["hands"][seat]
    i, j = idx
    price = _pledge_price(s, seat, card)
    s["od"][seat] -= price
    s["table_od"] += price
    s["melds"][seat].append([hand[i], hand[j], card, price, discarder])
    s["hands"][seat] = [c for k, c in enumerate(hand) if k != i and k != j]
    s["pledged"][seat] += 1
    s["no_ron"][seat] = True
    _take_discard(s, discarder, seat)
    _log(s, {"ev": kind, "seat": seat, "from": discarder, "cards": [hand[i], hand[j], card], "od": price})
    s["turn"] = seat
    s["phase"] = "discard"
    s["call"] = None
    s["inserted"] = None


def _win(s: dict, winner: int, kind: str, discarder: int | None) -> None:
    hand = s["hands"][winner]
    melds = s["melds"][winner]
    riichi = s["riichi"][winner]
    if kind == "tsumo":
        counted = s["elements"][winner]
    else:
        counted = data.WEAKNESS[s["elements"][discarder]]
    indicators = [c for c, by in s["indicators"] if by < 0 or riichi]
    score = sp.score_win(hand, melds, counted, indicators)
    result = {
        "kind": kind, "winner": winner, "from": discarder, "riichi": riichi,
        "pledged": s["pledged"][winner],
        "spells": [{"cards": cards, "called": called} for cards, called in sp.spells_of(hand, melds)],
        "score": score, "indicators_counted": indicators, "dealer": s["dealer"],
        "payments": [0, 0, 0],
    }
    _log(s, {"ev": kind, "seat": winner, "from": discarder, "total": score["total"]})
    if score["items"] == 0:
        result["void"] = True
        _special_draw(s, result)
        return
    result["void"] = False
    total = score["total"]
    payers = [discarder] if kind == "ron" else _after(winner)
    due = total if kind == "ron" else total // 2
    for p in payers:
        paid = min(due, s["od"][p])
        s["od"][p] -= paid
        s["od"][winner] += paid
        result["payments"][p] = paid
    # Table od and the pot reward only a win that caused a payment (a ron on a discarder at 0 od,
    # or a tsumo on two broke players, pays nothing: the table od goes to the pot, which stays).
    caused_payment = sum(result["payments"]) > 0
    table = s["table_od"]
    s["table_od"] = 0
    if riichi and caused_payment:
        s["od"][winner] += table
        result["table_od"] = {"amount": table, "to": "winner"}
    else:
        s["pot"] += table
        result["table_od"] = {"amount": table, "to": "pot"}
    if s["pledged"][winner] == 0 and caused_payment:
        result["pot_taken"] = s["pot"]
        s["od"][winner] += s["pot"]
        s["pot"] = 0
    else:
        result["pot_taken"] = 0
    result["dealer_stays"] = winner == s["dealer"]
    if not result["dealer_stays"]:
        _pass_deal(s)
    _end_match(s, result)


def _special_draw(s: dict, result: dict) -> None:
    table = s["table_od"]
    s["pot"] += table
    s["table_od"] = 0
    result["table_od"] = {"amount": table, "to": "pot"}
    result["pot_taken"] = 0
    dealer = s["dealer"]
    fee = min(data.DEALER_STAY_FEE, s["od"][dealer])
    s["od"][dealer] -= fee
    s["pot"] += fee
    result["dealer_fee"] = fee
    result["dealer_stays"] = True
    _end_match(s, result)


def _exhaustive_draw(s: dict) -> None:
    dealer = s["dealer"]
    tenpai = sp.is_tenpai(s["hands"][dealer], s["melds"][dealer])
    table = s["table_od"]
    s["pot"] += table
    s["table_od"] = 0
    result = {"kind": "exhaustive", "dealer": dealer, "dealer_tenpai": tenpai,
              "dealer_hand": list(s["hands"][dealer]) if tenpai else None,
              "table_od": {"amount": table, "to": "pot"}, "dealer_fee": 0, "dealer_stays": tenpai}
    if tenpai:
        fee = min(data.DEALER_STAY_FEE, s["od"][dealer])
        s["od"][dealer] -= fee
        s["pot"] += fee
        result["dealer_fee"] = fee
    else:
        _pass_deal(s)
    _log(s, {"ev": "exhaustive", "dealer": dealer, "dealer_tenpai": tenpai})
    s["drawn"] = None
    _end_match(s, result)


def _pass_deal(s: dict) -> None:
    s["dealer"] = (s["dealer"] + 1) % 3
    s["passes"] += 1


def _rounds(s: dict) -> int:
    return data.SHORT_GAME_ROUNDS if s["opts"]["short_game"] else data.FULL_GAME_ROUNDS


def _round(s: dict) -> int:
    return min(s["passes"] // 3, _rounds(s) - 1)


def _end_match(s: dict, result: dict) -> None:
    result["od_after"] = list(s["od"])
    result["pot_after"] = s["pot"]
    result["next_dealer"] = s["dealer"]
    result["match"] = s["match_no"]
    s["call"] = None
    s["inserted"] = None
    broke = [seat for seat in range(3) if s["od"][seat] == 0]
    if broke:
        s["phase"] = "over"
        s["over_reason"] = f"seat {broke[0]} has 0 od"
    elif s["passes"] >= 3 * _rounds(s):
        s["phase"] = "over"
        s["over_reason"] = "the dealer role went round " + ("once (short game)" if _rounds(s) == 1 else "twice (sun and moon)")
    else:
        s["phase"] = "match_end"
    result["game_over"] = s["phase"] == "over"
    s["last_result"] = result
    if result["game_over"]:
        _log(s, {"ev": "game_over", "reason": s["over_reason"]})


def _log(s: dict, event: dict) -> None:
    event["match"] = s["match_no"]
    s["log"] = (s["log"] + [event])[-data.LOG_LIMIT:]


def _clone(state: dict) -> dict:
    """Copy what apply may change: the top level and the per-seat containers (entries are never
    mutated in place, only replaced)."""
    s = dict(state)
    s["od"] = list(state["od"])
    s["hands"] = list(state["hands"])
    s["melds"] = [list(m) for m in state["melds"]]
    s["discards"] = [list(d) for d in state["discards"]]
    s["riichi"] = list(state["riichi"])
    s["pledged"] = list(state["pledged"])
    s["no_ron"] = list(state["no_ron"])
    s["indicators"] = list(state["indicators"])
    return s


def _validate(action) -> str:
    if not isinstance(action, dict):
        raise InvalidAction(f"an action must be a dict with a 'type', not {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise InvalidAction(f"unknown action type {kind!r} in {action!r}; known: {', '.join(ACTION_TYPES)}")
    if set(action) - {"type"} - ({"riichi"} if kind == "discard" else set()) != ACTION_FIELDS[kind]:
        raise InvalidAction(f"{action!r}: a {kind!r} action has the fields {sorted(ACTION_FIELDS[kind])}"
                            + (" (and optionally 'riichi')" if kind == "discard" else ""))
    if kind in ("insert", "tsumo", "ron"):
        if not _is_int(action.get("pos")):
            raise InvalidAction(f"{action!r}: {kind} needs an integer 'pos' (insert position)")
    elif kind == "discard":
        if not _is_int(action.get("index")):
            raise InvalidAction(f"{action!r}: discard needs an integer 'index' (hand position)")
        if not isinstance(action.get("riichi", False), bool):
            raise InvalidAction(f"{action!r}: 'riichi' must be true or false")
    elif kind in ("pon", "chi"):
        cards = action.get("cards")
        if not (isinstance(cards, list) and len(cards) == 2 and all(_is_int(c) for c in cards)):
            raise InvalidAction(f"{action!r}: {kind} needs 'cards': two hand indices")
    return kind


def _normalize_call(action: dict, kind: str) -> dict:
    if kind == "ron":
        return {"type": "ron", "pos": action["pos"]}
    return {"type": kind, "cards": list(action["cards"])}


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _card_text(card: int) -> str:
    star = "*" if sp.has_star(card) else ""
    return f"{data.ELEMENTS[sp.element(card)]} {sp.number(card)}{star}"
