"""Peribit (ペリビット): two-player simultaneous stone placement. See ``engine.py``."""

from engines.peribit import engine
from engines.protocol import engine_of

ENGINE = engine_of(engine)

__all__ = ["ENGINE"]
