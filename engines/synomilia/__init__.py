"""Synomilia (シノミリア), 2 players: predict the pile, stack chips, bluff. See ``engine.py``."""

from engines.protocol import ModuleEngine
from engines.synomilia import engine as _rules

ENGINE = ModuleEngine(_rules)

__all__ = ["ENGINE"]
