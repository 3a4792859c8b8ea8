"""A seat's replay shows another seat's move by its public part (``Engine.public_action``, app/
history.py). The part must never tell apart two moves that the table did not: for every state of
seeded playouts of every game, any two legal moves of an awaited seat after which some other seat
(or a spectator) holds the same view must have the same public part. A field that the views keep
hidden (a prediction's card, where a card went into a hand, an attack's cards, the card shown to
the asker) fails it at once; a field they show (a stack's face, an attack's target) may stay."""

from __future__ import annotations

import json

import pytest

import engines
from engines.playout import play
from engines.protocol import SYSTEM

OPTIONS = {"mipolin": [None, {"suggestions": True}, {"character_choice": True}],
           "three_magic": [{"short_game": True}]}
SEEDS = {"mipolin": range(6)}  # (short games; a card shown to the asker comes in few of them)


def _shapes(move: dict) -> list[dict]:
    """``move`` and other shapes of it that the engines accept: lists written the other way round
    (Mipolin's exchange pairs, Peribit's stones given), an optional field left out (a placement's mark)."""
    out = [move]
    if isinstance(move.get("pairs"), list):
        out.append({**move, "pairs": [list(reversed(pair)) for pair in move["pairs"]]})
    if isinstance(move.get("give"), list):
        out.append({**move, "give": list(reversed(move["give"]))})
    if move.get("type") == "place" and "mark" in move:
        out.append({key: value for key, value in move.items() if key != "mark"})
    return out


def _indistinguishable_moves_share_a_public_part(engine, state, players: int) -> int:
    """Checks one state; returns how many pairs of moves a viewer could not tell apart."""
    pairs = 0
    for seat in engine.awaiting(state):
        if seat == SYSTEM:
            continue
        moves = [shape for move in engine.legal_actions(state, seat) for shape in _shapes(move)]
        afters = [engine.apply(state, seat, move) for move in moves]
        for viewer in [None, *(s for s in range(players) if s != seat)]:
            by_view: dict[str, dict | None] = {}
            for move, after in zip(moves, afters):
                seen = json.dumps(engine.view(after, viewer), sort_keys=True)
                part = engine.public_action(after, seat, move)
                if seen in by_view:
                    pairs += 1
                    assert by_view[seen] == part, (
                        f"{engine.id}: seat {seat}'s {move} and another move leave seat {viewer}'s view alike, "
                        f"but their public parts differ: {by_view[seen]} / {part}")
                else:
                    by_view[seen] = part
    return pairs


@pytest.mark.parametrize("game", [engine.id for engine in engines.all_engines()])
def test_a_public_part_never_tells_apart_what_the_table_did_not(game):
    engine = engines.get(game)
    checked = [0]  # pairs of moves that a viewer could not tell apart

    for opts in OPTIONS.get(game, [None]):
        for players in sorted({engine.min_players, engine.max_players}):
            def on_step(before, seat, action, after, players=players):
                checked[0] += _indistinguishable_moves_share_a_public_part(engine, before, players)

            for seed in SEEDS.get(game, [5]):
                play(engine, players, seed=seed, options=opts, on_step=on_step, max_steps=400)
    assert checked[0] > 0  # some moves were alike to someone: the check met what it checks
