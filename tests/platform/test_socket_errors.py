"""Malformed frames, unknown types, wrong seat, stale versions, oversized frames, binary frames and
bad tokens on the live socket: an error message (or the right close code) and no state change."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.clients import Socket
from tests.support.driver import setup_room
from tests.support.server import start_in_thread


def next_error(sock: Socket) -> dict:
    return sock.recv_until(lambda m: m["type"] == "error")


def test_bad_frames_get_errors_and_change_nothing(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    spectator = Socket(server.ws_url, room_id)
    version = sock.latest_view()["version"]

    cases = [
        ("{oops", "malformed"),
        (json.dumps([1, 2]), "malformed"),
        (json.dumps({"no": "type"}), "malformed"),
        (json.dumps({"type": "dance"}), "malformed"),
        (json.dumps({"type": "action", "action": {"type": "predict", "card": 3}}), "malformed"),
        (json.dumps({"type": "action", "action": {"type": "predict", "card": 3}, "version": version + 1}), "stale_version"),
        (json.dumps({"type": "action", "action": {"type": "stack", "face": "sun"}, "version": version}), "illegal_action"),
        (json.dumps({"type": "action", "action": {"kind": "predict"}, "version": version}), "invalid_action"),
        (json.dumps({"type": "action", "action": ["predict"], "version": version}), "invalid_action"),
        (json.dumps({"type": "chat", "text": "x" * 20_000}), "too_large"),
    ]
    for frame, code in cases:
        sock.send(frame)
        assert next_error(sock)["code"] == code, frame
    spectator.send({"type": "action", "action": {"type": "predict", "card": 3}, "version": version})
    assert next_error(spectator)["code"] == "not_seated"

    view = host.get(f"/api/rooms/{room_id}/view").json()
    assert view["version"] == version and view["view"]["predicted"] == [False, False]
    # still alive and well: a valid action goes through
    sock.send({"type": "action", "action": {"type": "predict", "card": 3}, "version": version})
    assert sock.latest_view(version=version + 1)["view"]["my_prediction"] == 3


def test_an_error_names_the_message_it_answers(server):
    """A message with an ``id`` gets errors (and, for a committed action, its ``ack``) with that
    ``ref``; one without gets none; an ``id`` that is not a short string or an integer is not echoed."""
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    version = sock.latest_view()["version"]
    stale = {"type": "action", "action": {"type": "predict", "card": 3}, "version": version + 5}
    sock.send(dict(stale, id="move-1"))
    assert (error := next_error(sock))["code"] == "stale_version" and error["ref"] == "move-1"
    sock.send(dict(stale, id=7))
    assert next_error(sock)["ref"] == 7
    sock.send({"type": "dance", "id": "x" * 65})
    assert "ref" not in next_error(sock)
    sock.send(stale)
    assert "ref" not in next_error(sock)
    # a committed action without an id gets its views and no ack; one with an id gets its ack
    other = Socket(server.ws_url, room_id, guest.token)
    assert sock.last_view["awaiting"] == [0, 1]  # both predict at once
    sock.send({"type": "action", "action": sock.last_view["legal_actions"][0], "version": version})
    sock.latest_view(version=version + 1)
    sock.send({"type": "ping"})
    assert sock.recv_until(lambda m: m["type"] in ("pong", "ack"))["type"] == "pong"
    view = other.latest_view(version=version + 1)
    other.send({"type": "action", "action": view["legal_actions"][0], "version": version + 1, "id": "move-2"})
    assert other.recv_until(lambda m: m["type"] in ("ack", "error")) == {"type": "ack", "version": version + 2, "ref": "move-2"}


def test_binary_frames_close_with_1003(server):
    room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    sock = Socket(server.ws_url, room_id)
    sock.send(b"\x00\x01")
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            sock.recv(timeout=5)
    assert closed.value.rcvd.code == 1003


@pytest.mark.parametrize("path, reason", [("room", "bad token"), ("unknown", "unknown room")])
def test_policy_violations_close_with_1008(server, path, reason):
    room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    if path == "room":
        sock = Socket(server.ws_url, room_id, token="forged")
    else:
        sock = Socket(server.ws_url, "no-such-room")
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            sock.recv(timeout=5)
    assert closed.value.rcvd.code == 1008 and closed.value.rcvd.reason == reason


@pytest.mark.parametrize("version", ["abc", "-1", "1.5", "９", str(2**53), "1" * 40])
def test_a_version_that_is_not_one_is_a_malformed_error_not_a_bare_403(server, version):
    """``?version=abc`` used to refuse the upgrade with a bare 403 (FastAPI's conversion): a client
    author learned nothing. Now the socket opens, says ``malformed`` and closes with 1008."""
    room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    sock = Socket(server.ws_url, room_id, version=version)
    error = sock.recv(timeout=5)
    assert error["type"] == "error" and error["code"] == "malformed" and "version" in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        sock.recv(timeout=5)
    assert closed.value.rcvd.code == 1008


def test_a_reconnect_with_a_good_version_still_gets_what_it_missed(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token, version=0)
    assert sock.latest_view()["version"] == 0


@pytest.mark.parametrize("ws_protocol", ["websockets-sansio", "websockets"])
def test_a_frame_over_the_transport_limit_closes_with_1009_too_large(database_url, ws_protocol):
    """A frame over MAX_FRAME_BYTES is answered ``error`` ``too_large``; one over the transport's
    limit (4 × MAX_FRAME_BYTES, not even read) closes the socket with 1009 and the reason
    ``too_large``, whichever WebSocket implementation serves."""
    server = start_in_thread(database_url, ws_protocol=ws_protocol)
    try:
        room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
        sock = Socket(server.ws_url, room_id)
        sock.send(json.dumps({"type": "chat", "text": "x" * 20_000}))
        assert next_error(sock)["code"] == "too_large"
        sock.send(json.dumps({"type": "chat", "text": "x" * (4 * 16_384)}))
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(10):
                sock.recv(timeout=5)
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1009, "too_large")
    finally:
        server.stop()
