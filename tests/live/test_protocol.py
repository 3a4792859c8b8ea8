"""The typed wire protocol (``app.protocol``): the committed JSON Schema matches the models, every
frame is parsed in one place into its model (anything that does not fit is ``malformed``, with the
``ref`` of its id, and changes nothing), and everything a played match sends fits the server models."""

from __future__ import annotations

import json
import random

import pytest
from pydantic import TypeAdapter

from app.protocol import client_messages as msg
from app.protocol import schema
from app.protocol.server_messages import ServerMessage
from tests.support.clients import Socket
from tests.support.driver import play_over_sockets, setup_room

SERVER_MESSAGES = TypeAdapter(ServerMessage)


def test_the_committed_schema_is_the_models_schema():
    assert schema.main(["--check"]) == 0, "docs/protocol.schema.json is stale: run python -m app.protocol.schema"
    document = json.loads(schema.SCHEMA_FILE.read_text())
    client = document["$defs"]["ClientMessage"]
    assert client["discriminator"]["propertyName"] == "type"
    assert set(client["discriminator"]["mapping"]) == {"hello", "action", "sync", "chat", "ping", "rematch"}
    assert set(document["$defs"]["ServerMessage"]["discriminator"]["mapping"]) == {
        "view", "room", "error", "ack", "chat", "chat_history", "pong", "rematch"}


def test_a_changed_model_fails_the_check(monkeypatch, tmp_path):
    stale = tmp_path / "protocol.schema.json"
    stale.write_text(schema.render().replace('"const": "pong"', '"const": "pongg"'))
    monkeypatch.setattr(schema, "SCHEMA_FILE", stale)
    assert schema.main(["--check"]) == 1


@pytest.mark.parametrize("frame, model", [
    ({"type": "hello", "token": "abc"}, msg.Hello),
    ({"type": "hello"}, msg.Hello),
    ({"type": "action", "action": {"type": "pass"}, "version": 3, "id": 9}, msg.Action),
    ({"type": "sync"}, msg.Sync),
    ({"type": "sync", "version": 0}, msg.Sync),
    ({"type": "chat", "text": "gg", "channel": "team"}, msg.Chat),
    ({"type": "ping", "id": "p-1"}, msg.Ping),
    ({"type": "rematch"}, msg.Rematch),
])
def test_each_client_message_parses_into_its_model(frame, model):
    assert type(msg.parse_client_frame(json.dumps(frame))) is model


@pytest.mark.parametrize("frame, ref", [
    ('{"type": "dance", "id": "d"}', "d"),
    ('{"type": "sync", "version": "3", "id": 4}', 4),
    ('{"type": "sync", "version": true}', None),
    ('{"type": "action", "action": {}, "version": 1.0, "id": "a"}', "a"),
    ('{"type": "chat", "text": "hi", "channel": "all"}', None),
    ('{"type": "chat", "text": 5}', None),
    ('{"type": "ping", "verison": 3, "id": "typo"}', "typo"),
    ('{"type": "ping", "id": ["x"]}', None),
    ("[" * 3000 + "]" * 3000, None),
    ('{"type": "ping", "id": ' + "[" * 3000 + "]" * 3000 + "}", None),
])
def test_what_does_not_fit_is_malformed(frame, ref):
    with pytest.raises(msg.MalformedFrame) as refused:
        msg.parse_client_frame(frame)
    error = refused.value.as_error()
    assert error["code"] == "malformed" and error.get("ref") == ref


def test_the_server_answers_malformed_with_the_ref_and_applies_nothing(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    version = sock.latest_view()["version"]
    legal = sock.last_view["legal_actions"][0]
    frames = [
        {"type": "dance", "id": "m1"},
        {"type": "action", "action": legal, "version": str(version), "id": "m2"},
        {"type": "action", "action": legal, "version": version, "seat": 1, "id": "m3"},
        {"type": "chat", "text": "hello", "channel": "everyone", "id": "m4"},
        {"type": "sync", "version": -1, "id": "m5"},
    ]
    for frame in frames:
        sock.send(frame)
        error = sock.recv_until(lambda m: m["type"] == "error")
        assert (error["code"], error.get("ref")) == ("malformed", frame["id"]), frame
    assert host.get(f"/api/rooms/{room_id}/view").json()["version"] == version
    sock.send({"type": "ping", "id": "alive"})
    assert sock.recv_until(lambda m: m["type"] in ("pong", "error", "chat")) == {"type": "pong"}


def test_everything_a_played_match_sends_fits_the_server_models(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sockets = {0: Socket(server.ws_url, room_id, host.token), 1: Socket(server.ws_url, room_id, guest.token)}
    spectator = Socket(server.ws_url, room_id)
    sockets[0].send({"type": "chat", "text": "good luck"})
    sockets[0].send({"type": "ping"})
    sockets[1].send({"type": "sync", "version": 0})
    sockets[1].send({"type": "action", "action": {"type": "nope"}, "version": 10**6, "id": "stale"})
    final = play_over_sockets(host, room_id, sockets, random.Random(3))
    sockets[0].send({"type": "rematch", "id": 1})
    sockets[0].recv_until(lambda m: m["type"] == "rematch")
    for sock in (*sockets.values(), spectator):
        sock.send({"type": "ping"})
        sock.recv_until(lambda m: m["type"] == "pong")
    kinds = set()
    for sock in (*sockets.values(), spectator):
        for message in sock.received:
            SERVER_MESSAGES.validate_python(message)
            kinds.add(message["type"])
    assert {"view", "room", "chat", "pong", "error", "rematch"} <= kinds
    assert final["outcome"] is not None
