"""Measure one policy against another over seeded games (used by tests and benchmarks/bots.py).

Free-for-all: the measured policy sits in one seat, rotating with the seed; it wins a game when it
ranks first and no other player shares that first place. Team games (the spectator view has
``teams``): the measured policy fills the rotating seat's team, the opponents the other team; a win
is that team alone in first.
"""

from __future__ import annotations

import random
from typing import Callable

import engines
from engines.bots import get as get_bot, random_policy
from engines.playout import play


def win_rate(game_id: str, num_players: int, hero: Callable, rival: Callable, games: int = 400,
             first_seed: int = 0, options: dict | None = None) -> float:
    """Share of ``games`` seeded games won by ``hero`` against ``rival`` in the other seats."""
    engine = engines.get(game_id)
    wins = 0
    for i in range(games):
        seed = first_seed + i
        hero_seat = i % num_players
        teams = _teams(engine, num_players, seed)
        hero_seats = next((set(t) for t in teams if hero_seat in t), {hero_seat}) if teams else {hero_seat}
        policies = [hero if s in hero_seats else rival for s in range(num_players)]
        result = play(engine, num_players, seed, policies=policies, rng=random.Random(seed), options=options)
        outcome = engine.outcome(result.state)
        assert outcome is not None, "a playout ends with an outcome"
        ranks = outcome["ranks"]
        wins += ranks[hero_seat] == 0 and all(ranks[s] > 0 for s in range(num_players) if s not in hero_seats)
    return wins / games


def bot_win_rate(game_id: str, num_players: int, games: int = 400, first_seed: int = 0) -> float:
    """The easy bot against uniformly random players."""
    return win_rate(game_id, num_players, get_bot(game_id), random_policy, games, first_seed)


def _teams(engine, num_players: int, seed: int):
    """Teams are fixed at setup; engines that have them say so in the spectator view's ``teams``."""
    view = engine.view(engine.new_game(num_players, seed), None)
    return view.get("teams")
