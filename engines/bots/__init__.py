"""Bot policies: each sees only ``view(state, seat)`` and ``legal_actions``, never the full state.

A policy is ``choose(view: dict, legal: list[dict], rng: random.Random) -> dict``. Two levels:
- "easy": hand-written rules per game, in ``engines/bots/<game id>.py`` as the function ``choose``;
- "strong": determinized Monte Carlo search over what the seat cannot see, playing the easy bot in
  every seat of each sampled world (``engines/bots/search.py``), within a think-time budget.
``get(game_id, level)`` returns the policy.
"""

from __future__ import annotations

import random
from typing import Callable

from engines.bots import easy

Policy = Callable[[dict, list[dict], random.Random], dict]

LEVELS = ("easy", "strong")
DEFAULT_LEVEL = "easy"


def random_policy(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The uniformly random player bots are measured against."""
    return rng.choice(legal)


def get(game_id: str, level: str = DEFAULT_LEVEL) -> Policy:
    """The ``level`` bot policy for ``game_id``; ``ValueError`` for a game without bots or an
    unknown level."""
    choose = easy.policy(game_id)  # (ValueError for a game without bots)
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if level == "strong":
        from engines.bots import search

        return search.policy(game_id)
    return choose
