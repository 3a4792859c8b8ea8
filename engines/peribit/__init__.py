"""Peribit (ペリビット): two-player simultaneous stone placement. See ``engine.py``."""

from engines.peribit.engine import ENGINE

__all__ = ["ENGINE"]
