"""Mipolin the Game (みぽりん・ざ・げーむ): 3-player deduction. See ``engine.py`` for the rules' gist."""

from engines.mipolin import engine
from engines.protocol import engine_of

ENGINE = engine_of(engine)

__all__ = ["ENGINE"]
