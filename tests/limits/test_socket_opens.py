"""Opening sockets is bounded and a reconnect is cheap (issue 30, point 12): the ``sockets`` limit
takes a credit per socket or stream opened, per IP before anything else and per token once the
hello names it; a resync sends views encoded once per version and seat (kept for
``RESYNC_WINDOW`` versions), or one full view when further behind."""

from __future__ import annotations

import pytest
from websockets.exceptions import ConnectionClosed

from tests.live.helpers import Stream
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room
from tests.support.server import start_in_thread
from tests.support.waiting import wait_for


def refusal(sock: Socket) -> tuple[dict, int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = sock.recv(timeout=5)
            if message["type"] == "error":
                error = message
    return error, closed.value.rcvd.code, closed.value.rcvd.reason


def test_a_flood_of_socket_opens_is_refused_per_token_and_per_ip(limited_server):
    server = limited_server(rate_sockets_per_token="5/60", rate_sockets_per_ip="9/60")
    room_id, (aki, ben) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    for _ in range(5):
        Socket(server.ws_url, room_id, aki.token).close()
    error, code, reason = refusal(Socket(server.ws_url, room_id, aki.token))
    assert error["code"] == "rate_limited" and "per token" in error["message"] and error["retry_after"] >= 1
    assert code == 1013 and "too many sockets" in reason
    stream = Stream(server.base_url, room_id, aki.token)  # a stream is an open like a socket
    stream.response.read()
    assert stream.response.status_code == 429 and stream.response.json()["error"]["code"] == "rate_limited"
    stream.close()
    ben_socket = Socket(server.ws_url, room_id, ben.token)  # another token has its own bucket
    assert ben_socket.recv()["type"] == "room"
    # The IP's bucket: Aki's 5 and the refused 6th (charged before the hello), Ben's: 7 of 9
    # (the stream was refused by its token's bucket before the IP's was charged).
    Socket(server.ws_url, room_id).close()
    Socket(server.ws_url, room_id).close()
    error, code, _ = refusal(Socket(server.ws_url, room_id))
    assert error["code"] == "rate_limited" and "per ip" in error["message"] and code == 1013
    # the refused never joined: once the closed spectators have left, the room has none
    wait_for(lambda: server.app.state.hub.rooms[room_id].summary()["spectators"] == 0)


def test_a_player_reconnecting_often_never_meets_the_default_limit(server):
    """A flaky network for a whole minute (a reconnect every two seconds) and a few tabs."""
    room_id, (aki, _ben) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    for _ in range(30):
        sock = Socket(server.ws_url, room_id, aki.token)
        assert sock.recv()["type"] == "room"
        sock.close()
    tabs = [Socket(server.ws_url, room_id, aki.token) for _ in range(4)]
    assert all(tab.recv()["type"] == "room" for tab in tabs)


def played_room(server, actions: int):
    """A started Synomilia room after ``actions`` predictions and plays, made over REST (no seat
    had a socket, so no view was pushed or encoded meanwhile)."""
    room_id, apis = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    for _ in range(actions):
        for api in apis:
            view = api.get(f"/api/rooms/{room_id}/view").json()
            if view["legal_actions"]:
                assert api.post(f"/api/rooms/{room_id}/actions",
                                {"action": view["legal_actions"][0], "version": view["version"]}).status_code == 200
                break
    return room_id, apis


def test_a_resync_is_computed_once_per_version_and_seat(database_url):
    server = start_in_thread(database_url)
    try:
        room_id, (aki, _ben) = played_room(server, 6)
        runner = server.app.state.hub.rooms[room_id].runner
        version = runner.version
        assert version >= 6
        computed = []
        original = runner.message
        # (views of past versions; the current version's is computed once per seat for every push)
        runner.message = lambda seat, state=None, version=None, *rest: (
            state is not None and computed.append(version)) or original(seat, state, version, *rest)
        first = Socket(server.ws_url, room_id, aki.token, version=version - 5)
        views = [first.latest_view() for _ in range(5)]
        assert [v["version"] for v in views] == list(range(version - 4, version + 1))
        assert not any(v.get("resync") for v in views)
        assert sorted(computed) == sorted(set(computed)) and len(computed) <= 4  # each missed past version, once
        computed.clear()
        for _ in range(10):  # the same resync again and again costs no view computation
            again = Socket(server.ws_url, room_id, aki.token, version=version - 5)
            assert [again.latest_view()["version"] for _ in range(5)] == [v["version"] for v in views]
            assert [again.received[i] for i in range(len(again.received)) if again.received[i]["type"] == "view"] == views
            again.close()
        assert computed == []
    finally:
        server.stop()


def test_further_behind_than_the_window_gets_one_full_view(database_url):
    server = start_in_thread(database_url, resync_window=4)
    try:
        room_id, (aki, _ben) = played_room(server, 8)
        version = server.app.state.hub.rooms[room_id].runner.version
        sock = Socket(server.ws_url, room_id, aki.token, version=version - 6)
        view = sock.latest_view()
        assert view["version"] == version and view["resync"] is True
        sock.send({"type": "ping"})
        assert sock.recv_until(lambda m: m["type"] in ("view", "pong"))["type"] == "pong"  # nothing else came
        near = Socket(server.ws_url, room_id, aki.token, version=version - 3)
        assert [near.latest_view()["version"] for _ in range(3)] == [version - 2, version - 1, version]
    finally:
        server.stop()
