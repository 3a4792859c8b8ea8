"""Every game's bot clearly beats uniformly random play over 400 seeded games per player count."""

import pytest

import engines
from engines.bots.evaluate import bot_win_rate

GAMES = 400


def threshold(engine, num_players):
    view = engine.view(engine.new_game(num_players, 0), None)
    if view.get("teams"):
        return 0.65
    return 0.65 if num_players == 2 else 0.50


@pytest.mark.parametrize("game_id", engines.ids())
def test_bot_beats_random(game_id):
    engine = engines.get(game_id)
    for num_players in range(engine.min_players, engine.max_players + 1):
        rate = bot_win_rate(game_id, num_players, GAMES)
        assert rate >= threshold(engine, num_players), f"{game_id} with {num_players}: {rate:.1%}"
