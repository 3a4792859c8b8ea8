"""Makelandia (マケランディア): two teams, a ring of territories, face-down battles. See ``engine.py``."""

from engines.makelandia import engine
from engines.protocol import engine_of

ENGINE = engine_of(engine)

__all__ = ["ENGINE"]
