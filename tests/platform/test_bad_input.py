"""Inputs found by fuzzing, and their kin: every query and body field is bounded, ids and seat
numbers are what they claim to be, and text the database cannot store is refused with a clear
4xx error that changes nothing (never a 500), over REST and over the socket."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.support.server import ADMIN_TOKEN
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room

pytestmark = pytest.mark.every_database  # tests/conftest.py


def error_code(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]["code"]


def test_huge_query_numbers_are_refused(server):
    player = Api.new_player(server.base_url, "Aki")
    huge = "1058382614470932811687783301120"
    for path in (f"/api/players/{player.player_id}/matches?offset={huge}",
                 f"/api/players/{player.player_id}/matches?limit={huge}",
                 f"/api/games/synomilia/leaderboard?limit={huge}",
                 f"/api/matches/{'0' * 32}/replay?step={huge}"):
        assert error_code(player.get(path), 422) == "invalid_request", path


def test_control_characters_in_paths_and_queries(server):
    player = Api.new_player(server.base_url, "Aki")
    for path in ("/api/rooms/abc%00def", "/api/players/%00", f"/api/players/{player.player_id}/matches?game=a%00b",
                 "/api/matches/x%0Ay"):
        assert error_code(player.get(path), 400) == "malformed", path
    assert error_code(player.get("/api/rooms/" + "x" * 65), 422) == "invalid_request"
    assert error_code(player.get("/api/rooms/not.an.id"), 422) == "invalid_request"


@pytest.mark.parametrize("name", ["nul\x00name", "tab\there", "bell\x07", "", "x" * 41])
def test_player_names_without_control_characters(server, name):
    response = httpx.post(f"{server.base_url}/api/players", json={"name": name})
    assert error_code(response, 422) == "invalid_request"


def test_seat_numbers_are_real_ints_in_range(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    assert host.post(f"/api/rooms/{room_id}/leave").status_code == 200
    for seat in (True, 0.0, "0", 10**30, -1):
        assert error_code(host.post(f"/api/rooms/{room_id}/join", {"seat": seat}), 422) == "invalid_request", seat
        assert error_code(host.post(f"/api/rooms/{room_id}/bots", {"seat": seat}), 422) == "invalid_request", seat
    assert error_code(host.http.delete(f"/api/rooms/{room_id}/bots/{10**30}", headers=host._headers()),
                      422) == "invalid_request"
    assert all(s["player_id"] != host.player_id for s in host.get(f"/api/rooms/{room_id}").json()["seats"])
    for seats in (True, 10**30, 0):
        body = {"game": "synomilia", "seats": seats}
        assert error_code(host.post("/api/rooms", body), 422) == "invalid_request", seats


def test_replay_seat_must_be_ascii_digits(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    match_id = host.get(f"/api/rooms/{room_id}").json()["match_id"]
    admin = Api(server.base_url, ADMIN_TOKEN)
    assert error_code(admin.get(f"/api/matches/{match_id}/replay?seat=%C2%B2"), 422) == "bad_seat"  # '²'


def test_json_the_database_cannot_store_is_refused_over_rest(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    raw = {"Authorization": f"Bearer {host.token}", "Content-Type": "application/json"}
    # (a lone surrogate, as a value and as a key: no UTF-8 for the database, a log line or a push)
    bad_values = ['"a\\u0000b"', "NaN", "Infinity", str(2**64), "[" * 40 + "]" * 40, '"\\ud800"',
                  '{"\\udc00x": 1}']
    for value in bad_values:
        body = '{"game": "synomilia", "seats": 2, "options": {"x": %s}}' % value
        assert error_code(httpx.post(f"{server.base_url}/api/rooms", content=body, headers=raw), 422) == "invalid_request"
        body = '{"notes": %s}' % value
        assert error_code(httpx.put(f"{server.base_url}/api/rooms/{room_id}/seat-data", content=body, headers=raw),
                          422) == "invalid_request"
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    view = host.get(f"/api/rooms/{room_id}/view").json()
    for value in bad_values:
        body = '{"action": {"type": "predict", "card": 3, "note": %s}, "version": %d}' % (value, view["version"])
        assert error_code(httpx.post(f"{server.base_url}/api/rooms/{room_id}/actions", content=body, headers=raw),
                          422) == "invalid_request"
    for version in ("true", str(2**64), "-1", "1.5"):
        body = '{"action": {"type": "predict", "card": 3}, "version": %s}' % version
        assert error_code(httpx.post(f"{server.base_url}/api/rooms/{room_id}/actions", content=body, headers=raw),
                          422) == "invalid_request"
    assert host.get(f"/api/rooms/{room_id}/view").json()["version"] == view["version"]


def test_json_the_database_cannot_store_is_refused_over_the_socket(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    version = sock.latest_view()["version"]
    for action in ({"type": "predict", "card": 3, "note": "a\x00b"}, {"type": "predict", "card": 2**70}):
        sock.send({"type": "action", "action": action, "version": version})
        assert sock.recv_until(lambda m: m["type"] == "error")["code"] == "invalid_action"
    sock.send('{"type": "action", "action": {"type": "predict", "card": NaN}, "version": %d}' % version)
    assert sock.recv_until(lambda m: m["type"] == "error")["code"] == "invalid_action"
    sock.send({"type": "action", "action": {"type": "predict", "card": 3}, "version": True})
    assert sock.recv_until(lambda m: m["type"] == "error")["code"] == "malformed"
    sock.send({"type": "chat", "text": "nul\x00inside"})
    assert sock.recv_until(lambda m: m["type"] == "error")["code"] == "malformed"
    # lone surrogates (text with no character) in a chat line, an action, a key and a message's id:
    # a clear error each, the socket open (they once crashed its handler: a traceback, close 1000)
    for frame in ('{"type": "chat", "text": "hi \\ud800"}',
                  '{"type": "action", "action": {"type": "predict", "card": 3, "x": "\\udfff"}, "version": %d}' % version,
                  '{"type": "action", "action": {"type": "predict", "card": 3, "\\ud800": 1}, "version": %d}' % version,
                  '{"type": "ping", "id": "\\ud800"}'):
        sock.send(frame)
        error = sock.recv_until(lambda m: m["type"] == "error")
        assert error["code"] == "malformed" and "surrogate" in error["message"] and "ref" not in error, frame
    sock.send('{"type": "chat", "text": "a pair is a character: \\ud83d\\ude00"}')  # (an emoji: taken)
    sock.send({"type": "action", "action": {"type": "predict", "card": 3}, "version": version})  # still alive
    assert sock.latest_view(version=version + 1)["version"] == version + 1
    assert json.dumps(host.get(f"/api/rooms/{room_id}/view").json())  # and the REST view still works


@pytest.mark.parametrize("game, bad_actions", [
    ("mipolin", [{"type": []}, {"type": {}}, {"type": "reveal", "card": []}, {"type": "bid", "level": {}}]),
    ("peribit", [{"type": [1]}, {"type": "place", "lane": 0, "mark": []}, {"type": "no_exchange", "x": 1}]),
    ("makelandia", [{"type": {}}, {"type": "reinforce", "to": 1, "card": []}]),
])
def test_malformed_actions_get_400_and_change_nothing(server, game, bad_actions):
    """A malformed action from the awaited seat is the engine's InvalidAction: 400 invalid_action
    (never the 422 a failing engine would get), and the match stays at its version."""
    names = ["Aki", "Ben", "Cho", "Dan"][:{"mipolin": 3, "peribit": 2, "makelandia": 4}[game]]
    room_id, apis = setup_room(server.base_url, game, names)
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    message = apis[0].get(f"/api/rooms/{room_id}/view").json()
    seat = min(s for s in message["awaiting"] if s >= 0)
    player = apis[seat]
    for action in bad_actions:
        response = player.post(f"/api/rooms/{room_id}/actions", {"action": action, "version": message["version"]})
        assert error_code(response, 400) == "invalid_action", action
    assert player.get(f"/api/rooms/{room_id}/view").json()["version"] == message["version"]


def test_a_password_with_a_lone_surrogate_is_refused_not_a_500(server):
    """A password is hashed as UTF-8: one holding a lone surrogate ("\\ud800") is a 422, on the
    claim, the log-in (no token needed: anyone could have filled the log with 500s) and the change."""
    player = Api.new_player(server.base_url, "Aki")
    raw = {"Content-Type": "application/json"}
    bad = '"abcdefgh\\ud800ijk"'
    for path, body, token in (("/api/accounts", '{"password": %s}' % bad, player.token),
                              ("/api/accounts/login", '{"name": "Aki", "password": %s}' % bad, None),
                              ("/api/accounts/password",
                               '{"current_password": %s, "new_password": "correct horse"}' % bad, player.token)):
        headers = {**raw, **({"Authorization": f"Bearer {token}"} if token else {})}
        assert error_code(httpx.post(f"{server.base_url}{path}", content=body, headers=headers), 422) == "invalid_request", path
