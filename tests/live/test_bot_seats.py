"""Bot seats through the REST API: only the host seats bots, only in free seats (or the seat of
a player who left a running match), and a bot that takes over an awaited seat acts at once."""

from __future__ import annotations

import random
import time

from tests.live.helpers import bots_only_room, room_id_of, wait_for_status
from tests.support.clients import Api
from tests.support.waiting import wait_for


def test_host_fills_and_frees_seats_with_bots(server):
    host = Api.new_player(server.base_url, "Aki")
    guest = Api.new_player(server.base_url, "Ben")
    room_id = room_id_of(host.post("/api/rooms", {"game": "synomilia", "seats": 2}).json())

    refused = guest.post(f"/api/rooms/{room_id}/bots", {"seat": 1})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    assert host.post(f"/api/rooms/{room_id}/bots", {"seat": 0}).json()["error"]["code"] == "seat_taken"
    assert host.post(f"/api/rooms/{room_id}/bots", {"seat": 2}).status_code == 422
    assert Api(server.base_url).post(f"/api/rooms/{room_id}/bots", {"seat": 1}).status_code == 401

    room = host.post(f"/api/rooms/{room_id}/bots").json()  # no seat: the first empty one
    bot = room["seats"][1]
    assert bot["bot"] is True and bot["connected"] is True and bot["name"] == "Bot 1"
    assert host.post(f"/api/rooms/{room_id}/bots").json()["error"]["code"] == "room_full"
    assert guest.post(f"/api/rooms/{room_id}/join").json()["error"]["code"] == "seat_taken"

    assert host.http.delete(f"/api/rooms/{room_id}/bots/0", headers=host._headers()).json()["error"]["code"] == "not_a_bot"
    room = host.http.delete(f"/api/rooms/{room_id}/bots/1", headers=host._headers()).json()
    assert room["seats"][1]["player_id"] is None
    assert guest.post(f"/api/rooms/{room_id}/join").status_code == 200


def test_a_bot_replaces_a_player_who_left_a_running_match(server):
    host = Api.new_player(server.base_url, "Aki")
    guest = Api.new_player(server.base_url, "Ben")
    room_id = room_id_of(host.post("/api/rooms", {"game": "synomilia", "seats": 2,
                                                  "options": {"reveal_delay": 0}}).json())
    assert guest.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert host.post(f"/api/rooms/{room_id}/bots", {"seat": 1}).json()["error"]["code"] == "seat_taken"
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    assert host.post(f"/api/rooms/{room_id}/bots", {"seat": 1}).json()["error"]["code"] == "seat_taken"

    view = host.get(f"/api/rooms/{room_id}/view").json()
    assert 1 in view["awaiting"]  # both players predict at once: seat 1 is awaited
    room = guest.post(f"/api/rooms/{room_id}/leave").json()
    assert room["seats"][1]["left"] is True
    room = host.post(f"/api/rooms/{room_id}/bots", {"seat": 1}).json()
    assert room["seats"][1]["bot"] and not room["seats"][1]["left"]
    # the bot answers the pending step by itself
    wait_for(lambda: 1 not in host.get(f"/api/rooms/{room_id}/view").json()["awaiting"], what="the bot's move")

    # the former player is now only a spectator
    assert guest.post(f"/api/rooms/{room_id}/join").json()["error"]["code"] == "room_not_open"
    rng = random.Random(3)
    deadline = time.monotonic() + 120  # (a count of polls ran out in CI while the bot was slow)
    while time.monotonic() < deadline:
        view = host.get(f"/api/rooms/{room_id}/view").json()
        if view["outcome"] is not None:
            break
        if view["legal_actions"]:
            host.post(f"/api/rooms/{room_id}/actions", {"action": rng.choice(view["legal_actions"]),
                                                         "version": view["version"]})
        else:
            time.sleep(0.02)  # the bot's move
    wait_for_status(host, room_id, "finished")


def test_a_bot_whose_policy_fails_still_moves(bots_alone_server, monkeypatch):
    """A bot policy that raises (a bug, a race) plays a random legal move instead: the table never
    waits forever on a bot."""
    server = bots_alone_server
    from app.live import runner

    calls = []

    def broken(view, legal, rng):
        calls.append(1)
        raise RuntimeError("the bot is broken")

    monkeypatch.setattr(runner, "get_bot", lambda game, level: broken)
    host = Api.new_player(server.base_url, "Aki")
    room_id = room_id_of(host.post("/api/rooms", {"game": "synomilia", "seats": 2, "bot_think_seconds": 0,
                                                  "options": {"reveal_delay": 0, "turn_seconds": 0}}).json())
    assert host.post(f"/api/rooms/{room_id}/leave").status_code == 200
    for seat in (0, 1):
        assert host.post(f"/api/rooms/{room_id}/bots", {"seat": seat}).status_code == 200
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    wait_for_status(host, room_id, "finished", timeout=60)
    assert calls  # the broken policy was asked every time, and every time the table went on


def test_bots_think_on_threads_of_their_own(bots_alone_server, monkeypatch):
    """A strong bot's move is up to 0.4 s of Python: bots think on the hub's own threads
    (``BOT_WORKERS``), so a crowd of them never queues the default pool's work (readiness
    probes' database pings, votes on PostgreSQL) behind it."""
    server = bots_alone_server
    import threading

    from app.live import runner

    threads = []

    def recording(view, legal, rng):
        threads.append(threading.current_thread().name)
        return rng.choice(legal)

    monkeypatch.setattr(runner, "get_bot", lambda game, level: recording)
    host, room_id = bots_only_room(server.base_url, "synomilia", 2, {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    wait_for_status(host, room_id, "finished", timeout=60)
    assert threads and all(name.startswith("bots") for name in threads), set(threads)
