"""Mipolin the Game (みぽりん・ざ・げーむ): 3-player deduction. See ``engine.py`` for the rules' gist."""

from engines.mipolin import engine as _rules
from engines.protocol import ModuleEngine

ENGINE = ModuleEngine(_rules)

__all__ = ["ENGINE"]
