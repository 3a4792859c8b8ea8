"""The easy level: each game's hand-written rules, ``choose`` in ``engines/bots/<game id>.py``.

A module of its own so the strong level (``search`` and ``determinize``), which plays the easy
bot in every seat of its worlds, finds it without importing ``engines.bots`` (which offers both
levels and so imports ``search``: the two would need each other)."""

from __future__ import annotations

import importlib
import importlib.util


def policy(game_id: str):
    """The easy policy ``choose(view, legal, rng)`` of ``game_id``; ``ValueError`` for a game
    without bots."""
    module_path = f"engines.bots.{game_id}"
    if not isinstance(game_id, str) or not game_id.isidentifier() or importlib.util.find_spec(module_path) is None:
        raise ValueError(f"no bot for game {game_id!r}")
    return importlib.import_module(module_path).choose
