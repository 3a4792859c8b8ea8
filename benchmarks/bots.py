"""Bot strength: the game's bot against uniformly random players over seeded games.

    python benchmarks/bots.py <game> [--games 400] [--players P]

Prints the bot's win rate (2 players: wins; 3+ free-for-all: first places; team games: team wins).
The same measurement, with its threshold, is asserted in tests/engines/test_bots.py.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engines  # noqa: E402
from engines.bots.evaluate import bot_win_rate  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=engines.ids())
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int)
    args = parser.parse_args()
    engine = engines.get(args.game)
    counts = [args.players] if args.players else range(engine.min_players, engine.max_players + 1)
    for n in counts:
        rate = bot_win_rate(args.game, n, args.games)
        print(f"{args.game} players={n}: bot win rate {rate:.1%} over {args.games} seeded games")
