"""Three Magic (スリーマジック), 3 players, mahjong-like: three spells in a fixed-order hand.
See ``engine.py`` for the rules gist and the action shapes."""

from engines.three_magic.engine import ENGINE

__all__ = ["ENGINE"]
