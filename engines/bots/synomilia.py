"""Synomilia bot: pick a target pile count it can reach, then steer the pile to it.

Uses only the seat's view and legal actions. Prediction: drawn at random among the available cards
it can reach with its own chips, the 9 weighted up (the pile ends the bout by itself at 9 and the 9
card is never used up) but never certain, so the prediction cannot be read off a fixed habit.
Play: stack sun while below the target (moon for the chip that reaches it, so the opponent's pass
ends the bout there), pass at the target, and if the pile overshoots, change once to the available
card nearest the pile.
"""

from __future__ import annotations

import random

NINE_WEIGHT = 3


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    me = view["viewer"]
    kinds: dict[str, list[dict]] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    if "predict" in kinds:
        return _predict(view, me, kinds["predict"], rng)
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


def _predict(view: dict, me: int, options: list[dict], rng: random.Random) -> dict:
    """A random card it can fill the pile to with its own chips; the 9 (never used up, and the
    pile stops by itself at 9) weighs ``NINE_WEIGHT`` times as much as each other card, so it is
    likely but never certain: a fixed prediction would let the opponent play around it."""
    cards = sorted(a["card"] for a in options)
    reachable = [c for c in cards if c <= view["chips"][me]] or cards[:1]
    weights = [NINE_WEIGHT if c == view["pile_limit"] else 1 for c in reachable]
    return {"type": "predict", "card": rng.choices(reachable, weights)[0]}
