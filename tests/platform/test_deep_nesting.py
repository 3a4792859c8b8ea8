"""JSON nested deeper than the parsers go (a 4 KB ``[[[[...]]]]``) is bad input like any other: a
socket answers ``error`` ``malformed`` and stays open, a REST body gets ``400 malformed``, and
nothing is logged as an unhandled error (issue 30, point 8)."""

from __future__ import annotations

import logging

import httpx
import pytest

from tests.support.clients import Api, Socket
from tests.support.driver import setup_room

DEEP = "[" * 2048 + "]" * 2048  # 4 KB: orjson stops at 1024 levels, Python's parser at its recursion limit


def test_a_deeply_nested_frame_is_malformed_and_the_socket_stays(server, caplog):
    room_id, (host, _guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    with caplog.at_level(logging.WARNING):
        anonymous = Socket(server.ws_url, room_id)
        player = Socket(server.ws_url, room_id, host.token)
        for sock in (anonymous, player):
            for frame in (DEEP, '{"type": "action", "version": 0, "action": ' + DEEP + "}",
                          '{"type": "ping", "id": "deep", "x": ' + DEEP + "}"):
                sock.send(frame)
                error = sock.recv_until(lambda m: m["type"] == "error")
                assert error["code"] == "malformed", frame[:40]
            sock.send({"type": "ping"})
            assert sock.recv_until(lambda m: m["type"] in ("pong", "error")) == {"type": "pong"}
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


@pytest.mark.parametrize("path, body", [
    ("/api/rooms", DEEP),
    ("/api/rooms", '{"game": "synomilia", "options": {"x": ' + DEEP + "}}"),
    ("/api/players", '{"name": ' + DEEP + "}"),
])
def test_a_deeply_nested_body_is_400_malformed(server, caplog, path, body):
    api = Api.new_player(server.base_url, "Aki")
    with caplog.at_level(logging.WARNING):
        response = httpx.post(f"{server.base_url}{path}", content=body, timeout=10,
                              headers={"Authorization": f"Bearer {api.token}", "Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed"
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
