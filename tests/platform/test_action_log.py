"""The action log is the record: one row per accepted action, a snapshot of the state only every
``snapshot_every`` actions and at the end, and resuming = latest snapshot + the actions after it,
which reproduces exactly the state a replay of the whole log gives, at every version."""

from __future__ import annotations

import random
import time
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

import engines
from app import store
from tests.support.driver import play_over_rest, play_steps_over_rest, setup_room, states_by_version, stored_match
from tests.support.server import start_in_thread

pytestmark = pytest.mark.every_database  # tests/conftest.py

ENGINE = engines.get("synomilia")


@contextmanager
def started_match(database_url, snapshot_every):
    """A server taking snapshots every ``snapshot_every`` actions and a started Synomilia match."""
    server = start_in_thread(database_url, snapshot_every=snapshot_every)
    try:
        room_id, apis = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
        assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
        yield room_id, apis, apis[0].get(f"/api/rooms/{room_id}").json()["match_id"]
    finally:
        server.stop()


def settled_version(api, room_id) -> int:
    """The version once the automatic steps (reveals without delay) that follow an action are done."""
    for _ in range(200):
        view = api.get(f"/api/rooms/{room_id}/view").json()
        if -1 not in view["awaiting"]:
            return view["version"]
        time.sleep(0.02)
    raise AssertionError("the automatic step never came")


def resumed_state(database_url, match_id):
    db = create_engine(database_url)
    with Session(db) as session:
        info = store.load_match(session, match_id)
    db.dispose()
    return info.version, ENGINE.state_to_json(info.state)


def test_snapshots_every_n_actions_and_at_the_end(database_url):
    with started_match(database_url, 5) as (room_id, apis, match_id):
        rng = random.Random(3)
        play_steps_over_rest(apis, room_id, rng, 13)
        version = settled_version(apis[0], room_id)
        match, log = stored_match(database_url, match_id)
        assert len(log) == version > 5  # one row per action, nothing else
        assert match.version == version - version % 5  # the latest snapshot, not rewritten per action
        states = states_by_version(match, log)
        assert match.state == ENGINE.state_to_json(states[match.version])
        assert resumed_state(database_url, match_id) == (version, ENGINE.state_to_json(states[-1]))

        play_over_rest({0: apis[0], 1: apis[1]}, room_id, rng)
        match, log = stored_match(database_url, match_id)
        assert match.status == "finished" and match.version == len(log)
        assert match.state == ENGINE.state_to_json(states_by_version(match, log)[-1])


def test_every_version_resumes_to_the_replayed_state(database_url):
    """Whatever version the snapshot is at, snapshot + later actions == replay from the seed."""
    with started_match(database_url, 3) as (room_id, apis, match_id):
        rng = random.Random(11)
        for _ in range(7):
            play_steps_over_rest(apis, room_id, rng, 1)
            settled_version(apis[0], room_id)
            match, log = stored_match(database_url, match_id)
            assert match.version == len(log) - len(log) % 3
            assert resumed_state(database_url, match_id) == (len(log), ENGINE.state_to_json(states_by_version(match, log)[-1]))


def test_a_reveal_without_delay_is_committed_with_the_action_that_made_it_due(database_url):
    """The SYSTEM reveal that an action makes due at once (``reveal_delay`` 0) is applied and
    committed with that action: the answer to the action is already past the reveal, and the log
    holds both, each its own version, exactly what a replay from the seed gives."""
    with started_match(database_url, 4) as (room_id, apis, match_id):
        rng, reveals = random.Random(5), 0
        for _ in range(60):
            view = next(v for v in (api.get(f"/api/rooms/{room_id}/view").json() for api in apis) if v["legal_actions"])
            api = apis[view["seat"]]
            answer = api.post(f"/api/rooms/{room_id}/actions",
                              {"action": rng.choice(view["legal_actions"]), "version": view["version"]}).json()
            assert -1 not in answer["awaiting"]  # never left waiting for the reveal
            match, log = stored_match(database_url, match_id)
            assert len(log) == answer["version"]  # committed before the answer, nothing after it
            steps = answer["version"] - view["version"]
            assert [seat for seat, _ in log[view["version"]:]] == [view["seat"]] + [-1] * (steps - 1)
            reveals += steps - 1
            if answer["outcome"] is not None:
                break
        assert reveals >= 1
        states = states_by_version(match, log)
        assert resumed_state(database_url, match_id) == (len(log), ENGINE.state_to_json(states[-1]))
