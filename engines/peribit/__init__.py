"""Peribit (ペリビット): two-player simultaneous stone placement. See ``engine.py``."""

from engines.peribit.engine import ENGINE, PeribitEngine, State

__all__ = ["ENGINE", "PeribitEngine", "State"]
