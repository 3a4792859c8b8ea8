"""Synomilia (シノミリア), 2 players: predict the pile, stack chips, bluff. See ``engine.py``."""

from __future__ import annotations

from engines.synomilia import engine as _rules


class _Synomilia:
    """The engine object the registry returns (members per ``engines/protocol.py``)."""

    id = _rules.GAME_ID
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
    delay = staticmethod(_rules.delay)
    clock_seconds = staticmethod(_rules.clock_seconds)
    deadline_seconds = staticmethod(_rules.clock_seconds)  # the name engines/protocol.py uses
    on_timeout = staticmethod(_rules.on_timeout)
    check_invariants = staticmethod(_rules.check_invariants)


ENGINE = _Synomilia()

__all__ = ["ENGINE"]
