"""Synomilia's numbers and texts: the published game's constants and the wording of the game's end.

Kept as data so rule tweaks (chip counts, payout amounts, wording) never need code branches.
"""

from __future__ import annotations

from typing import Any

NUM_PLAYERS = 2
START_CHIPS = 15  # per player; 30 chips in play at every step
TOTAL_CHIPS = START_CHIPS * NUM_PLAYERS
CARDS = tuple(range(10))  # number cards 0-9, one each per player
RETURNING_CARDS = frozenset({9})  # used for a prediction but return to the available cards
PILE_LIMIT = 9  # bout end condition 1: the pile holds this many chips
GAME_END_CARDS = 2  # game end condition 2 (ruling: this many or fewer available cards)
FACES = ("sun", "moon")

# Payout to the bout winner, in order, each paid from the loser's hand (partially if short).
# kind "if_winner_holds": due only when the winner held exactly `holds` chips before any payout;
# "per_moon": one chip per moon-face chip on the pile; "flat": always; "pile": the whole pile.
PAYOUT: tuple[dict[str, Any], ...] = (
    {"step": "winner_had_0", "kind": "if_winner_holds", "holds": 0, "amount": 5},
    {"step": "winner_had_1", "kind": "if_winner_holds", "holds": 1, "amount": 2},
    {"step": "moons", "kind": "per_moon", "amount": 1},
    {"step": "base", "kind": "flat", "amount": 2},
    {"step": "pile", "kind": "pile"},
)

# Why the game ended.
GAME_END_TEXTS = {
    "no_chips": ("P{p} holds no chips.", "P{p}の手持ちのチップが0枚。"),
    "few_cards": ("P{p} has only {k} available number card(s) left.",
                  "P{p}の使える数字カードが残り{k}枚。"),
}
RESULT_TEXTS = {
    "win": ("P{w} wins with {a} chips to {b}.", "P{w}の勝ち({a}枚対{b}枚)。"),
    "draw": ("Draw: both hold {a} chips.", "引き分け(両者{a}枚)。"),
}
