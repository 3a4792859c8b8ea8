"""Accounts: a guest with a rating claims their name, logs out, logs in on another device and is
the same player (rating and history intact); sessions expire and can be revoked; bad input changes
nothing; passwords never appear in logs or answers."""

from __future__ import annotations

import asyncio
import logging
import random

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.clients import Api, Socket
from tests.support.driver import play_over_rest, setup_room
from tests.support.server import start_in_thread

pytestmark = pytest.mark.every_database  # tests/conftest.py

PASSWORD = "sesame-Ｐ4ss-ひみつ"


def rated_guest(server) -> Api:
    room_id, (aki, ben) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    aki.post(f"/api/rooms/{room_id}/start")
    play_over_rest({0: aki, 1: ben}, room_id, random.Random(1))
    return aki


def test_claim_log_out_log_in_elsewhere_keeps_rating_and_history(server, caplog):
    caplog.set_level(logging.DEBUG)
    aki = rated_guest(server)
    profile = aki.get(f"/api/players/{aki.player_id}").json()
    assert profile["ratings"] and profile["recent_matches"]
    guest_token = aki.token

    claimed = aki.post("/api/accounts", {"password": PASSWORD})
    assert claimed.status_code == 201, claimed.text
    body = claimed.json()
    assert body["id"] == aki.player_id and body["name"] == "Aki" and body["token"] != guest_token
    assert Api(server.base_url, guest_token).get("/api/players/me").status_code == 401  # guest token retired
    phone = Api(server.base_url, body["token"])
    assert phone.get("/api/players/me").json()["id"] == aki.player_id
    assert phone.post("/api/accounts", {"password": PASSWORD}).json()["error"]["code"] == "already_claimed"

    assert phone.post("/api/accounts/logout").json() == {"revoked": 1}
    assert phone.get("/api/players/me").status_code == 401

    # another device: log in by name (any case, full-width letters too)
    laptop = Api(server.base_url)
    login = laptop.post("/api/accounts/login", {"name": "ＡＫＩ", "password": PASSWORD})
    assert login.status_code == 200, login.text
    laptop.token = login.json()["token"]
    assert laptop.get("/api/players/me").json() == {"id": aki.player_id, "name": "Aki"}
    again = laptop.get(f"/api/players/{aki.player_id}").json()
    assert again["ratings"] == profile["ratings"] and again["recent_matches"] == profile["recent_matches"]
    me = laptop.get("/api/accounts/me").json()
    assert me["claimed"] and [s["current"] for s in me["sessions"]] == [True]

    # wrong password and unknown name get the same answer; nothing opened
    wrong = Api(server.base_url).post("/api/accounts/login", {"name": "Aki", "password": "not-it-at-all"})
    unknown = Api(server.base_url).post("/api/accounts/login", {"name": "Nobody", "password": "not-it-at-all"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert len(laptop.get("/api/accounts/me").json()["sessions"]) == 1
    # a new guest cannot take the claimed name; short passwords are refused without being echoed
    assert Api(server.base_url).post("/api/players", {"name": "aki"}).json()["error"]["code"] == "name_claimed"
    cho = Api.new_player(server.base_url, "Cho")
    short = cho.post("/api/accounts", {"password": "abc1234"})
    assert short.status_code == 422 and "abc1234" not in short.text
    taken = cho.post("/api/accounts", {"password": PASSWORD, "name": "AKI"})
    assert taken.json()["error"]["code"] == "name_taken"
    assert cho.get("/api/accounts/me").json()["claimed"] is False
    nul = cho.post("/api/accounts", {"password": PASSWORD, "name": "Ch\u0000o"})
    assert nul.status_code == 422 and cho.get("/api/accounts/me").json()["claimed"] is False
    assert Api(server.base_url).post("/api/accounts/login", {"name": "A\u0000ki", "password": PASSWORD}).status_code == 422

    everything = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert PASSWORD not in everything and "abc1234" not in everything


def test_sessions_can_be_revoked_from_another_device(server):
    aki = Api.new_player(server.base_url, "Aki")
    phone = Api(server.base_url, aki.post("/api/accounts", {"password": PASSWORD}).json()["token"])
    laptop = Api(server.base_url, Api(server.base_url).post("/api/accounts/login", {"name": "Aki", "password": PASSWORD}).json()["token"])
    sessions = laptop.get("/api/accounts/me").json()["sessions"]
    assert len(sessions) == 2
    lost = next(s for s in sessions if not s["current"])
    assert laptop.http.delete(f"/api/accounts/sessions/{lost['id']}", headers=laptop._headers()).json() == {"revoked": 1}
    assert phone.get("/api/players/me").status_code == 401
    assert laptop.get("/api/players/me").status_code == 200
    assert laptop.http.delete("/api/accounts/sessions/nope", headers=laptop._headers()).status_code == 404
    # a session token opens the live socket as that player; once revoked it is refused (1008)
    room_id = laptop.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    sock = Socket(server.ws_url, room_id, token=laptop.token)
    room = sock.recv_until(lambda m: m["type"] == "room")["room"]
    assert room["seats"][0]["connected"] and room["seats"][0]["player_id"] == aki.player_id
    sock.close()
    assert laptop.post("/api/accounts/logout-all").json() == {"revoked": 1}
    assert laptop.get("/api/players/me").status_code == 401
    sock = Socket(server.ws_url, room_id, token=laptop.token)
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            sock.recv(timeout=5)
    assert closed.value.rcvd.code == 1008


def test_sessions_expire(database_url):
    running = start_in_thread(database_url, session_days=0)
    try:
        aki = Api.new_player(running.base_url, "Aki")
        token = aki.post("/api/accounts", {"password": PASSWORD}).json()["token"]
        response = Api(running.base_url, token).get("/api/players/me")
        assert response.status_code == 401 and response.json()["error"]["code"] == "bad_token"
    finally:
        running.stop()


def test_a_burst_of_log_ins_waits_behind_itself_and_past_the_bound_is_told_to_come_back(database_url):
    """Argon2 costs ~0.1 s of a core per try on purpose: log-ins run on threads of their own with
    a bounded queue. A burst past the bound (more addresses than the per-address limit sees) gets
    503 busy with Retry-After at once, the rest their answer; nothing else waits behind them, and
    the bound is free again afterwards."""
    running = start_in_thread(database_url, password_workers=1, password_max_waiting=3,
                              rate_logins_per_ip="1000/300")
    try:
        async def burst():
            async with httpx.AsyncClient(base_url=running.base_url, timeout=30) as client:
                tries = [client.post("/api/accounts/login", json={"name": f"nobody{i}", "password": "guess-123"})
                         for i in range(12)]
                meanwhile = client.get("/api/games")
                return await asyncio.gather(*tries), await meanwhile

        answers, games = asyncio.run(burst())
        assert games.status_code == 200
        codes = [(a.status_code, a.json()["error"]["code"]) for a in answers]
        assert set(codes) <= {(401, "bad_credentials"), (503, "busy")}, codes
        assert codes.count((503, "busy")) >= 1 and codes.count((401, "bad_credentials")) >= 3, codes
        assert all(a.headers["retry-after"] == "5" for a in answers if a.status_code == 503)
        assert running.app.state.password_work.waiting == 0
        again = httpx.post(f"{running.base_url}/api/accounts/login", json={"name": "nobody", "password": "guess-123"})
        assert again.status_code == 401
    finally:
        running.stop()
