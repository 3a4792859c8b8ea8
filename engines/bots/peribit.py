"""Peribit bot: greedy on the house score table, using only the seat's view and legal actions.

For each legal placement it estimates the change in (own best-role points - opponent's best-role
points): capturing a lane adds its stones (plus the placed one) to the own multa and denies the
lane to the opponent (weighted, since the opponent may not have taken it). When a capture would end
the round (metus reaches the limit), the round's standing after the capture adds a bonus or malus.
It never exchanges: giving 2 stones for 1 only shrinks the hand of choices.
"""

from __future__ import annotations

import random

from engines.peribit.data import MARKS
from engines.peribit.scoring import points

DENIAL_WEIGHT = 0.5
ROUND_END_WEIGHT = 0.5


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    if not legal:
        raise ValueError("no legal action to choose from")
    if legal[0]["type"] in ("exchange", "no_exchange"):
        return next((a for a in legal if a["type"] == "no_exchange"), legal[0])
    me = view["seat"]
    if me is None:
        return rng.choice(legal)
    mine = [view["multas"][me]["counts"][m] for m in MARKS]
    theirs = [view["multas"][1 - me]["counts"][m] for m in MARKS]
    my_points, their_points = points(mine), points(theirs)
    lanes = view["lanes"]
    best, best_value = [], None
    for action in legal:
        value = 0.0
        if action["type"] == "place":
            lane = lanes[action["lane"]]
            k = MARKS.index(lane["mark"])
            stones = lane["stones"] + 1
            gain_multa = list(mine)
            gain_multa[k] += stones
            gained = points(gain_multa) - my_points
            denied_multa = list(theirs)
            denied_multa[k] += stones
            denied = points(denied_multa) - their_points
            value = gained + DENIAL_WEIGHT * denied + 0.01 * stones
            metus = view["metus"] + (1 if stones <= 3 else stones)
            if metus >= view["metus_limit"]:
                value += ROUND_END_WEIGHT * (points(gain_multa) - their_points)
        else:
            value = -0.5
        if best_value is None or value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)
