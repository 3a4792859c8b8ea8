"""Makelandia bot: sees only its view and legal actions.

Defence: the strongest answer (how many cards the attack holds is not shown), keeping Boost for
when it matters and the Kill while a strong character (7+) can answer and cards are to spare. Turn: attack an
enemy with a strong play, preferring adjacent targets (the winner's cards come home) and the enemy
closest to elimination (castle first); protect our own castle with reinforcements; never throw
away the last card of our castle; otherwise wait.
"""

from __future__ import annotations

import random

BOOST, KILL = "boost", "kill"
KILL_VALUE = 20
# With spare cards in hand, the Kill ranks like a 7: a 7-11 answers instead and the Kill waits for
# a later threat (before, 20 - 4 still outranked every character).
KEPT_KILL_VALUE = 7


def strength(cards: list[str]) -> int:
    chars = [int(c) for c in cards if c not in (BOOST, KILL)]
    if KILL in cards:
        return KILL_VALUE
    return sum(chars) + (3 if chars and BOOST in cards else 0)


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    if len(legal) == 1:
        return legal[0]
    if legal[0]["type"] == "defend":
        return _defend(view, legal)
    return _turn(view, legal, rng)


def _defend(view: dict, legal: list[dict]) -> dict:
    hand = view["hand"]  # (how many cards the attack holds is not shown: most attacks are one card)

    def score(action):
        cards = action["cards"]
        s = strength(cards)
        if cards == [BOOST]:
            s = -1
        if BOOST in cards:  # Boost is spent win or lose
            s -= 2.5
        if KILL in cards and len(hand) > 2:
            s = KEPT_KILL_VALUE  # keep the Kill for bigger threats when we have spare cards
        return (s, -len(cards))

    return max(legal, key=score)


def _turn(view: dict, legal: list[dict], rng: random.Random) -> dict:
    me = view["seat"]
    players = view["players"]
    mine = players[me]
    hand = view["hand"]
    by_type: dict[str, list[dict]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    wait = by_type["wait"][0]

    # Reinforce our castle when it runs low and we can spare a card.
    if mine["role"] == "fort" and len(hand) >= 3:
        castle = next(p for p in players if p["team"] == mine["team"] and p["role"] == "castle")
        if castle["alive"] and castle["hand_size"] + castle["expedition_size"] <= 2:
            gifts = [a for a in by_type.get("reinforce", []) if a["to"] == castle["seat"]]
            if gifts:
                return max(gifts, key=lambda a: strength([a["card"]]) if a["card"] != BOOST else 5)

    best, best_score = None, 0.0
    for a in by_type.get("attack", []):
        value = attack_value(view, a)
        if value is not None and value > best_score:
            best, best_score = a, value
    if best is not None and best_score >= 9.5:
        return best
    return wait


def shape_cost(cards: list[str]) -> float:
    """What a play's shape costs its attacker: a Boost spent, every card past the first."""
    return (1.5 if BOOST in cards else 0) + 0.7 * (len(cards) - 1)


def attack_value(view: dict, attack: dict) -> float | None:
    """How good an attack looks (strength, spent specials, the target's weakness), or None for
    one the bot never makes (a lone Boost; a distant attack or a castle's attack with every card)."""
    me = view["seat"]
    players = view["players"]
    mine = players[me]
    hand = view["hand"]
    target = players[attack["target"]]
    cards = attack["cards"]
    if cards == [BOOST]:
        return None
    distant = attack["target"] not in mine["adjacent"]
    if distant and len(cards) >= len(hand):
        return None  # would put us out even on a win
    if mine["role"] == "castle" and len(cards) >= len(hand):
        return None
    value: float = strength(cards)
    if KILL in cards:
        value = 9 + (6 if target["hand_size"] == 1 else 0)
    value -= shape_cost(cards)
    if distant:
        value -= 1.5
    value += 3.0 / target["hand_size"]
    if target["role"] == "castle":
        value += 1.5
    return value
