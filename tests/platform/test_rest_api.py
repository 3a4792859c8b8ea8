"""The REST API alone: a whole match through GET view / POST actions, and every kind of bad
input answered with a clear 4xx error that changes nothing."""

from __future__ import annotations

import random

import engines
from tests.support.clients import Api
from tests.support.driver import play_over_rest, setup_room, states_by_version, stored_match

ENGINE = engines.get("synomilia")


def test_whole_match_over_rest_only(server, database_url):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    seen = play_over_rest({0: host, 1: guest}, room_id, random.Random(11))
    room = host.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "finished"
    match, log = stored_match(database_url, room["match_id"])
    states = states_by_version(match, log)
    for seat, message in seen:
        assert message["view"] == ENGINE.view(states[message["version"]], seat)
        assert message["view"]["my_prediction"] == ENGINE.state_to_json(states[message["version"]])["predictions"][seat] \
            or message["view"]["phase"] not in ("predict", "play")
    spectator = Api(server.base_url).get(f"/api/rooms/{room_id}/view").json()
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    assert spectator["view"] == ENGINE.view(states[-1], None)


def test_catalog_lists_games_with_options(server):
    games = {g["id"]: g for g in Api(server.base_url).get("/api/games").json()}
    assert games["synomilia"]["min_players"] == games["synomilia"]["max_players"] == 2
    assert any(o["name"] == "reveal_delay" and o["default"] == 3 for o in games["synomilia"]["options"])


def test_room_ids_are_long_random_secrets(server):
    host = Api.new_player(server.base_url, "Aki")
    ids = {host.post("/api/rooms", {"game": "synomilia"}).json()["id"] for _ in range(3)}
    assert len(ids) == 3 and all(len(i) >= 32 for i in ids)  # 24 random bytes, base64url


def error(response, status, code):
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text
    assert response.json()["error"]["message"]


def test_bad_input_gets_clear_errors_and_changes_nothing(server):
    base = server.base_url
    room_id, (host, guest) = setup_room(base, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    outsider = Api.new_player(base, "Cho")
    anonymous = Api(base)

    error(Api(base, "not-a-token").get(f"/api/rooms/{room_id}/view"), 401, "bad_token")
    error(anonymous.post("/api/rooms", {"game": "synomilia"}), 401, "bad_token")
    error(host.post("/api/rooms", {"game": "chess"}), 422, "unknown_game")
    error(host.post("/api/rooms", {"game": "synomilia", "seats": 3}), 422, "bad_seats")
    error(host.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": "soon"}}), 422, "bad_options")
    error(host.post("/api/players", {"name": ""}), 422, "invalid_request")
    error(host.get("/api/rooms/no-such-room"), 404, "not_found")
    error(guest.post(f"/api/rooms/{room_id}/start"), 403, "not_host")
    error(outsider.post(f"/api/rooms/{room_id}/join"), 409, "seat_taken")
    error(host.get(f"/api/rooms/{room_id}/view"), 409, "not_started")
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    error(host.post(f"/api/rooms/{room_id}/start"), 409, "room_not_open")

    before = host.get(f"/api/rooms/{room_id}/view").json()
    version = before["version"]
    url = f"/api/rooms/{room_id}/actions"
    error(outsider.post(url, {"action": {"type": "pass"}, "version": version}), 403, "not_seated")
    error(host.post(url, {"action": {"type": "pass"}, "version": version}), 422, "illegal_action")
    error(host.post(url, {"action": {"type": "fly"}, "version": version}), 400, "invalid_action")
    error(host.post(url, {"action": {"type": "predict", "card": 1}, "version": version + 5}), 409, "stale_version")
    error(host.post(url, {"action": "pass", "version": version}), 422, "invalid_request")
    error(host.post(url, {"version": version}), 422, "invalid_request")
    response = host.http.post(url, content=b"{not json", headers={"Authorization": f"Bearer {host.token}", "Content-Type": "application/json"})
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
    huge = {"action": {"type": "predict", "card": 1, "junk": "x" * 50_000}, "version": version}
    error(host.post(url, huge), 413, "too_large")
    # the host predicts; a second prediction is not the host's to make now
    assert host.post(url, {"action": {"type": "predict", "card": 4}, "version": version}).status_code == 200
    error(host.post(url, {"action": {"type": "predict", "card": 5}, "version": version + 1}), 409, "not_your_turn")

    after = guest.get(f"/api/rooms/{room_id}/view").json()
    assert after["version"] == version + 1
    assert after["view"]["my_prediction"] is None and after["view"]["predicted"] == [True, False]


def test_concurrent_joins_and_starts_are_applied_one_at_a_time(server):
    """Many players race for one free seat, and the host double-clicks start: one join wins, one
    match is created; everybody else gets a clear refusal. (This holds because seat and status
    changes run on the event loop with no await between their read and their commit; a change that
    moves them to threads needs a per-room lock, and this test is what would catch it.)"""
    from concurrent.futures import ThreadPoolExecutor

    host = Api.new_player(server.base_url, "Host")
    room_id = host.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    racers = [Api.new_player(server.base_url, f"R{i}") for i in range(8)]
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda api: api.post(f"/api/rooms/{room_id}/join", {"seat": 1}).status_code, racers))
    assert sorted(codes) == [200] + [409] * 7
    seated = host.get(f"/api/rooms/{room_id}").json()["seats"][1]["player_id"]
    assert seated == racers[codes.index(200)].player_id
    with ThreadPoolExecutor(4) as pool:
        starts = list(pool.map(lambda _: host.post(f"/api/rooms/{room_id}/start").status_code, range(4)))
    assert sorted(starts) == [200, 409, 409, 409]
