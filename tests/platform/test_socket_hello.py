"""Who a socket is travels in its first frame, ``{"type": "hello", "token": ...}``, never in the URL
(issue 30, point 13): the token does not reach a proxy's or our access log. A socket that does not
say hello in time, or says something else first, is closed (1008) and never joins the room."""

from __future__ import annotations

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support.clients import Socket
from tests.support.driver import setup_room
from tests.support.server import start_in_thread


@pytest.fixture
def quick_hello_server(database_url):
    running = start_in_thread(database_url, ws_hello_seconds=1.0)
    yield running
    running.stop()


def raw(server, room_id: str):
    return connect(f"{server.ws_url}/ws/rooms/{room_id}", open_timeout=10).__enter__()


def closed_with(ws, timeout: float = 5.0) -> tuple[list[dict], int, str]:
    messages = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            messages.append(json.loads(ws.recv(timeout=timeout)))
    return messages, closed.value.rcvd.code, closed.value.rcvd.reason


def test_the_hello_seats_the_player_and_the_url_has_no_token(quick_hello_server):
    server = quick_hello_server
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    assert "token" not in sock.url and host.token not in sock.url
    assert sock.latest_view()["seat"] == 0
    room = sock.received[0]["room"]
    assert [s["connected"] for s in room["seats"]][0] is True
    spectator = Socket(server.ws_url, room_id)  # hello with no token
    assert spectator.latest_view()["seat"] is None
    sock.send({"type": "hello", "token": guest.token, "id": "again"})  # one hello per socket
    error = sock.recv_until(lambda m: m["type"] == "error")
    assert (error["code"], error["ref"]) == ("malformed", "again")
    sock.send({"type": "ping"})
    assert sock.recv_until(lambda m: m["type"] in ("pong", "error")) == {"type": "pong"}


def test_a_socket_without_hello_is_closed_and_never_joins(quick_hello_server):
    server = quick_hello_server
    room_id, (host, _guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    started = time.monotonic()
    silent = raw(server, room_id)
    messages, code, reason = closed_with(silent)
    assert time.monotonic() - started < 4
    assert (code, reason) == (1008, "hello expected")
    assert [m["code"] for m in messages] == ["hello_expected"]  # no room, no view: it never joined
    assert server.app.state.hub.rooms[room_id].summary()["spectators"] == 0


@pytest.mark.parametrize("first, code", [
    ('{"type": "ping"}', "hello_expected"),
    ('{"type": "action", "action": {}, "version": 0}', "hello_expected"),
    ('{"type": "hello", "token": 5}', "malformed"),
    ("not json", "malformed"),
])
def test_anything_but_a_hello_first_is_refused(quick_hello_server, first, code):
    server = quick_hello_server
    room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    ws = raw(server, room_id)
    ws.send(first)
    messages, close_code, _reason = closed_with(ws)
    assert [m["code"] for m in messages] == [code] and close_code == 1008


def test_a_bad_token_in_the_hello_closes_with_1008(quick_hello_server):
    server = quick_hello_server
    room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    ws = raw(server, room_id)
    ws.send(json.dumps({"type": "hello", "token": "forged"}))
    messages, code, reason = closed_with(ws)
    assert [m["code"] for m in messages] == ["bad_token"] and (code, reason) == (1008, "bad token")


def test_the_deprecated_token_in_the_url_still_works(quick_hello_server):
    """Kept for a deprecation period (README): programs written before the hello keep playing."""
    server = quick_hello_server
    room_id, (host, _guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    old = Socket(server.ws_url, room_id, host.token, token_in_url=True)
    assert old.latest_view()["seat"] == 0
