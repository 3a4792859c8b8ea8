"""Play a game to its end with given policies: used by tests, benchmarks and bot evaluations.

Policies see only what a seat may see (``view`` + ``legal_actions``). When several seats are
awaited at once (a simultaneous step), the order in which they submit is drawn from ``rng``, so
playouts also exercise every submission order. SYSTEM steps are applied as the server would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from engines.protocol import SYSTEM

MAX_STEPS = 200_000


@dataclass
class Playout:
    state: Any
    log: list[tuple[int, dict]] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return len(self.log)


def play(engine, num_players: int, seed: int, policies: list[Callable] | None = None,
         rng: random.Random | None = None, options: dict | None = None,
         on_step: Callable[[Any, int, dict, Any], None] | None = None,
         max_steps: int | None = None) -> Playout:
    """Play one game (or only its first ``max_steps`` steps). ``policies[seat]`` defaults to
    uniformly random. ``on_step(before, seat, action, after)`` is called after every applied
    action (for invariant checks)."""
    rng = rng or random.Random(seed)
    state = engine.new_game(num_players, seed, options)
    result = Playout(state)
    for _ in range(MAX_STEPS):
        awaited = engine.awaiting(state)
        if not awaited or (max_steps is not None and len(result.log) >= max_steps):
            result.state = state
            return result
        seat = SYSTEM if SYSTEM in awaited else rng.choice(sorted(awaited))
        legal = engine.legal_actions(state, seat)
        if seat == SYSTEM:
            action = legal[0]
        elif policies and policies[seat] is not None:
            action = policies[seat](engine.view(state, seat), legal, rng)
        else:
            action = rng.choice(legal)
        after = engine.apply(state, seat, action)
        result.log.append((seat, action))
        if on_step:
            on_step(state, seat, action, after)
        state = after
    raise RuntimeError(f"{engine.id}: game with seed {seed} did not end in {MAX_STEPS} steps")


def random_point(engine, num_players: int, seed: int, steps: int, options: dict | None = None):
    """The state after up to ``steps`` uniformly random steps of the game with ``seed`` (for
    property tests that need positions from the middle of real games)."""
    return play(engine, num_players, seed, options=options, max_steps=steps).state


def replay(engine, num_players: int, seed: int, options: dict | None, log: list[tuple[int, dict]]):
    """Recompute the state reached by ``log`` (pairs of seat, action) from the start."""
    state = engine.new_game(num_players, seed, options)
    for seat, action in log:
        state = engine.apply(state, seat, action)
    return state
