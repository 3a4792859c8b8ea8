"""One generic test over every registered engine (in the spirit of OpenSpiel's games_sim_test):
seeded random playouts that end, never raise, keep invariants, never mutate their input,
round-trip through JSON at every step, give valid outcomes and JSON-safe views."""

from __future__ import annotations

import ast
import copy
import importlib
import json
import pathlib
import random

import pytest

import engines
from engines.playout import play, replay
from engines.protocol import MEMBERS, SYSTEM, Engine

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
    assert isinstance(engine, engines.Engine)
    for name in ["new_game", "awaiting", "legal_actions", "apply", "view", "outcome", "state_to_json",
                 "state_from_json"]:
        assert getattr(type(engine), name) is not getattr(engines.Engine, name), f"{game_id} lacks {name}"
    for name in ["id", "title", "min_players", "max_players", "version", "options"]:
        assert getattr(engine, name) is not None, name
    assert 1 <= engine.min_players <= engine.max_players


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_every_game_has_the_same_shape(game_id):
    """engines/<id>/: __init__.py making ENGINE from engine.py (engine_of), data.py, and engine.py
    with the rules' gist as its docstring, the metadata and the members as module functions (no
    class of its own, so the compiled build compiles the rules whole); nothing else in the package
    imports engine.py (no cycles)."""
    package = pathlib.Path(engines.__file__).parent / game_id
    assert (package / "data.py").is_file() and (package / "engine.py").is_file()
    module = importlib.import_module(f"engines.{game_id}.engine")
    engine = importlib.import_module(f"engines.{game_id}").ENGINE
    assert engine is engines.get(game_id)
    for name in MEMBERS:
        if hasattr(module, name):
            assert getattr(engine, name) is getattr(module, name), name
    assert not any(isinstance(value, type) and issubclass(value, Engine) for value in vars(module).values())
    source = (package / "engine.py").read_text()
    assert len(ast.get_docstring(ast.parse(source)) or "") > 400, "engine.py's docstring gives the rules' gist"
    for name in ("ID", "TITLE", "TITLE_JA", "MIN_PLAYERS", "MAX_PLAYERS", "VERSION", "OPTIONS"):
        assert hasattr(module, name), name
    assert (module.ID, module.TITLE, module.TITLE_JA, module.MIN_PLAYERS, module.MAX_PLAYERS) == (
        engine.id, engine.title, engine.title_ja, engine.min_players, engine.max_players)
    for path in package.glob("*.py"):
        if path.name in ("__init__.py", "engine.py"):
            continue
        imported = {node.module for node in ast.walk(ast.parse(path.read_text()))
                    if isinstance(node, ast.ImportFrom) and node.module}
        assert f"engines.{game_id}.engine" not in imported, f"{path.name} imports engine.py"


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_random_playouts(game_id):
    engine = engines.get(game_id)
    for num_players in player_counts(engine):
        for i in range(PLAYOUTS_PER_COUNT):
            seed = 1000 * num_players + i
            on_step = _deep_checks(engine, num_players) if i < DEEP_CHECKED else None
            if on_step is None:
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


BAD_SEATS = [True, False, 1.0, "0", "1", [0], -2]


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_seats_must_be_real_ints_in_range(game_id):
    """``True`` is not seat 1 and ``n`` is not a spectator: every function that takes a seat
    refuses anything but an int in range (None only in ``view``, SYSTEM only where the server acts),
    at the start, mid-game and at the end, and changes nothing."""
    engine = engines.get(game_id)
    for num_players in player_counts(engine):
        result = play(engine, num_players, seed=11)
        states = [engine.new_game(num_players, 11), replay(engine, num_players, 11, None, result.log[:len(result.log) // 2]),
                  result.state]
        for state in states:
            before = engine.state_to_json(state)
            awaited = sorted(s for s in engine.awaiting(state) if s >= 0)
            some_action = engine.legal_actions(state, awaited[0])[0] if awaited else {"type": "pass"}
            for bad in [*BAD_SEATS, num_players, num_players + 3]:
                for call in (lambda: engine.view(state, bad), lambda: engine.legal_actions(state, bad),
                             lambda: engine.apply(state, bad, some_action)):
                    with pytest.raises(engines.InvalidAction, match="seat"):
                        call()
                for call in (lambda: engine.clock_seconds(state, bad), lambda: engine.on_timeout(state, bad)):
                    with pytest.raises(engines.InvalidAction, match="seat"):
                        call()
            with pytest.raises(engines.InvalidAction, match="seat"):
                engine.view(state, SYSTEM)
            engine.view(state, None)
            for seat in range(num_players):
                engine.view(state, seat)
                engine.legal_actions(state, seat)
            assert engine.state_to_json(state) == before


def _timeout_step(engine, state, seat):
    """What the runner does when ``seat``'s clock runs out: ``on_timeout`` applied as the seat when
    it is one of the seat's legal actions, otherwise as SYSTEM (a server-only action)."""
    action = engine.on_timeout(state, seat)
    return (seat if action in engine.legal_actions(state, seat) else SYSTEM), action


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_every_awaited_decision_has_a_clock_and_a_legal_timeout(game_id):
    """With default room options every awaited seat has a running clock, and its timeout is
    accepted in every position of random games (some moves are timeouts); a table where nobody
    ever moves (every decision times out) still reaches the end."""
    engine = engines.get(game_id)
    assert type(engine).clock_seconds is not engines.Engine.clock_seconds, "every game has a clock"
    for num_players in player_counts(engine):
        for seed in range(8):
            rng = random.Random(seed)
            nobody_moves = seed % 2 == 0
            state = engine.new_game(num_players, seed)
            for _ in range(50_000):
                awaited = engine.awaiting(state)
                if not awaited:
                    break
                seats = sorted(s for s in awaited if s >= 0)
                for seat in seats:
                    seconds = engine.clock_seconds(state, seat)
                    assert isinstance(seconds, float) and seconds > 0, (seat, seconds)
                    actor, action = _timeout_step(engine, state, seat)
                    engine.apply(state, actor, action)  # accepted (raises otherwise)
                for seat in range(num_players):
                    if seat not in awaited:
                        assert engine.clock_seconds(state, seat) is None
                if SYSTEM in awaited and (not seats or rng.random() < 0.5):
                    state = engine.apply(state, SYSTEM, engine.legal_actions(state, SYSTEM)[0])
                    continue
                seat = rng.choice(seats)
                if nobody_moves or rng.random() < 0.3:
                    state = engine.apply(state, *_timeout_step(engine, state, seat))
                else:
                    state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            else:
                pytest.fail(f"{game_id} seed {seed}: the game did not end")
            assert engine.outcome(state) is not None


# ---------------------------------------------------------------- malformed actions, shared views

def _sample_states(engine, seeds=range(3), every=7):
    """States along seeded random games of every player count: the start, every ``every``-th
    step (some awaiting SYSTEM, some a simultaneous step), and the end."""
    for num_players in sorted({engine.min_players, engine.max_players}):
        for seed in seeds:
            result = play(engine, num_players, seed)
            state = engine.new_game(num_players, seed)
            yield num_players, state
            for index, (seat, action) in enumerate(result.log):
                state = engine.apply(state, seat, action)
                if index % every == every - 1:
                    yield num_players, state
            yield num_players, state


BAD_VALUES = [None, True, [], {}, [[]], [{}], {"a": 1}, [1, 2, 3, 4, 5, 6, 7], "", "no-such", 1.5, -1,
              2**64, -(2**64), 10**100, float("nan")]


def _malformed(legal: list[dict]) -> list:
    """Actions of the wrong shape: not dicts, bad types, and each field of some legal actions
    replaced by values of every wrong kind, removed, or joined by an unknown field."""
    bad = [None, 0, "pass", [], [{"type": "pass"}], (), {}, {"type": None}]
    bad += [{"type": value} for value in BAD_VALUES]
    for action in legal[:6]:
        for key in action:
            for value in BAD_VALUES:
                bad.append({**action, key: value})
            bad.append({k: v for k, v in action.items() if k != key})
        bad.append({**action, "extra": [1]})
    return bad


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_malformed_actions_are_refused_with_the_protocol_errors(game_id):
    """Any action of the wrong shape, from any seat (SYSTEM too) in any state, is refused with
    InvalidAction or IllegalAction (never TypeError, KeyError... which the server would log as an
    engine failure), or, when it happens to be a legal action in other words, accepted; the state
    never changes."""
    engine = engines.get(game_id)
    tried = 0
    for num_players, state in _sample_states(engine):
        before = engine.state_to_json(state)
        awaited = sorted(engine.awaiting(state))
        seats = sorted({*awaited, 0, SYSTEM})
        legal = [a for s in awaited for a in engine.legal_actions(state, s)]
        for seat in seats:
            for action in _malformed(legal):
                tried += 1
                try:
                    engine.apply(state, seat, action)
                except engines.IllegalAction:
                    pass
                except Exception as exc:  # pragma: no cover - the failure this test exists for
                    pytest.fail(f"{game_id}: {action!r} from seat {seat} raised {exc!r}, not InvalidAction/IllegalAction")
        assert engine.state_to_json(state) == before
    assert tried > 1000


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_wrong_types_and_fields_are_invalid_not_merely_illegal(game_id):
    """The first error tier: a wrong kind of value where an action's type or field belongs is
    InvalidAction (the server's 400), whoever sends it."""
    engine = engines.get(game_id)
    for num_players, state in _sample_states(engine, seeds=range(2)):
        awaited = sorted(s for s in engine.awaiting(state) if s >= 0)
        for seat in awaited:
            for value in ([], {}, None, 5, [["x"]]):
                with pytest.raises(engines.InvalidAction):
                    engine.apply(state, seat, {"type": value})
            for action in engine.legal_actions(state, seat)[:4]:
                for key in action:
                    if key == "type":
                        continue
                    for value in ([], {}, {"a": [1]}):
                        with pytest.raises(engines.InvalidAction):
                            engine.apply(state, seat, {**action, key: value})
                with pytest.raises(engines.InvalidAction):
                    engine.apply(state, seat, {**action, "extra": 1})  # an unknown field


def _mutate(value, seen: set) -> None:
    """Change every dict and list inside ``value`` in place (children first)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for item in list(value.values()):
            _mutate(item, seen)
        for key in list(value):
            value[key] = "mutated"
        value["mutated"] = True
    elif isinstance(value, list):
        for item in value:
            _mutate(item, seen)
        value[:] = ["mutated"] * len(value)
        value.append("mutated")
    elif isinstance(value, tuple):
        for item in value:
            _mutate(item, seen)


@pytest.mark.parametrize("game_id", ENGINE_IDS)
def test_a_view_shares_nothing_mutable(game_id):
    """A view handed to a caller is its own: changing every part of one seat's view changes no
    other seat's view (built before or after), nor the state, nor the views built later."""
    engine = engines.get(game_id)
    for num_players, state in _sample_states(engine, seeds=range(2), every=5):
        before = engine.state_to_json(state)
        viewers = [None, *range(num_players)]
        for changed in viewers:
            views = {v: engine.view(state, v) for v in viewers}
            expected = {v: json.dumps(views[v], sort_keys=True) for v in viewers}
            _mutate(views[changed], set())
            for v in viewers:
                if v != changed:
                    assert json.dumps(views[v], sort_keys=True) == expected[v], (game_id, changed, v)
                assert json.dumps(engine.view(state, v), sort_keys=True) == expected[v], (game_id, changed, v)
            assert engine.state_to_json(state) == before


@pytest.mark.parametrize("game_id", [game_id for game_id in ENGINE_IDS
                                     if hasattr(importlib.import_module(f"engines.{game_id}.engine"), "State")])
def test_a_copied_state_has_every_field(game_id):
    """A game's ``State.copy`` names its fields one by one (the compiled build's native classes have
    no ``__slots__`` or ``__dict__`` to copy from): a field added to the class and forgotten there
    would be unset in every copy."""
    source = (pathlib.Path(engines.__file__).parent / game_id / "engine.py").read_text()
    state_class = next(node for node in ast.parse(source).body if isinstance(node, ast.ClassDef) and node.name == "State")
    fields = [node.target.id for node in state_class.body if isinstance(node, ast.AnnAssign)]
    if not fields:  # declared by __slots__ alone
        slots = next(node for node in state_class.body if isinstance(node, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets))
        fields = list(ast.literal_eval(slots.value))
    assert len(fields) > 10
    engine = engines.get(game_id)
    for num_players in player_counts(engine):
        state = engine.new_game(num_players, 1)
        rng = random.Random(1)
        for _ in range(12):  # some way into the match, so the fields hold more than their first values
            awaited = sorted(engine.awaiting(state))
            if not awaited:
                break
            seat = SYSTEM if SYSTEM in awaited else rng.choice(awaited)
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        copied = state.copy()
        assert [getattr(copied, name) for name in fields] == [getattr(state, name) for name in fields]
