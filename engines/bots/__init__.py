"""Bot policies: each sees only ``view(state, seat)`` and ``legal_actions``, never the full state.

A policy is ``choose(view: dict, legal: list[dict], rng: random.Random) -> dict`` and lives in
``engines/bots/<game id>.py`` as the function ``choose``. ``get(game_id)`` returns it.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from typing import Callable

Policy = Callable[[dict, list[dict], random.Random], dict]


def random_policy(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The uniformly random player bots are measured against."""
    return rng.choice(legal)


def get(game_id: str) -> Policy:
    """The bot policy for ``game_id``; ``ValueError`` if that game has none."""
    module_path = f"engines.bots.{game_id}"
    if not isinstance(game_id, str) or not game_id.isidentifier() or importlib.util.find_spec(module_path) is None:
        raise ValueError(f"no bot for game {game_id!r}")
    return importlib.import_module(module_path).choose
