"""Guest alts cannot climb a leaderboard (docs/decisions/2026-12-07-leaderboard-eligibility.md).

The attack: from one address, a fresh guest plays rated Synomilia matches against guests made for
the purpose, each resigning at once (a few requests per match): the fresh guest's rating climbs
and it used to top the game's leaderboard within minutes. A leaderboard lists only claimed
accounts that met at least ``LEADERBOARD_MIN_OPPONENTS`` (default 5) distinct claimed accounts in
rated matches of the game; the guest keeps its rating on its own page.
"""

from __future__ import annotations

import httpx

from tests.support.clients import Api

PASSWORD = "correct horse battery staple"


def resigned_match(winner: Api, loser: Api) -> None:
    """A rated Synomilia match at the loser's table, decided by the loser's resign."""
    room_id = loser.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    assert winner.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert loser.post(f"/api/rooms/{room_id}/start").status_code == 200
    view = loser.get(f"/api/rooms/{room_id}/view").json()
    answer = loser.post(f"/api/rooms/{room_id}/actions", {"action": {"platform": "resign"}, "version": view["version"]})
    assert answer.status_code == 200, answer.text


def claim(api: Api) -> Api:
    answer = api.post("/api/accounts", {"password": PASSWORD})
    assert answer.status_code == 201, answer.text
    api.token = answer.json()["token"]  # the guest token is retired: the session's from now on
    return api


def board(server) -> list[dict]:
    return httpx.get(f"{server.base_url}/api/games/synomilia/leaderboard").json()["entries"]


def test_a_guest_fed_by_guest_alts_never_reaches_the_leaderboard(server):
    ace = Api.new_player(server.base_url, "Ace")
    for i in range(12):
        resigned_match(ace, Api.new_player(server.base_url, f"Alt{i}"))
    rating = httpx.get(f"{server.base_url}/api/players/{ace.player_id}").json()["ratings"]
    assert rating and rating[0]["games"] == 12  # rated: its own page shows it
    assert ace.player_id not in {e["player_id"] for e in board(server)}
    # claiming the name afterwards does not help: the alts are guests, none counts as an opponent
    claim(ace)
    assert ace.player_id not in {e["player_id"] for e in board(server)}


def test_a_claimed_player_who_met_five_claimed_players_is_listed(server):
    """The rule lets real players in: five distinct claimed opponents (each met once) list a
    claimed player; each of them, having met one, is not listed yet."""
    hana = claim(Api.new_player(server.base_url, "Hana"))
    rivals = [claim(Api.new_player(server.base_url, f"Rival{i}")) for i in range(5)]
    for rival in rivals[:4]:
        resigned_match(hana, rival)
    assert board(server) == []
    resigned_match(hana, rivals[4])
    entries = board(server)
    assert [e["player_id"] for e in entries] == [hana.player_id]
