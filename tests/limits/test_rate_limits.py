"""Each credit bucket against the real server: REST refusals are 429 with ``Retry-After`` and change
nothing; socket refusals are an ``error`` ``rate_limited``, and a client that keeps flooding is
closed with 1008. Bounds on sockets per player, spectators per room and open rooms per player."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.clock import FakeClock
from app.limits import MemoryBucketStore, Rule
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room


def assert_throttled(response: httpx.Response) -> dict:
    assert response.status_code == 429, response.text
    retry = int(response.headers["Retry-After"])
    error = response.json()["error"]
    assert error["code"] == "rate_limited" and error["retry_after"] == retry and retry >= 1
    return error


def closed_code(sock: Socket) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(200):
            sock.recv(timeout=5)
    return closed.value.rcvd.code


def test_new_players_per_ip(limited_server):
    server = limited_server(rate_players_per_ip="3/600")
    http = httpx.Client(base_url=server.base_url)
    assert [http.post("/api/players", json={"name": f"P{i}"}).status_code for i in range(3)] == [201] * 3
    error = assert_throttled(http.post("/api/players", json={"name": "one too many"}))
    assert "per ip" in error["message"]
    assert 150 <= error["retry_after"] <= 200  # one credit of 3 per 600 s


def test_buckets_refill_with_time(limited_server):
    clock = FakeClock()
    server = limited_server(clock=clock, rate_players_per_ip="2/60")
    http = httpx.Client(base_url=server.base_url)
    assert [http.post("/api/players", json={"name": "P"}).status_code for _ in range(2)] == [201, 201]
    assert assert_throttled(http.post("/api/players", json={"name": "P"}))["retry_after"] == 30
    clock.advance(30)
    assert http.post("/api/players", json={"name": "P"}).status_code == 201
    assert_throttled(http.post("/api/players", json={"name": "P"}))


def test_new_rooms_per_token_and_per_ip(limited_server):
    server = limited_server(rate_rooms_per_token="2/600", rate_rooms_per_ip="3/600")
    aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
    new_room = {"game": "synomilia", "seats": 2}
    assert [aki.post("/api/rooms", new_room).status_code for _ in range(2)] == [201, 201]
    assert "per token" in assert_throttled(aki.post("/api/rooms", new_room))["message"]
    assert ben.post("/api/rooms", new_room).status_code == 201  # another token has its own bucket
    assert "per ip" in assert_throttled(ben.post("/api/rooms", new_room))["message"]  # but not another address


def test_open_rooms_per_player_are_bounded(limited_server):
    server = limited_server(max_open_rooms_per_player=2)
    aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
    rooms = [aki.post("/api/rooms", {"game": "synomilia", "seats": 2}).json()["id"] for _ in range(2)]
    refused = aki.post("/api/rooms", {"game": "synomilia", "seats": 2})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "too_many_rooms"
    assert ben.post(f"/api/rooms/{rooms[0]}/join").status_code == 200
    assert aki.post(f"/api/rooms/{rooms[0]}/start").status_code == 200  # a started room no longer counts
    assert aki.post("/api/rooms", {"game": "synomilia", "seats": 2}).status_code == 201


def test_rest_actions_per_token_change_nothing_when_refused(limited_server):
    server = limited_server(rate_actions_per_token="4/600")
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200  # host: 1 credit; guest: join, 1
    view = host.get(f"/api/rooms/{room_id}/view").json()
    stale = {"action": view["legal_actions"][0], "version": view["version"] + 5}
    assert [host.post(f"/api/rooms/{room_id}/actions", stale).status_code for _ in range(3)] == [409] * 3
    assert_throttled(host.post(f"/api/rooms/{room_id}/actions",
                               {"action": view["legal_actions"][0], "version": view["version"]}))
    after = host.get(f"/api/rooms/{room_id}/view").json()
    assert after["version"] == view["version"] and after["view"] == view["view"]  # the refused action was not applied
    assert guest.post(f"/api/rooms/{room_id}/actions",
                      {"action": guest.get(f"/api/rooms/{room_id}/view").json()["legal_actions"][0],
                       "version": view["version"]}).status_code == 200


def test_rest_actions_per_ip(limited_server):
    server = limited_server(rate_actions_per_ip="3/600")
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])  # join: 1 credit
    assert host.post(f"/api/rooms/{room_id}/leave").status_code == 200
    assert host.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert_throttled(guest.post(f"/api/rooms/{room_id}/leave"))


def test_socket_frames_per_token_then_closed_for_flooding(limited_server):
    server = limited_server(rate_frames_per_token="5/600", ws_flood_strikes=3)
    room_id, (host, _) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    sock = Socket(server.ws_url, room_id, host.token)
    for _ in range(5):
        sock.send({"type": "ping"})
        assert sock.recv_until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    for _ in range(3):  # refused, told so, still connected
        sock.send({"type": "ping"})
        error = sock.recv_until(lambda m: m["type"] in ("pong", "error"))
        assert error["code"] == "rate_limited" and error["retry_after"] >= 1
    sock.send({"type": "ping"})  # keeps flooding past the strikes
    assert closed_code(sock) == 1008
    assert [m["type"] for m in sock.received].count("pong") == 5


def test_spectator_frames_per_ip(limited_server):
    server = limited_server(rate_frames_per_ip="2/600", ws_flood_strikes=100)
    room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    first, second = Socket(server.ws_url, room_id), Socket(server.ws_url, room_id)
    for sock in (first, second):  # one address, two sockets: one bucket
        sock.send({"type": "ping"})
        assert sock.recv_until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    first.send({"type": "ping"})
    assert first.recv_until(lambda m: m["type"] in ("pong", "error"))["code"] == "rate_limited"


def test_chat_per_token_and_per_ip(limited_server):
    server = limited_server(rate_chat_per_token="2/600", rate_chat_per_ip="3/600")
    room_id, (aki, ben) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    a, b = Socket(server.ws_url, room_id, aki.token), Socket(server.ws_url, room_id, ben.token)

    def say(sock, text):
        sock.send({"type": "chat", "text": text})
        return sock.recv_until(lambda m: m["type"] == "error" or (m["type"] == "chat" and m["message"]["text"] == text))

    assert say(a, "one")["type"] == say(a, "two")["type"] == "chat"
    assert say(a, "three")["code"] == "rate_limited"
    a.send({"type": "chat", "text": "   "})  # malformed chat costs no chat credit
    assert a.recv_until(lambda m: m["type"] == "error")["code"] == "malformed"
    assert say(b, "ben one")["type"] == "chat"
    error = say(b, "ben two")
    assert error["code"] == "rate_limited" and "per ip" in error["message"]


def test_sockets_per_player_are_bounded(limited_server):
    server = limited_server(max_sockets_per_player=2)
    room_id, (aki, _) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    tabs = []
    for _ in range(2):  # each admitted (its first message received) before the next one opens
        tabs.append(Socket(server.ws_url, room_id, aki.token))
        assert tabs[-1].recv()["type"] == "room"
    third = Socket(server.ws_url, room_id, aki.token)
    assert third.recv()["code"] == "too_many_sockets"
    assert closed_code(third) == 1008
    tabs[0].close()
    tabs[1].send({"type": "ping"})  # the close has been handled once the server answers later frames
    tabs[1].recv_until(lambda m: m["type"] == "pong")
    for _ in range(50):
        again = Socket(server.ws_url, room_id, aki.token)
        if again.recv()["type"] == "room":
            return
        again.close()
    raise AssertionError("a closed socket never freed its place")


def test_spectators_per_room_are_bounded(limited_server):
    server = limited_server(max_spectators_per_room=1)
    room_id, (aki, _) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    watcher = Socket(server.ws_url, room_id)
    assert watcher.recv()["type"] == "room"
    crowd = Socket(server.ws_url, room_id)
    assert crowd.recv()["code"] == "too_many_spectators"
    assert closed_code(crowd) == 1013
    seated = Socket(server.ws_url, room_id, aki.token)  # players always get in
    assert seated.recv()["type"] == "room"


def test_memory_store_forgets_full_buckets():
    store = MemoryBucketStore(max_keys=1000, sweep_every=100)
    rule = Rule(5, 10)

    async def run():
        for i in range(5000):  # many clients, once each
            assert await store.take(f"ip:{i}", rule, 1, now=i * 0.001) == 0
        assert len(store) <= 1000  # bounded even while they are all recent
        assert await store.take("late", rule, 1, now=100.0) == 0
        store.sweep(now=100.0)
        assert len(store) == 1  # everyone else's bucket is full again: nothing to remember

    asyncio.run(run())


@pytest.mark.parametrize("trusted, separate", [("127.0.0.1", True), ("10.9.9.9", False)])
def test_per_ip_buckets_behind_a_trusted_proxy(database_url, tmp_path, trusted, separate):
    """The README's start command: behind a proxy listed in FORWARDED_ALLOW_IPS each client named
    by X-Forwarded-For has its own bucket; an untrusted peer cannot pick its address that way."""
    from app.db import migrate
    from tests.support.server import ServerProcess

    migrate(database_url)
    process = ServerProcess(database_url, env={"FORWARDED_ALLOW_IPS": trusted, "RATE_PLAYERS_PER_IP": "2/600"})
    process.start()
    try:
        def create(client_ip):
            return httpx.post(f"{process.base_url}/api/players", json={"name": "P"},
                              headers={"X-Forwarded-For": client_ip})

        assert [create("198.51.100.1").status_code for _ in range(2)] == [201, 201]
        assert_throttled(create("198.51.100.1"))
        assert create("198.51.100.2").status_code == (201 if separate else 429)
    finally:
        process.stop()
