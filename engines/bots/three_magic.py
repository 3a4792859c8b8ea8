"""Three Magic bot: greedy hand building in fixed order, from the seat's view only.

Hand value = the most cards that can stay, in their order, inside three consecutive spell slots
(a small DP over the hand: each group is a run of 1-3 adjacent kept cards that some insertions can
complete; other cards are junk to discard later). The bot inserts the drawn card where that value
is highest and discards the card whose loss costs least. It wins whenever the win scores (a 0-point win is a special draw that
costs the dealer's fee and any riichi od, so it plays on instead), declares
riichi when tenpai with at least two live waiting cards, and pledges only when the call leaves it
tenpai for a cheap price; otherwise it passes (pledges cost od and forfeit the ley line pot).
"""

from __future__ import annotations

import random

from engines.three_magic import spells as sp

_EL = {"fire": 0, "wood": 1, "water": 2}
_CACHE: dict = {}

# segment values: kept cards count 10 each; a pair earns a little for each way to complete it
_PAIR_BONUS = [0] * (15 * 15)
for _a in range(15):
    for _b in range(15):
        _PAIR_BONUS[_a * 15 + _b] = sum(len(sp.COMPLETE[slot][_a * 15 + _b]) for slot in range(3))


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    wins = [a for a in legal if a["type"] in ("tsumo", "ron") and win_points(view, a) > 0]
    if wins:
        return wins[0]
    legal = [a for a in legal if a["type"] not in ("tsumo", "ron")]  # a 0-point win costs od
    kinds = {a["type"] for a in legal}
    if kinds == {"discard_drawn"} or kinds == {"next_match"}:
        return legal[0]
    hand = [card_type(c) for c in view["hand"]]
    me = view["seat"]
    groups = 3 - len(view["players"][me]["melds"])
    if "insert" in kinds:
        drawn = card_type(view["drawn"])
        best = max(range(len(hand) + 1), key=lambda p: (hand_value(hand[:p] + [drawn] + hand[p:], groups), -p))
        return {"type": "insert", "pos": best}
    if "discard" in kinds:
        return _discard(view, legal, hand, groups)
    # a call window: pledge only into tenpai for a cheap price
    pledges = [a for a in legal if a["type"] in ("pon", "chi")]
    call_card = card_type(view["call"]["card"])
    prices = view["prices"]
    price = prices["own_element"] if call_card // 5 == _EL[prices["element"]] else prices["other_element"]
    if price <= 10:
        for a in pledges:
            i, j = a["cards"]
            rest = [t for k, t in enumerate(hand) if k != i and k != j]
            if any(_tenpai(rest[:k] + rest[k + 1:]) for k in range(len(rest))):
                return a
    return {"type": "pass"}


def _discard(view, legal, hand, groups):
    riichi = [a for a in legal if a.get("riichi")]
    if riichi:
        seen = _seen(view)
        best, live = None, -1
        for a in riichi:
            i = a["index"]
            rest = hand[:i] + hand[i + 1:]
            waits = {t for _p, t in sp.waits([t * 4 for t in rest])}
            n = sum(max(0, 4 - seen.get(t, 0) - rest.count(t)) for t in waits)
            if n > live:
                best, live = a, n
        if live >= 2:
            return best
        if live >= 1:
            return {"type": "discard", "index": best["index"], "riichi": False}
    scored = [(hand_value(hand[:i] + hand[i + 1:], groups), i) for i in range(len(hand))]
    top = max(v for v, _i in scored)
    # among equally good discards, drop the latest-inserted card last; prefer the drawn-in card
    inserted = view.get("inserted")
    choices = [i for v, i in scored if v == top]
    index = inserted if inserted in choices else choices[-1]
    return {"type": "discard", "index": index, "riichi": False}


def _tenpai(types: list[int]) -> bool:
    return bool(sp.waits([t * 4 for t in types]))


def hand_value(types: list[int], groups: int) -> int:
    """Best total over ways to place ``groups`` spell slots on the hand in order: a group is 1-3
    adjacent kept cards that insertions can complete (single 10, pair 20 + flexibility, spell 40);
    the cards left between groups are junk."""
    key = (tuple(types), groups)
    got = _CACHE.get(key)
    if got is not None:
        return got
    n = len(types)
    pair = [0] * n
    spell = [False] * n
    for i in range(n - 1):
        b = _PAIR_BONUS[types[i] * 15 + types[i + 1]]
        pair[i] = 20 + b if b else 0
        if i + 2 < n:
            spell[i] = sp.IS_SPELL[types[i] * 225 + types[i + 1] * 15 + types[i + 2]]
    cur = [0] * (n + 1)  # zero groups placed: any prefix is junk
    for _g in range(groups):
        nxt = [0] * (n + 1)
        nxt[0] = cur[0]
        for j in range(1, n + 1):
            v = nxt[j - 1]  # card j-1 is junk
            w = cur[j]  # an empty group (all three cards still to come)
            if w > v:
                v = w
            w = cur[j - 1] + 10
            if w > v:
                v = w
            if j >= 2 and pair[j - 2]:
                w = cur[j - 2] + pair[j - 2]
                if w > v:
                    v = w
            if j >= 3 and spell[j - 3]:
                w = cur[j - 3] + 40
                if w > v:
                    v = w
            nxt[j] = v
        cur = nxt
    result = cur[n]
    if len(_CACHE) > 200_000:
        _CACHE.clear()
    _CACHE[key] = result
    return result


def _seen(view) -> dict:
    seen: dict = {}
    for p in view["players"]:
        for d in p["discards"]:
            if d["taken_by"] is None:
                t = card_type(d["card"])
                seen[t] = seen.get(t, 0) + 1
        for m in p["melds"]:
            for c in m["cards"]:
                t = card_type(c)
                seen[t] = seen.get(t, 0) + 1
    for ind in view["indicators"]:
        t = card_type(ind["card"])
        seen[t] = seen.get(t, 0) + 1
    return seen


def card_type(card: dict) -> int:
    return _EL[card["el"]] * 5 + card["n"]


def card_ids(cards: list[dict], used: set[int] | None = None) -> list[int]:
    """Card ints for the view's card dicts: copies of one type are told apart only by the star,
    so starred cards take copies 0-2 and plain ones copy 3 (0s: copies 0-3), one id each, none of
    them in ``used``."""
    used = set(used or ())
    out = []
    for c in cards:
        t = card_type(c)
        copy = next(k for k in range(4) if t * 4 + k not in used and sp.has_star(t * 4 + k) == c["star"])
        used.add(t * 4 + copy)
        out.append(t * 4 + copy)
    return out


def win_points(view: dict, action: dict) -> int:
    """What a tsumo or ron would score for this seat, from its view (hand, melds, indicators)."""
    me = view["seat"]
    player = view["players"][me]
    incoming = view["drawn"] if action["type"] == "tsumo" else view["call"]["card"]
    ids = card_ids(view["hand"] + [incoming] + [c for m in player["melds"] for c in m["cards"]])
    hand = ids[:len(view["hand"])]
    hand.insert(action["pos"], ids[len(view["hand"])])
    rest = ids[len(view["hand"]) + 1:]
    melds = [rest[i:i + 3] for i in range(0, len(rest), 3)]
    element = _EL[player["element"]]
    if action["type"] == "ron":
        element = _EL[view["players"][view["call"]["from"]]["weak_to"]]
    indicators = card_ids([i["card"] for i in view["indicators"] if i["riichi_by"] is None or player["riichi"]])
    return sp.score_win(hand, melds, element, indicators)["total"]
