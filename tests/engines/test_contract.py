"""One generic test over every registered engine (in the spirit of OpenSpiel's games_sim_test):
seeded random playouts that end, never raise, keep invariants, never mutate their input,
round-trip through JSON at every step, give valid outcomes and JSON-safe views."""

from __future__ import annotations

import copy
import json
import random

import pytest

import engines
from engines.playout import play, replay
from engines.protocol import SYSTEM

PLAYOUTS_PER_COUNT = 200
# Full per-step checks (deep copies, JSON round trips, every seat's view) on this many of them.
DEEP_CHECKED = 20

ENGINE_IDS = engines.ids()


def player_counts(engine):
    return range(engine.min_players, engine.max_players + 1)


def _deep_checks(engine, num_players):
    def check(before, seat, action, after):
        snapshot = engine.state_to_json(before)
        assert engine.state_to_json(before) == snapshot
        data = engine.state_to_json(after)
        json.dumps(data)
        assert engine.state_to_json(engine.state_from_json(data)) == data
        for viewer in [None, *range(num_players)]:
            json.dumps(engine.view(after, viewer))
        if hasattr(engine, "check_invariants"):
            engine.check_invariants(after)
        # apply must not mutate: re-applying to a copy of the JSON gives the same result
        again = engine.apply(engine.state_from_json(snapshot), seat, copy.deepcopy(action))
        assert engine.state_to_json(again) == data
    return check


def _check_outcome(engine, state, num_players):
    assert engine.awaiting(state) == frozenset()
    outcome = engine.outcome(state)
    assert outcome is not None
    assert set(outcome) >= {"ranks", "scores", "teams", "reason"}
    ranks = outcome["ranks"]
    assert len(ranks) == num_players
    assert all(isinstance(r, int) and 0 <= r < num_players for r in ranks)
    assert 0 in ranks
    # dense-from-top ranks: a rank r is only used if r seats are strictly better
    for r in ranks:
        assert sum(1 for other in ranks if other < r) == r
    if outcome["scores"] is not None:
        assert len(outcome["scores"]) == num_players
    if outcome["teams"] is not None:
        assert sorted(s for team in outcome["teams"] for s in team) == list(range(num_players))
    assert isinstance(outcome["reason"], str) and outcome["reason"]
    json.dumps(outcome)


def test_registry_knows_every_game():
    assert ENGINE_IDS, "no engines registered"
    for game_id in ENGINE_IDS:
        assert engines.get(game_id).id == game_id
    with pytest.raises(ValueError):
        engines.get("no-such-game")


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_required_members(game_id):
    engine = engines.get(game_id)
    for name in ["id", "title", "min_players", "max_players", "new_game", "awaiting", "legal_actions",
                 "apply", "view", "outcome", "state_to_json", "state_from_json"]:
        assert hasattr(engine, name), name
    assert 1 <= engine.min_players <= engine.max_players


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_random_playouts(game_id):
    engine = engines.get(game_id)
    for num_players in player_counts(engine):
        for i in range(PLAYOUTS_PER_COUNT):
            seed = 1000 * num_players + i
            on_step = _deep_checks(engine, num_players) if i < DEEP_CHECKED else None
            if on_step is None and hasattr(engine, "check_invariants"):
                def on_step(before, seat, action, after):
                    engine.check_invariants(after)
            result = play(engine, num_players, seed, on_step=on_step)
            _check_outcome(engine, result.state, num_players)


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_same_seed_and_actions_give_same_views(game_id):
    engine = engines.get(game_id)
    num_players = engine.min_players
    result = play(engine, num_players, seed=7)
    again = replay(engine, num_players, 7, None, result.log)
    assert engine.state_to_json(again) == engine.state_to_json(result.state)
    # and step by step the views agree
    a = engine.new_game(num_players, 7)
    b = engine.new_game(num_players, 7)
    for seat, action in result.log[:200]:
        a = engine.apply(a, seat, action)
        b = engine.apply(b, seat, action)
        for viewer in [None, *range(num_players)]:
            assert json.dumps(engine.view(a, viewer), sort_keys=True) == json.dumps(engine.view(b, viewer), sort_keys=True)


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_bad_input_is_refused_and_changes_nothing(game_id):
    engine = engines.get(game_id)
    state = engine.new_game(engine.min_players, 3)
    before = engine.state_to_json(state)
    awaited = sorted(engine.awaiting(state))
    idle = [s for s in range(engine.min_players) if s not in awaited]
    bad_inputs = [None, 42, "pass", [], {}, {"type": "no-such-action"}]
    for seat in awaited:
        for bad in bad_inputs:
            with pytest.raises(engines.IllegalAction):
                engine.apply(state, seat, bad)
    for seat in idle:
        assert engine.legal_actions(state, seat) == []
        legal_for_other = engine.legal_actions(state, awaited[0])
        if legal_for_other:
            with pytest.raises(engines.IllegalAction):
                engine.apply(state, seat, legal_for_other[0])
    with pytest.raises(engines.IllegalAction):
        engine.apply(state, engine.max_players + 5, {"type": "pass"})
    assert engine.state_to_json(state) == before


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_system_steps_have_exactly_one_action(game_id):
    engine = engines.get(game_id)
    for seed in range(20):
        def check(before, seat, action, after):
            if SYSTEM in engine.awaiting(after):
                assert len(engine.legal_actions(after, SYSTEM)) == 1
        play(engine, engine.min_players, seed, rng=random.Random(seed), on_step=check)
