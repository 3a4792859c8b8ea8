"""Mipolin the Game (みぽりん・ざ・げーむ): 3-player deduction. See ``engine.py`` for the rules' gist."""

from engines.mipolin.engine import ENGINE

__all__ = ["ENGINE"]
