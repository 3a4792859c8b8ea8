"""Synomilia (シノミリア), 2 players: predict the pile, stack chips, bluff. See ``engine.py``."""

from engines.synomilia.engine import ENGINE

__all__ = ["ENGINE"]
