"""Makelandia (マケランディア): two teams, a ring of territories, face-down battles.

``ENGINE`` is the protocol object (see engines/protocol.py); the rules live in ``engine.py`` and
the tables (setup per player count, house abilities) in ``data.py``.
"""

from engines.makelandia import engine as _rules
from engines.protocol import ModuleEngine

ENGINE = ModuleEngine(_rules)

__all__ = ["ENGINE"]
