"""Three Magic (スリーマジック), 3 players, mahjong-like: three spells in a fixed-order hand.
See ``engine.py`` for the rules gist and the action shapes."""

from engines.three_magic import engine
from engines.protocol import engine_of

ENGINE = engine_of(engine)

__all__ = ["ENGINE"]
