"""``python -m app.cli copy-database``: a played SQLite instance copied into an empty database
(PostgreSQL when configured, another SQLite file always) serves the same leaderboards, player
pages, match records, replays and exports, and keeps taking new rows."""

from __future__ import annotations

import random
import subprocess
import sys

import httpx
import pytest
from sqlalchemy import func, select

import engines
from app.database_copy import CopyRefused, copy_database
from app.models import ChatMessage, Match, MatchAction
from app.settings import ROOT
from tests.history.helpers import make_players, play, play_match, session_factory_for, start
from tests.support.databases import KINDS, fresh_database
from tests.support.server import ADMIN_TOKEN, start_in_thread

pytestmark = pytest.mark.every_database  # tests/conftest.py

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def played_instance(url: str) -> dict:
    """Players, finished matches of every game (rated ones too), one match still running, chat."""
    engine, factory = session_factory_for(url)
    rng = random.Random(19)
    humans = make_players(factory, ["Aki", "Ben", "Chie", "Dai", "Emi", "Fuu"])
    bots = make_players(factory, ["Bot"], bot=True)
    finished = []
    for game in engines.ids():
        seats = max(engines.get(game).min_players, 2)
        for round_ in range(2):
            players = (humans[round_:] + humans[:round_])[:seats]
            finished.append(play_match(factory, game, players, rng))
        finished.append(play_match(factory, game, [bots[0]] + humans[:seats - 1], rng))
    running = start(factory, engines.ids()[0], humans[:2])
    play(factory, running, rng, max_steps=3)
    with factory() as session, session.begin():
        room_id = session.get(Match, running).room_id
        session.add_all([ChatMessage(room_id=room_id, player_id=humans[0], text="よろしく"),
                         ChatMessage(room_id=room_id, player_id=humans[1], text="gg", channel="room")])
    engine.dispose()
    return {"players": humans + bots, "finished": finished, "running": running}


def observed(url: str, instance: dict) -> dict:
    """Everything a player or an admin can read about the instance, through the real server."""
    server = start_in_thread(url, leaderboard_min_opponents=0)  # the instance's players are guests
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as http:
            seen = {}
            for game in engines.ids():
                seen[f"leaderboard {game}"] = http.get(f"/api/games/{game}/leaderboard").json()
            for player in instance["players"]:
                seen[f"player {player}"] = http.get(f"/api/players/{player}").json()
                seen[f"player matches {player}"] = http.get(f"/api/players/{player}/matches").json()
            for match in instance["finished"] + [instance["running"]]:
                record = http.get(f"/api/admin/matches/{match}", headers=ADMIN).json()
                seen[f"match {match}"] = record
                export = http.get(f"/api/matches/{match}/export", headers=ADMIN).json()
                export.pop("exported_at")  # the one field that is about the request, not the match
                seen[f"export {match}"] = export
                for step in (0, 1, None):
                    query = {} if step is None else {"step": step}
                    seen[f"replay {match} {step}"] = http.get(f"/api/admin/matches/{match}/replay",
                                                              params=dict(query, seat="all"), headers=ADMIN).json()
            seen["admin list"] = http.get("/api/admin/matches", headers=ADMIN, params={"limit": 500}).json()
            return seen
    finally:
        server.stop()


@pytest.mark.parametrize("target_kind", KINDS)
def test_copy_round_trips_a_played_instance(tmp_path, target_kind):
    source = f"sqlite:///{tmp_path / 'source.db'}"
    instance = played_instance(source)
    before = observed(source, instance)
    assert all(before[f"leaderboard {game}"]["entries"] for game in engines.ids())  # rated matches were played
    (tmp_path / "target").mkdir()
    with fresh_database(target_kind, tmp_path / "target") as target:
        result = subprocess.run([sys.executable, "-m", "app.cli", "copy-database", "--from", source, "--to", target],
                                cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert "match_actions" in result.stdout and "player_ratings" in result.stdout
        after = observed(target, instance)
        assert after.keys() == before.keys()
        for key in before:
            assert after[key] == before[key], key

        # The copy keeps working: new players, matches and actions get fresh ids (sequences moved on).
        engine, factory = session_factory_for(target)
        with factory() as session:
            actions_before = session.scalar(select(func.count()).select_from(MatchAction))
        newcomers = make_players(factory, ["Gin", "Hana"])
        play_match(factory, engines.ids()[0], newcomers, random.Random(1))
        with factory() as session:
            assert session.scalar(select(func.count()).select_from(MatchAction)) > actions_before
        engine.dispose()

        # A second copy into the now non-empty target is refused and changes nothing.
        with pytest.raises(CopyRefused, match="not empty"):
            copy_database(source, target)
