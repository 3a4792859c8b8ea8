"""Makelandia (マケランディア): two teams, a ring of territories, face-down battles. See ``engine.py``."""

from engines.makelandia.engine import ENGINE

__all__ = ["ENGINE"]
