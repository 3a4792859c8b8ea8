"""Bot strength and think time, per game and player count.

    python benchmarks/bots.py [--game G] [--players P] [--games 400] [--think 0.03] [--worlds 16]
                              [--timing-moves 100]

For each game and player count it prints:
- easy vs random: the easy bot's win rate against uniformly random players;
- strong vs easy: the strong bot's win rate against easy bots, over ``--games`` seeded games (and,
  for comparison, an easy bot's rate in the same seat over the same seeds), the strong bot on a
  *benchmark* budget (``--think`` seconds / ``--worlds`` worlds a move, smaller
  than the server's, so that 400 games per table size finish in bounded time on a shared machine);
- think time: the strong bot's wall-clock time per move on the *server* budget
  (``engines.bots.search.SERVER_BUDGET``), p50 / p99 / max over ``--timing-moves`` moves taken from
  seeded games against easy bots.
A win is a first place shared with no opponent (team games: the bot's team alone in first); the
seat (team) of the measured bot rotates with the seed. Three Magic is played with its
``short_game`` option (one round of dealers) to keep the run bounded. Results: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engines  # noqa: E402
from engines.bots import get as get_bot, random_policy  # noqa: E402
from engines.bots.evaluate import win_rate  # noqa: E402
from engines.bots.search import SERVER_BUDGET, Budget, policy as strong_policy  # noqa: E402
from engines.playout import play  # noqa: E402

OPTIONS = {"three_magic": {"short_game": True}}


def timed(policy, times: list[float]):
    def choose(view, legal, rng):
        start = time.perf_counter()
        action = policy(view, legal, rng)
        times.append(time.perf_counter() - start)
        return action
    return choose


def think_times(game_id: str, num_players: int, moves: int) -> list[float]:
    """Strong-bot move times on the server budget, from seeded games against easy bots (only
    moves with a real choice: a single legal action is returned without thinking)."""
    engine = engines.get(game_id)
    times: list[float] = []
    strong = timed(strong_policy(game_id, SERVER_BUDGET), times)
    seed = 10_000
    while len(times) < moves:
        policies = [strong if s == seed % num_players else get_bot(game_id) for s in range(num_players)]
        play(engine, num_players, seed, policies=policies, rng=random.Random(seed), options=OPTIONS.get(game_id))
        seed += 1
    return sorted(times[:moves])


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=engines.ids())
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--think", type=float, default=0.03, help="benchmark budget: seconds per move")
    parser.add_argument("--worlds", type=int, default=16, help="benchmark budget: worlds per move")
    parser.add_argument("--timing-moves", type=int, default=100)
    args = parser.parse_args()
    bench = Budget(think_seconds=args.think, worlds=args.worlds)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; benchmark budget {bench}; "
          f"server budget {SERVER_BUDGET}", flush=True)
    for game_id in [args.game] if args.game else engines.ids():
        engine = engines.get(game_id)
        counts = [args.players] if args.players else range(engine.min_players, engine.max_players + 1)
        for n in counts:
            started = time.perf_counter()
            easy = get_bot(game_id)
            vs_random = _rate(game_id, n, easy, random_policy, args.games)
            bench_times: list[float] = []
            vs_easy = _rate(game_id, n, timed(strong_policy(game_id, bench), bench_times), easy, args.games)
            in_its_place = _rate(game_id, n, easy, easy, args.games)
            line = (f"{game_id} players={n}: easy vs random {vs_random:.1%}; strong vs easy {vs_easy:.1%} "
                    f"(an easy bot in its place: {in_its_place:.1%}) over {args.games} games "
                    f"(bench budget p99 {percentile(sorted(bench_times), 0.99):.3f} s)")
            if args.timing_moves:
                server = think_times(game_id, n, args.timing_moves)
                line += (f"; server-budget think time over {len(server)} moves: p50 {percentile(server, 0.5):.3f} s, "
                         f"p99 {percentile(server, 0.99):.3f} s, max {server[-1]:.3f} s")
            print(f"{line} [{time.perf_counter() - started:.0f} s]", flush=True)


def _rate(game_id, n, hero, rival, games) -> float:
    return win_rate(game_id, n, hero, rival, games, options=OPTIONS.get(game_id))


if __name__ == "__main__":
    main()
