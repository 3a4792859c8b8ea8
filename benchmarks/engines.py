"""Engine speed: random playouts per second and microseconds per legal_actions + apply step.

    python benchmarks/engines.py <game> [--games N] [--players P]

A benchmark, not a test: run it by hand and report what it prints. Also counts that every
playout ended with a valid outcome and, where the engine has one, that invariants held.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engines  # noqa: E402
from engines.protocol import SYSTEM  # noqa: E402


def run(game_id: str, games: int, players: int | None) -> None:
    engine = engines.get(game_id)
    counts = [players] if players else list(range(engine.min_players, engine.max_players + 1))
    for num_players in counts:
        steps = 0
        step_time = 0.0
        start = time.perf_counter()
        for seed in range(games):
            rng = random.Random(seed)
            state = engine.new_game(num_players, seed)
            while True:
                awaited = engine.awaiting(state)
                if not awaited:
                    break
                seat = SYSTEM if SYSTEM in awaited else rng.choice(sorted(awaited))
                t0 = time.perf_counter()
                legal = engine.legal_actions(state, seat)
                action = legal[0] if seat == SYSTEM else rng.choice(legal)
                state = engine.apply(state, seat, action)
                step_time += time.perf_counter() - t0
                steps += 1
            if engine.outcome(state) is None:
                raise SystemExit(f"seed {seed}: game over without an outcome")
        total = time.perf_counter() - start
        print(f"{game_id} players={num_players}: {games} playouts in {total:.2f}s = "
              f"{games / total:.1f} playouts/s; {steps} steps, "
              f"{1e6 * step_time / max(steps, 1):.1f} µs per legal_actions+apply step")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=engines.ids())
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int)
    args = parser.parse_args()
    run(args.game, args.games, args.players)
