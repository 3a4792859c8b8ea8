"""Measure a bot against uniformly random players (used by tests and benchmarks/bots.py).

Free-for-all: the bot sits in one seat, rotating with the seed; it wins a game when it ranks first
and no random player shares that first place. Team games (the spectator view has ``teams``): bots
fill the rotating seat's team, random players the other team; a win is that team alone in first.
"""

from __future__ import annotations

import random

import engines
from engines.bots import get as get_bot, random_policy
from engines.playout import play


def bot_win_rate(game_id: str, num_players: int, games: int = 400, first_seed: int = 0) -> float:
    engine = engines.get(game_id)
    bot = get_bot(game_id)
    wins = 0
    for i in range(games):
        seed = first_seed + i
        bot_seat = i % num_players
        teams = _teams(engine, num_players, seed)
        bot_seats = next((set(t) for t in teams if bot_seat in t), {bot_seat}) if teams else {bot_seat}
        policies = [bot if s in bot_seats else random_policy for s in range(num_players)]
        result = play(engine, num_players, seed, policies=policies, rng=random.Random(seed))
        ranks = engine.outcome(result.state)["ranks"]
        everyone_first = all(r == 0 for r in ranks)
        if ranks[bot_seat] == 0 and not everyone_first and all(ranks[s] > 0 for s in range(num_players) if s not in bot_seats):
            wins += 1
    return wins / games


def _teams(engine, num_players: int, seed: int):
    """Teams are fixed at setup; engines that have them say so in the spectator view's ``teams``."""
    view = engine.view(engine.new_game(num_players, seed), None)
    return view.get("teams")
