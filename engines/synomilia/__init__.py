"""Synomilia (シノミリア), 2 players: predict the pile, stack chips, bluff. See ``engine.py``."""

from engines.synomilia import engine
from engines.protocol import engine_of

ENGINE = engine_of(engine)

__all__ = ["ENGINE"]
