"""Platform actions (app/endings) in the action log replay exactly, without a server: a vote cast
before the latest snapshot is still open when a match resumes from that snapshot (it is folded
from the log, the snapshot holds only the engine's state), and an early end replays to the
outcome it recorded, in the replay steps and the export."""

from __future__ import annotations

import random

import pytest

import engines
from app import history, store
from app.endings import actions as platform
from app.models import Match
from tests.history.helpers import make_players, play, session_factory_for, start

pytestmark = pytest.mark.every_database  # tests/conftest.py


@pytest.fixture
def factory(database_url):
    engine, factory = session_factory_for(database_url)
    yield factory
    engine.dispose()


def test_a_vote_before_the_snapshot_survives_a_resume_and_the_end_replays(factory):
    players = make_players(factory, ["Aki", "Ben"])
    match_id = start(factory, "peribit", players)
    engine = engines.get("peribit")
    vote = {"platform": "vote", "kind": "abort", "seat": 1}
    with factory() as session:
        state = engine.state_from_json(session.get(Match, match_id).state)
    store.record_action(factory, match_id, 0, platform.PLATFORM, vote, engine.state_to_json(state), None)
    play(factory, match_id, random.Random(4), max_steps=5)  # engine moves after it, a later snapshot
    with factory() as session:
        snapshot_version = session.get(Match, match_id).version
        resumed = store.load_match(session, match_id)
    assert snapshot_version > 1  # the vote (version 0 -> 1) is before the snapshot
    assert resumed.table.abort_votes == {1} and resumed.table.ended is None
    seats = platform.Seats(2, None)
    end = platform.decide(resumed.table, 0, {"platform": "abort"}, seats)
    assert end["platform"] == "end" and end["outcome"]["ending"] == "aborted"
    store.record_action(factory, match_id, resumed.version, platform.PLATFORM, end,
                        engine.state_to_json(resumed.state), end["outcome"])
    with factory() as session:
        match = session.get(Match, match_id)
        assert match.status == "aborted" and match.ending == "aborted" and match.outcome == end["outcome"]
        export = history.export_record(session, match)
        last = history.replay_step(session, match, "all", None)
        before_end = history.replay_step(session, match, None, resumed.version)
    replayed = history.replay_export(export)
    assert replayed["outcome_matches"] and replayed["state_matches"]
    assert last["outcome"] == end["outcome"] and last["awaiting"] == []
    assert before_end["outcome"] is None and before_end["awaiting"]
