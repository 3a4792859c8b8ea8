"""Game engines: pure rules, no I/O, nothing from ``app``.

Every game is a module ``engines/<id>`` exposing ``ENGINE``, an object with the members of the
engine protocol (see ``engines/protocol.py``). ``get(id)`` returns it; an unknown id raises
``ValueError``. Randomness comes only from the seed, so ``seed + options + action log`` replays a
match exactly.
"""

from __future__ import annotations

import importlib
import importlib.util

from engines import compiled
from engines.protocol import SYSTEM, Engine, IllegalAction, InvalidAction

__all__ = ["SYSTEM", "Engine", "IllegalAction", "InvalidAction", "get", "ids", "all_engines"]

compiled.check()  # before any game's rules are imported: a stale compiled build refuses to run

# Game id -> module path. Listed here rather than discovered so the catalog order is stable.
_MODULES = {
    "synomilia": "engines.synomilia",
    "peribit": "engines.peribit",
    "three_magic": "engines.three_magic",
    "mipolin": "engines.mipolin",
    "makelandia": "engines.makelandia",
}


def ids() -> list[str]:
    """Ids of every game whose module is present, in catalog order."""
    return [game_id for game_id in _MODULES if _present(_MODULES[game_id])]


def get(game_id: str) -> Engine:
    """The engine registered under ``game_id``; ``ValueError`` if there is none."""
    module_path = _MODULES.get(game_id) if isinstance(game_id, str) else None
    if module_path is None or not _present(module_path):
        raise ValueError(f"unknown game id {game_id!r}; known: {', '.join(ids())}")
    return importlib.import_module(module_path).ENGINE


def all_engines() -> list[Engine]:
    return [get(game_id) for game_id in ids()]


def _present(module_path: str) -> bool:
    """A game package counts once it has its ``__init__.py`` (not a half-written folder)."""
    spec = importlib.util.find_spec(module_path)
    return spec is not None and spec.origin is not None
