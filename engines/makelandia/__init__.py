"""Makelandia (マケランディア): two teams, a ring of territories, face-down battles.

``ENGINE`` is the protocol object (see engines/protocol.py); the rules live in ``engine.py`` and
the tables (setup per player count, house abilities) in ``data.py``.
"""

from __future__ import annotations

from engines.makelandia import engine as _rules


class MakelandiaEngine:
    id = _rules.ID
    title = _rules.TITLE
    min_players = _rules.MIN_PLAYERS
    max_players = _rules.MAX_PLAYERS
    version = _rules.VERSION
    options = _rules.OPTIONS

    new_game = staticmethod(_rules.new_game)
    awaiting = staticmethod(_rules.awaiting)
    legal_actions = staticmethod(_rules.legal_actions)
    apply = staticmethod(_rules.apply)
    view = staticmethod(_rules.view)
    outcome = staticmethod(_rules.outcome)
    state_to_json = staticmethod(_rules.state_to_json)
    state_from_json = staticmethod(_rules.state_from_json)
    check_invariants = staticmethod(_rules.check_invariants)
    on_timeout = staticmethod(_rules.on_timeout)


ENGINE = MakelandiaEngine()

__all__ = ["ENGINE"]
