"""Three Magic (スリーマジック), 3 players, mahjong-like: three spells in a fixed-order hand.
See ``engine.py`` for the rules gist and the action shapes."""

from engines.protocol import ModuleEngine
from engines.three_magic import engine as _rules

ENGINE = ModuleEngine(_rules)

__all__ = ["ENGINE"]
