"""Match history, replays, exports, leaderboards and player pages through the real server."""

from __future__ import annotations

import json
import random

import pytest

from app import cli
from tests.support.clients import Api
from tests.support.driver import play_over_rest, setup_room
from tests.support.server import ADMIN_TOKEN

pytestmark = pytest.mark.every_database  # tests/conftest.py


def error_code(response) -> str:
    return response.json()["error"]["code"]


def test_finished_match_history_replay_and_export(open_board_server, tmp_path, capsys):
    server = open_board_server  # two guests' first match: on the board only when every rated player is
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    final = play_over_rest({0: host, 1: guest}, room_id, random.Random(2))[-1][1]
    match_id = host.get(f"/api/rooms/{room_id}").json()["match_id"]
    anonymous = Api(server.base_url)

    record = anonymous.get(f"/api/matches/{match_id}").json()
    assert record["game"] == "synomilia" and record["status"] == "finished" and record["options"] == {"reveal_delay": 0}
    assert [s["name"] for s in record["seats"]] == ["Aki", "Ben"]
    assert record["outcome"] == final["outcome"] and record["scores"] == final["outcome"]["scores"]
    assert record["steps"] == final["version"] and record["duration_seconds"] >= 0
    assert record["rated"] and len(record["rating_changes"]) == 2 and "room_id" not in record
    for change in record["rating_changes"]:  # the move of the figure players read ("1500?" → "1523?")
        figures = [int(change[when]["shown"].rstrip("?")) for when in ("before", "after")]
        assert change["shown_delta"] == figures[1] - figures[0] != 0
    assert [s["rank"] for s in record["seats"]] == final["outcome"]["ranks"]

    # Players: ratings, recent matches; /me still answers for the token's owner.
    profile = anonymous.get(f"/api/players/{host.player_id}").json()
    assert profile["name"] == "Aki" and [r["game"] for r in profile["ratings"]] == ["synomilia"]
    assert profile["ratings"][0]["games"] == 1 and profile["ratings"][0]["provisional"] is True
    assert profile["recent_matches"][0]["match_id"] == match_id
    assert record["title"] == "Synomilia" and record["title_ja"] == "シノミリア"
    for lang, title, other in (("en", "Synomilia", "シノミリア"), ("ja", "シノミリア", "Synomilia")):
        chart = anonymous.get(f"/api/players/{host.player_id}/ratings.svg", params={"game": "synomilia", "lang": lang}).text
        assert title in chart and other not in chart  # the rating chart names the game in the page's language
    assert host.get("/api/players/me").json() == {"id": host.player_id, "name": "Aki"}
    listed = anonymous.get(f"/api/players/{guest.player_id}/matches").json()["matches"]
    assert [m["match_id"] for m in listed] == [match_id] and listed[0]["seat"] == 1
    assert error_code(anonymous.get("/api/players/nobody")) == "not_found"
    board = anonymous.get("/api/games/synomilia/leaderboard").json()
    assert {e["player_id"] for e in board["entries"]} == {host.player_id, guest.player_id}
    ratings = [e["rating"] for e in board["entries"]]
    assert ratings == sorted(ratings, reverse=True)
    assert all(set(e) >= {"player_id", "name", "rating", "mu", "sigma", "games", "provisional"} for e in board["entries"])
    assert anonymous.get("/api/games/nope/leaderboard").status_code == 404

    # Replays of a finished match: spectator, any seat, or everything, for anyone (after the end, everything).
    first = anonymous.get(f"/api/matches/{match_id}/replay", params={"step": 0}).json()
    assert first["step"] == 0 and first["steps"] == record["steps"] and first["seat"] is None and first["last_action"] is None
    mine = host.get(f"/api/matches/{match_id}/replay", params={"seat": 0, "step": 1}).json()
    assert mine["seat"] == 0 and mine["view"]
    if mine["last_action"]["seat"] == 0:
        assert "action" in mine["last_action"]
    theirs = guest.get(f"/api/matches/{match_id}/replay", params={"seat": 1, "step": 1}).json()
    if theirs["last_action"]["seat"] == 1:
        assert "card" in theirs["last_action"]["action"]
    else:  # the other seat's prediction, as the table showed it: made, its card face down
        assert theirs["last_action"]["action"] == {"type": "predict"} and theirs["last_action"]["public_part"]
    last = host.get(f"/api/matches/{match_id}/replay").json()
    assert last["step"] == record["steps"] and last["outcome"] == final["outcome"]
    assert host.get(f"/api/matches/{match_id}/replay", params={"seat": 1}).json()["seat"] == 1
    assert anonymous.get(f"/api/matches/{match_id}/replay", params={"seat": 0}).json()["seat"] == 0
    everything = anonymous.get(f"/api/matches/{match_id}/replay", params={"seat": "all", "step": 1}).json()
    assert len(everything["views"]) == 2 and everything["state"] and "action" in everything["last_action"]
    for bad in ({"step": record["steps"] + 1}, {"step": -1}):
        response = host.get(f"/api/matches/{match_id}/replay", params=bad)
        assert response.status_code == 422 and error_code(response) == "bad_step"
    assert error_code(host.get(f"/api/matches/{match_id}/replay", params={"seat": 7})) == "bad_seat"
    assert host.get("/api/matches/0123456789abcdef/replay").status_code == 404
    assert error_code(host.get("/api/matches/0123456789abcdef")) == "not_found"

    # Export: self-contained, replayed offline by the command.
    exported = anonymous.get(f"/api/matches/{match_id}/export").json()
    assert exported["format_version"] == 1 and exported["seed"] and exported["game"] == "synomilia"
    assert len(exported["actions"]) == record["steps"] and all(a["at"] for a in exported["actions"])
    path = tmp_path / "match.json"
    path.write_text(json.dumps(exported))
    assert cli.main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["outcome"] == final["outcome"] and printed["state_matches"]
    path.write_text(json.dumps(dict(exported, actions=exported["actions"][:-1])))
    assert cli.main(["replay", str(path)]) == 1
    path.write_text("{}")
    assert cli.main(["replay", str(path)]) == 2

    # Admin list: only with the admin token.
    assert error_code(anonymous.get("/api/admin/matches")) == "not_admin"
    assert error_code(host.get("/api/admin/matches")) == "not_admin"
    admin = Api(server.base_url, ADMIN_TOKEN)
    listing = admin.get("/api/admin/matches").json()
    assert [m["id"] for m in listing["matches"]] == [match_id] and listing["matches"][0]["room_id"] == room_id
    assert admin.get(f"/api/matches/{match_id}").json()["room_id"] == room_id
