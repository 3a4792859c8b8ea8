"""Determinizations: a full engine state built from one seat's view alone, for the strong bots.

``determinize(game_id, view, rng)`` returns a state of that game's engine in which everything the
view shows is as shown (``engine.view(state, seat)`` agrees with ``view`` on the rules' fields) and
everything it hides (other hands, decks, face-down cards, pending choices of other seats) is drawn
at random from the cards left unaccounted for. Only the view is read, never the real state, so a
bot searching these states cannot learn what its seat may not know.

The draws are uniform over the unseen cards: they do not infer from other players' past play
(e.g. a Makelandia scout's old look at a hand, or which prediction a Synomilia opponent's stacking
suggests). A hidden choice another seat has already made (a Peribit placement, a Synomilia
prediction) is redrawn as the easy bot would make it in that sampled position.

Each function reads the engine's own state format (the rules engineer owns the engines; this module
only builds their states).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engines.bots.easy import policy as easy_policy


def determinize(game_id: str, view: dict, rng: random.Random):
    builder = _BUILDERS.get(game_id)
    if builder is None:
        raise ValueError(f"no determinizer for game {game_id!r}")
    return builder(view, rng)


def _deal(pool: list, sizes: list[int], rng: random.Random) -> list[list]:
    """Shuffle ``pool`` and cut it into consecutive parts of ``sizes`` (which must use it all)."""
    if len(pool) != sum(sizes):
        raise ValueError(f"view inconsistent: {len(pool)} unseen cards for {sum(sizes)} hidden places")
    pool = list(pool)
    rng.shuffle(pool)
    out, i = [], 0
    for n in sizes:
        out.append(pool[i:i + n])
        i += n
    return out


def _minus(total: Counter, *seen) -> list:
    left = Counter(total)
    for cards in seen:
        left.subtract(cards)
    if any(v < 0 for v in left.values()):
        raise ValueError("view inconsistent: more copies seen than exist")
    return sorted(left.elements(), key=str)


def _options(game_id: str, **shown) -> dict:
    """The room options a view shows, the engine's defaults for the rest (clocks: they never
    matter inside a search)."""
    import engines
    from engines.protocol import resolve_options

    return resolve_options(engines.get(game_id).options, shown)


def _fill_hidden_choice(engine, state, seat: int, rng: random.Random):
    """A seat whose hidden choice is pending in the view: let the easy bot make it here."""
    legal = engine.legal_actions(state, seat)
    return engine.apply(state, seat, easy_policy(engine.id)(engine.view(state, seat), legal, rng))


# ---------------------------------------------------------------- Synomilia
def _synomilia(view: dict, rng: random.Random):
    import engines
    from engines.synomilia.engine import State

    engine = engines.get("synomilia")
    me = view["viewer"]
    s = State()
    s.seed = rng.randrange(2**31)
    s.options = _options("synomilia", reveal_delay=view["reveal_delay"])
    s.phase = view["phase"]
    s.bout = view["bout"]
    s.start = view["start_player"]
    s.turn = view["turn"]
    s.chips = tuple(view["chips"])
    s.pile = "".join("m" if f == "moon" else "s" for f in view["pile"])
    s.markers = tuple(m == "moon" for m in view["markers"])
    s.available = tuple(tuple(a) for a in view["available"])
    s.plays = tuple((p["seat"], p["face"] if p["type"] == "stack" else p["type"]) for p in view["plays"])
    s.last_actor = view["last_actor"]
    reveal = view["reveal"]
    s.first_revealer = reveal["first_revealer"] if reveal else None
    s.end_condition = reveal["end_condition"] if reveal else None
    s.history = tuple(_synomilia_bout(h, view) for h in view["history"])
    s.game_end = (view["result"] or {}).get("game_end")
    predictions = [view["my_prediction"] if p == me else None for p in (0, 1)]
    opponent = 1 - me
    hidden_choice = False
    if view["predicted"][opponent]:
        if reveal and reveal["cards"][opponent] is not None:
            predictions[opponent] = reveal["cards"][opponent]
        elif s.phase == "predict":
            hidden_choice = True
        else:
            predictions[opponent] = rng.choice(s.available[opponent])
    s.predictions = tuple(predictions)
    if hidden_choice:
        s = _fill_hidden_choice(engine, s, opponent, rng)
    return s


def _synomilia_bout(h: dict, view: dict) -> dict:
    """A finished bout's record; the full one for the last bout (the view shows it whole)."""
    last = view["last_bout"]
    if last is None or last["bout"] != h["bout"]:
        return dict(h, cards=list(h["cards"]))
    return {
        "bout": last["bout"], "cards": list(last["cards"]),
        "pile": "".join("m" if f == "moon" else "s" for f in last["pile"]),
        "count": last["count"], "moons": last["moons"], "start_player": last["start_player"],
        "last_actor": last["last_actor"], "first_revealer": last["first_revealer"],
        "end_condition": last["end_condition"], "winner": last["winner"], "reason": last["reason"],
        "winner_held": last["winner_held"],
        "payout": [{k: line[k] for k in ("step", "due", "paid", "from")} for line in last["payout"]],
        "chips_after": list(last["chips_after"]),
        "plays": [[p["seat"], p["face"] if p["type"] == "stack" else p["type"]] for p in last["plays"]],
    }


# ---------------------------------------------------------------- Peribit
def _peribit(view: dict, rng: random.Random):
    import engines
    from engines.peribit import data
    from engines.peribit.engine import State
    from engines.plain import copy_plain

    engine = engines.get("peribit")
    marks = {m: i for i, m in enumerate(data.MARKS)}
    me = view["seat"]
    opponent = 1 - me
    s = State.__new__(State)
    s.seed = rng.randrange(2**31)
    s.options = _options("peribit", placement_clock=view["placement_clock"])
    s.round = view["round"]
    s.placement = view["placement"]
    s.step = view["step"]
    s.lanes = tuple((marks[lane["mark"]], lane["stones"]) for lane in view["lanes"])
    s.multas = tuple(tuple(m["counts"][name] for name in data.MARKS) for m in view["multas"])
    mine = tuple(marks[m] for m in view["hand"])
    seen = [mine] + [[m] * n for m, n in s.lanes] + [[k] * n for multa in s.multas for k, n in enumerate(multa)]
    pool = _minus(Counter({k: data.STONES_PER_MARK for k in range(3)}), *seen)
    theirs, deck = _deal(pool, [view["hand_counts"][opponent], view["deck_count"]], rng)
    hands: list[Any] = [None, None]
    hands[me], hands[opponent] = mine, tuple(theirs)
    s.hands = tuple(hands)
    s.deck = tuple(deck)
    s.metus = view["metus"]
    s.metus_start = view["metus_start"]
    s.stella = view["stella_metus"]
    s.eligible = tuple(view["exchange"]["can"])
    own_ex = view["exchange"]["mine"]
    own_pl = view["my_placement"]
    pending_ex: list[Any] = [None, None]
    pending_pl: list[Any] = [None, None]
    drawn: list[Any] = [None, None]
    if own_ex is not None:
        pending_ex[me] = tuple(marks[m] for m in own_ex)
    if own_pl is not None:
        lane = -1 if own_pl["new_lane"] else own_pl["lane"]
        pending_pl[me] = (lane, marks[own_pl["mark"]], own_pl["late"])
    if view["drawn"] is not None:
        drawn[me] = marks[view["drawn"]]
    s.pending_ex, s.pending_pl, s.drawn = tuple(pending_ex), tuple(pending_pl), tuple(drawn)
    last = view["exchange"]["last"]
    s.last_exchange = None if last is None else tuple(last)
    s.last, log, s.final = copy_plain([view["last_result"], view["log"], view["final"]])
    s.log = tuple(log)  # as the engine keeps it (the compiled build checks the field's type)
    s.log = tuple(s.log)
    s.rounds = tuple(dict(copy_plain(r), multas=[[m[name] for name in data.MARKS] for m in r["multas"]])
                     for r in view["rounds"])
    s.shuffles = 0
    hidden_choice = ((s.step == "exchange" and view["exchange"]["decided"][opponent])
                     or (s.step == "place" and view["placed"][opponent]))
    if hidden_choice:
        s = _fill_hidden_choice(engine, s, opponent, rng)
    return s


# ---------------------------------------------------------------- Makelandia
def _makelandia(view: dict, rng: random.Random):
    from engines.makelandia import data
    from engines.makelandia.engine import PUBLIC, State, _sorted

    me = view["seat"]
    n = view["num_players"]
    team_index = {name: i for i, name in enumerate(data.TEAMS)}
    players = view["players"]
    s = State.__new__(State)
    s.n = n
    s.options = _options("makelandia")
    s.terr = tuple(p["territory"] for p in players)
    s.team = tuple(team_index[p["team"]] for p in players)
    s.role = tuple(p["role"] for p in players)
    s.alive = tuple(p["alive"] for p in players)
    s.discards = tuple(tuple(view["discards"][name]) for name in data.TEAMS)
    s.turn = view["turn"]
    s.phase = view["phase"]
    s.quiet = view["quiet_turns"]
    s.turn_no = view["turn_no"]
    s.log = tuple(dict(e) for e in view["log"])
    s.seq = s.log[-1]["id"] if s.log else 0
    s.last_battle = None if view["last_battle"] is None else dict(view["last_battle"])
    outcome = view["outcome"]
    s.result = None if outcome is None else (2 if outcome["winner"] is None else team_index[outcome["winner"]])
    s.reason = "" if outcome is None else outcome["reason"]
    pending = view["pending"]
    hands: list = [None] * n
    exped: list = [None] * n
    set_aside: list = [None, None]
    pending_cards: Any = None
    for team in range(2):
        members = [p for p in range(n) if s.team[p] == team]
        seen = [view["hand"]] if s.team[me] == team else []
        for p in members:
            seen.append([c for c in players[p]["expedition"] if c is not None])
        attacker_hidden = pending is not None and s.team[pending["attacker"]] == team and pending["cards"] is None
        if pending is not None and pending["cards"] is not None and s.team[pending["attacker"]] == team:
            seen.append(pending["cards"])
        pool = _minus(Counter(data.deck(n)), s.discards[team], *seen)
        holders = [p for p in members if p != me]
        sizes = [players[p]["hand_size"] for p in holders]  # (an attacker's face-down cards included)
        hidden_exped = [sum(1 for c in players[p]["expedition"] if c is None) for p in members]
        parts = _deal(pool, sizes + hidden_exped + [view["set_aside"][data.TEAMS[team]]], rng)
        for p, cards in zip(holders, parts):
            hands[p] = cards
        for p, cards in zip(members, parts[len(holders):]):
            sender = next((q for q in members if q not in (p, me)), p)
            known = iter(cards)
            exped[p] = tuple((c, PUBLIC) if c is not None else (next(known), sender)
                             for c in players[p]["expedition"])
        set_aside[team] = tuple(parts[-1])
        if attacker_hidden:
            attacker = pending["attacker"]
            both = hands[attacker]
            pending_cards = _likely_attack(both, rng)
            rest = list(both)
            for c in pending_cards:
                rest.remove(c)
            hands[attacker] = rest
    if me is not None:
        hands[me] = view["hand"]
    if pending is not None:
        attack = pending_cards if pending["cards"] is None else tuple(pending["cards"])
        s.pending = (pending["attacker"], pending["defender"], tuple(attack))
    else:
        s.pending = None
    s.hands = tuple(_sorted(h) for h in hands)
    s.exped = tuple(exped)
    s.set_aside = tuple(set_aside)
    return s


def _likely_attack(hand: list, rng: random.Random) -> tuple:
    """A play an attacker holding ``hand`` may have put face down (not even how many cards is
    shown): one strong enough that an easy bot would attack with it, else any play."""
    from engines.bots.makelandia import BOOST, shape_cost, strength
    from engines.makelandia.engine import _plays, _sorted

    plays = _plays(_sorted(hand))
    worth = [p for p in plays if p != (BOOST,) and strength(list(p)) - shape_cost(p) >= 8]
    return tuple(rng.choice(worth or plays))


# ---------------------------------------------------------------- Mipolin
def _mipolin(view: dict, rng: random.Random):
    from engines.bots.mipolin import candidates
    from engines.mipolin import data

    me = view["seat"]
    players = view["players"]
    opts = _options("mipolin", **view["options"], provisional_dealer=view["provisional_dealer"])
    auction = None
    if view["auction"] is not None:
        bids = [list(b) for b in view["auction"]["bids"]]
        passes = 0
        for _seat, level in reversed(bids):
            if level is not None:
                break
            passes += 1
        auction = {"bids": bids, "high": view["auction"]["high"],
                   "high_bidder": view["auction"]["high_bidder"], "passes": passes}
    pending = None
    if view["pending"] is not None:
        if view["phase"] == "order":
            pending = {"pairs": [list(p) for p in view["pending"]["pairs"]]}
        else:
            pending = {k: view["pending"][k] for k in ("character", "place")}
            pending["passed"] = list(view["pending"]["passed"])
    s = {
        "seed": rng.randrange(2**31), "draws": 0, "opts": opts,
        "pd": view["provisional_dealer"], "dealer": view["dealer"],
        "order": list(view["order"]) if view["order"] else None,
        "phase": view["phase"], "turn": view["turn"], "round": view["round"],
        "picker": view["picker"], "bidder": view["auction"]["bidder"] if view["auction"] else None,
        "shower": view["pending"]["shower"] if view["phase"] == "show" else None,
        "chars": [p["character"] for p in players], "missing": view["missing"],
        "culprit": None, "location": None,
        "hands": [[] for _ in players], "rows": [list(p["row"]) for p in players],
        "exposed": [list(p["exposed"]) if p["exposed"] is not None else None for p in players],
        "area": [p["area"] for p in players], "active": [p["active"] for p in players],
        "day": view["day"], "auction": auction, "pending": pending,
        "log": [dict(e) for e in view["log"]],
        "winner": None if view["outcome"] is None else view["outcome"].get("winner"),
        "reason": None,
    }
    if view["missing"] is None:  # characters are still being picked: nothing is dealt yet
        return s
    chars, places = candidates(view)
    wrong = {(e["character"], e["place"]) for e in view["log"] if e["kind"] == "accuse" and not e["correct"]}
    for _ in range(100):
        culprit, location = rng.choice(chars), rng.choice(places)
        if (culprit, location) not in wrong:
            break
    s["culprit"], s["location"] = culprit, location
    if view["solution"] is not None:
        s["culprit"], s["location"] = view["solution"]["culprit"], view["solution"]["location"]
    everything = [f"c{c}" for c in data.CHARACTERS] + [f"p{p}" for p in data.PLACES] + list(data.DAY_CARDS)
    seen = list(view["hand"] or []) + [f"c{s['culprit']}", f"p{s['location']}", f"c{view['missing']}"]
    seen += [f"c{c}" for c in s["chars"]]
    for p in players:
        seen += p["row"] + (p["exposed"] or [])
    pool = _minus(Counter(everything), seen)
    holders = [p["seat"] for p in players if p["seat"] != me]
    for p, cards in zip(holders, _deal(pool, [players[p]["hand_count"] for p in holders], rng)):
        s["hands"][p] = sorted(cards, key=data.CARD_ORDER.__getitem__)
    if me is not None:
        s["hands"][me] = list(view["hand"])
    return s


# ---------------------------------------------------------------- Three Magic
def _three_magic(view: dict, rng: random.Random):
    from engines.bots.three_magic import card_ids
    from engines.three_magic import data

    me = view["seat"]
    players = view["players"]
    elements = {name: i for i, name in enumerate(data.ELEMENTS)}
    phase = view["phase"]
    if phase == "calls":
        raise ValueError("Three Magic call windows are not determinized (the strong bot decides them as the easy one)")
    mine = card_ids(view["hand"] + ([view["drawn"]] if view["drawn"] else []))
    hand, drawn = mine[:len(view["hand"])], (mine[-1] if view["drawn"] else None)
    discards = [[(d["card"], d["riichi_od"], -1 if d["taken_by"] is None else d["taken_by"]) for d in p["discards"]]
                for p in players]
    melds = [[(m["cards"], m["od"], m["from"]) for m in p["melds"]] for p in players]
    public = [d[0] for ds in discards for d in ds if d[2] < 0] + [c for ms in melds for m in ms for c in m[0]]
    public += [i["card"] for i in view["indicators"]]
    public_ids = card_ids(public, set(mine))
    ids = iter(public_ids)
    state_discards = [[[next(ids) if d[2] < 0 else None, d[1], d[2]] for d in ds] for ds in discards]
    state_melds = [[[next(ids), next(ids), next(ids), od, frm] for cards, od, frm in ms] for ms in melds]
    indicators = [[next(ids), -1 if i["riichi_by"] is None else i["riichi_by"]] for i in view["indicators"]]
    # a discard taken by a call is the meld's called card (its third card)
    for p, ms in enumerate(state_melds):
        for meld in ms:
            ds = state_discards[meld[4]]
            k = next(k for k, d in enumerate(ds) if d[0] is None and d[2] == p)
            ds[k][0] = meld[2]
    in_turn = phase in ("insert", "discard")
    others = [p for p in range(3) if p != me]
    sizes = [players[p]["hand_count"] - (1 if phase == "insert" and view["turn"] == p else 0) for p in others]
    other_drawn = 1 if phase == "insert" and view["turn"] != me and in_turn else 0
    pool = sorted(set(range(data.NUM_CARDS)) - set(mine) - set(public_ids))
    parts = _deal(pool, sizes + [other_drawn, view["spare_count"], view["pile_count"]], rng)
    hands: list[Any] = [None] * 3
    for p, cards in zip(others, parts):
        hands[p] = cards
    hands[me] = hand
    if other_drawn:
        drawn = parts[2][0]
    return {
        "seed": rng.randrange(2**31), "opts": dict(view["options"]),
        "elements": [elements[p["element"]] for p in players],
        "od": [p["od"] for p in players], "pot": view["pot"], "table_od": view["table_od"],
        "first_dealer": view["first_dealer"], "dealer": view["dealer"], "passes": view["dealer_passes"],
        "match_no": view["match"], "last_result": None, "log": [], "over_reason": view["over_reason"],
        "hands": hands, "indicators": indicators, "spare": parts[3], "pile": parts[4],
        "melds": state_melds, "discards": state_discards,
        "riichi": [p["riichi"] for p in players], "pledged": [p["pledges"] for p in players],
        "no_ron": [p["no_ron_until_draw"] for p in players], "call": None,
        "inserted": view["inserted"], "drawn": drawn, "turn": view["turn"], "phase": phase,
    }


_BUILDERS = {
    "synomilia": _synomilia,
    "peribit": _peribit,
    "makelandia": _makelandia,
    "mipolin": _mipolin,
    "three_magic": _three_magic,
}
