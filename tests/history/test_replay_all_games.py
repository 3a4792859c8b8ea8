"""For every game: a match recorded through the store replays (seed + options + action log) to
exactly the stored final state, step by step for every seat, and its export replays offline."""

from __future__ import annotations

import json
import random

import pytest

import engines
from app import history, store
from app.models import Match
from tests.history.helpers import make_players, play_match, session_factory_for

pytestmark = pytest.mark.every_database  # tests/conftest.py

OPTIONS = {"synomilia": {"reveal_delay": 0}, "three_magic": {"short_game": True}}


def test_every_game_replays_to_the_stored_state(database_url):
    db, factory = session_factory_for(database_url)
    try:
        players = make_players(factory, [f"P{i}" for i in range(8)])
        rng = random.Random(11)
        for game in engines.ids():
            engine = engines.get(game)
            match_id = play_match(factory, game, players[:engine.min_players], rng, OPTIONS.get(game))
            with factory() as session:
                match = session.get(Match, match_id)
                assert match.status == "finished", game
                log = store.match_log(session, match_id)
                final = store.replay_state(match, log)
                assert json.loads(json.dumps(engine.state_to_json(final))) == match.state, game
                last = history.replay_step(session, match, "all", None)
                assert last["state"] == match.state and last["step"] == last["steps"] == len(log) == match.version
                assert last["outcome"] == match.outcome
                # Spot-check steps: each seat's replayed view is the engine's view of that state.
                for step in sorted({0, 1, len(log) // 2, len(log)}):
                    state = store.replay_state(match, log, upto=step)
                    for seat in [None, *range(len(match.seats))]:
                        shown = history.replay_step(session, match, seat, step)
                        assert shown["view"] == json.loads(json.dumps(engine.view(state, seat))), (game, step, seat)
                record = history.export_record(session, match)
            record = json.loads(json.dumps(record))
            result = history.replay_export(record)
            assert result["state_matches"] and result["outcome_matches"] and result["finished"], (game, result)
    finally:
        db.dispose()
