"""Bytes per pushed view, for every game: ``python benchmarks/view_bytes.py [--matches 20]``.

Plays random legal matches (server steps applied as the server does) and encodes, at every
version, the ``view`` message a seated player and a spectator would be pushed, exactly as the live
layer builds it (``MatchRunner.message``, ``app.live.wire.Encoded``). Prints one JSON line per game:
mean, p95 and max bytes for a seat and for a spectator, and the largest top-level view fields."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # before benchmarks/engines.py

import engines  # noqa: E402
from app.clock import SystemClock  # noqa: E402
from app.live.runner import MatchRunner  # noqa: E402
from app.json_codec import dumps  # noqa: E402
from engines.protocol import SYSTEM  # noqa: E402

GAMES = ["synomilia", "peribit", "three_magic", "mipolin", "makelandia"]


def pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def measure(game: str, matches: int, seed: int) -> dict:
    engine = engines.get(game)
    rng = random.Random(seed)
    seat_bytes, spectator_bytes, fields = [], [], Counter()
    for _ in range(matches):
        players = engine.min_players
        state = engine.new_game(players, rng.randrange(2**62), {})
        runner = MatchRunner("0" * 32, game, 0, players, state, 0, {}, clock=SystemClock(), writer=None)
        steps = 0
        while engine.awaiting(runner.state) and steps < 5000:
            seat_bytes.append(len(dumps(runner.message(0))))
            spectator_bytes.append(len(dumps(runner.message(None))))
            for key, value in engine.view(runner.state, 0).items():
                fields[key] += len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
            awaited = sorted(engine.awaiting(runner.state))
            actor = SYSTEM if SYSTEM in awaited else rng.choice(awaited)
            action = rng.choice(engine.legal_actions(runner.state, actor))
            runner.state = engine.apply(runner.state, actor, action)
            runner.version += 1
            steps += 1
    views = len(seat_bytes)
    return {"game": game, "views": views,
            "seat_bytes_mean": round(sum(seat_bytes) / views), "seat_bytes_p95": pct(seat_bytes, 95),
            "seat_bytes_max": max(seat_bytes),
            "spectator_bytes_mean": round(sum(spectator_bytes) / views),
            "largest_fields_mean_bytes": {k: round(v / views) for k, v in fields.most_common(4)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    async def run():  # MatchRunner wants a running loop (its lock)
        for game in GAMES:
            print(json.dumps(measure(game, args.matches, args.seed), ensure_ascii=False))

    asyncio.run(run())


if __name__ == "__main__":
    main()
