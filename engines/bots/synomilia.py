"""Synomilia bot: pick a target pile count it can reach, then steer the pile to it.

Uses only the seat's view and legal actions. Prediction: the 9 when it holds enough chips to fill
the pile itself (the pile ends the bout by itself at 9 and the 9 card is never used up), else the
largest available card it can reach with its own chips. Play: stack sun while below the target
(moon for the chip that reaches it, so the opponent's pass ends the bout there), pass at the
target, and if the pile overshoots, change once to the available card nearest the pile.
"""

from __future__ import annotations

import random


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    me = view["viewer"]
    kinds = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    if "predict" in kinds:
        return _predict(view, me, kinds["predict"])
    if "reveal" in kinds or len(legal) == 1:
        return legal[0]
    pile = view["pile_count"]
    target = view["my_prediction"]
    if pile < target:
        if "stack" in kinds:
            face = "moon" if pile + 1 == target and target < view["pile_limit"] else "sun"
            return {"type": "stack", "face": face}
        return {"type": "pass"}
    if pile > target and "change" in kinds:
        cards = [a["card"] for a in kinds["change"]]
        best = min(cards, key=lambda c: (abs(c - pile), c < pile))
        if best != target:
            return {"type": "change", "card": best}
    return {"type": "pass"}


def _predict(view: dict, me: int, options: list[dict]) -> dict:
    cards = sorted(a["card"] for a in options)
    chips = view["chips"][me]
    if chips >= view["pile_limit"] and view["pile_limit"] in cards:
        card = view["pile_limit"]
    else:
        reachable = [c for c in cards if c <= chips]
        card = reachable[-1] if reachable else cards[0]
    return {"type": "predict", "card": card}
