"""The NDJSON stream: it starts with the caller's full view, sends one line per change for that
seat only, keeps the connection alive with pings, ends after the outcome, and lets go of the room
when the client goes away."""

from __future__ import annotations

import pytest

from app.live.stream import StreamSubscriber
from app.routers import stream as stream_module
from tests.live.helpers import Stream, bots_only_room, room_id_of
from tests.support.clients import Api
from tests.support.driver import setup_room
from tests.support.waiting import wait_for


def subscribers(server, room_id: str) -> int:
    live = server.app.state.hub.rooms.get(room_id)
    return sum(isinstance(c, StreamSubscriber) for c in live.connections) if live else 0


def test_stream_starts_with_the_view_and_follows_the_seat(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    stream = Stream(server.base_url, room_id, guest.token)
    assert stream.response.headers["content-type"].startswith("application/x-ndjson")
    first = stream.next()
    assert first == guest.get(f"/api/rooms/{room_id}/view").json()
    assert first["seat"] == 1 and first["version"] == 0 and first["legal_actions"]
    room = stream.until(lambda m: m["type"] == "room")["room"]
    assert room["seats"][1]["connected"] is True  # a streaming client counts as present

    view = host.get(f"/api/rooms/{room_id}/view").json()
    assert host.post(f"/api/rooms/{room_id}/actions", {"action": view["legal_actions"][0], "version": 0}).status_code == 200
    pushed = stream.until(lambda m: m["type"] == "view")
    assert pushed["version"] == 1 and pushed["seat"] == 1
    assert pushed == guest.get(f"/api/rooms/{room_id}/view").json()

    # acting through REST answers the streamed view; the stream carries the next one
    reply = guest.post(f"/api/rooms/{room_id}/actions", {"action": pushed["legal_actions"][0], "version": 1})
    assert reply.status_code == 200
    assert stream.until(lambda m: m["type"] == "view")["version"] == 2
    stream.close()


def test_stream_before_the_start_and_until_the_outcome(bots_alone_server):
    """A watcher (token, no seat) of a bots-only room: room line first, then spectator views until
    the outcome, after which the server ends the stream."""
    server = bots_alone_server
    host, room_id = bots_only_room(server.base_url, "synomilia", 2, {"reveal_delay": 0})
    watcher = Api.new_player(server.base_url, "Cho")
    stream = Stream(server.base_url, room_id, watcher.token)
    first = stream.next()
    assert first["type"] == "room" and first["room"]["status"] == "open"
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    rest = stream.rest()
    views = [m for m in rest if m["type"] == "view"]
    assert views[-1]["outcome"] is not None and views[0]["version"] == 0
    assert [m["version"] for m in views] == list(range(len(views)))  # one line per change, in order
    assert all(m["seat"] is None and m["legal_actions"] == [] for m in views)
    assert rest[-1]["type"] == "room" and rest[-1]["room"]["status"] == "finished"
    # a stream opened after the end is one line: the final view
    late = Stream(server.base_url, room_id, watcher.token)
    assert late.next() == views[-1] and late.rest() == []
    for s in (stream, late):
        s.close()
    wait_for(lambda: subscribers(server, room_id) == 0, what="streams to be released")


def test_keepalive_and_disconnect(server, monkeypatch):
    monkeypatch.setattr(stream_module, "KEEPALIVE_SECONDS", 0.2)
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    stream = Stream(server.base_url, room_id, guest.token, read_timeout=5)
    assert stream.next()["type"] == "room"
    assert stream.until(lambda m: m["type"] == "ping") == {"type": "ping"}
    assert stream.until(lambda m: m["type"] == "ping") == {"type": "ping"}
    assert subscribers(server, room_id) == 1
    assert host.get(f"/api/rooms/{room_id}").json()["seats"][1]["connected"] is True
    stream.close()
    wait_for(lambda: subscribers(server, room_id) == 0, timeout=5, what="the stream to be released")
    assert host.get(f"/api/rooms/{room_id}").json()["seats"][1]["connected"] is False


def test_stream_needs_a_token_and_a_room(server):
    host = Api.new_player(server.base_url, "Aki")
    room_id = room_id_of(host.post("/api/rooms", {"game": "synomilia"}).json())
    assert Api(server.base_url).get(f"/api/rooms/{room_id}/stream").status_code == 401
    missing = host.get("/api/rooms/no-such-room/stream")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_openapi_documents_stream_and_actions(server):
    schema = Api(server.base_url).get("/openapi.json").json()
    stream = schema["paths"]["/api/rooms/{room_id}/stream"]["get"]
    ndjson = stream["responses"]["200"]["content"]["application/x-ndjson"]
    assert '"type":"view"' in ndjson["example"] and '"type":"ping"' in ndjson["example"]
    assert "POST /api/rooms/{id}/actions" in stream["description"]
    actions = schema["paths"]["/api/rooms/{room_id}/actions"]["post"]
    assert actions["requestBody"]["content"]["application/json"]["schema"]
    assert actions["responses"]["409"]["content"]["application/json"]["example"]["error"]["code"] == "stale_version"
    assert "post" in schema["paths"]["/api/rooms/{room_id}/bots"]
