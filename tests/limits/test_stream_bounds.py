"""NDJSON streams count against the same bounds as sockets (issue 30, point 6): one player's
sockets and streams together stop at ``MAX_SOCKETS_PER_PLAYER``; streams of players without a
seat are spectators of the room (``MAX_SPECTATORS_PER_ROOM``); and spectator sockets and streams
from one address stop at ``MAX_SPECTATORS_PER_IP``, so neither one guest nor one address can lock
other spectators out of a room."""

from __future__ import annotations

from tests.limits.test_rate_limits import closed_code
from tests.live.helpers import Stream
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room


def test_one_players_streams_and_sockets_share_the_socket_bound(limited_server):
    server = limited_server(max_sockets_per_player=3, max_spectators_per_ip=100)
    room_id, (aki, _) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    held = [Stream(server.base_url, room_id, aki.token) for _ in range(2)]
    for stream in held:
        assert stream.next()["type"] == "room"
    tab = Socket(server.ws_url, room_id, aki.token)
    assert tab.recv()["type"] == "room"
    extra = Stream(server.base_url, room_id, aki.token)  # the fourth: refused, counted nowhere
    assert extra.response.status_code == 429
    extra.response.read()
    assert extra.response.json()["error"]["code"] == "too_many_sockets"
    extra.close()
    another_tab = Socket(server.ws_url, room_id, aki.token)
    assert another_tab.recv()["code"] == "too_many_sockets" and closed_code(another_tab) == 1008
    held[0].close()  # an ended stream gives its place back
    for _ in range(50):
        again = Stream(server.base_url, room_id, aki.token)
        if again.response.status_code == 200:
            assert again.next()["type"] == "room"
            again.close()
            break
        again.close()
    else:
        raise AssertionError("an ended stream never freed its place")
    tab.close()
    held[1].close()


def test_one_guests_streams_cannot_lock_spectators_out(limited_server):
    server = limited_server(max_spectators_per_room=4, max_sockets_per_player=16, max_spectators_per_ip=100)
    room_id, _ = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    guest = Api.new_player(server.base_url, "Watcher")
    streams = [Stream(server.base_url, room_id, guest.token) for _ in range(4)]
    assert [s.next()["type"] for s in streams] == ["room"] * 4
    refused = Stream(server.base_url, room_id, guest.token)
    assert refused.response.status_code == 503 and refused.response.headers["Retry-After"]
    refused.response.read()
    assert refused.response.json()["error"]["code"] == "too_many_spectators"
    refused.close()
    summary = Api(server.base_url).get(f"/api/rooms/{room_id}").json()
    assert summary["spectators"] == 4  # streams count as the spectators they are
    for stream in streams:
        stream.close()


def test_spectators_are_bounded_per_address(limited_server):
    """200 anonymous sockets from one address filled a room's spectator places; now one address
    holds at most MAX_SPECTATORS_PER_IP spectator sockets and streams, and others still get in."""
    server = limited_server(max_spectators_per_room=10, max_spectators_per_ip=3)
    room_id, (aki, _) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    crowd = [Socket(server.ws_url, room_id) for _ in range(2)]
    assert [s.recv()["type"] for s in crowd] == ["room", "room"]
    stranger = Api.new_player(server.base_url, "Stranger")
    stream = Stream(server.base_url, room_id, stranger.token)  # a stream of a player without a seat: a spectator too
    assert stream.next()["type"] == "room"
    fourth = Socket(server.ws_url, room_id)
    assert fourth.recv()["code"] == "too_many_sockets" and closed_code(fourth) == 1008
    fifth = Stream(server.base_url, room_id, Api.new_player(server.base_url, "Other").token)
    assert fifth.response.status_code == 429
    fifth.close()
    seated = Socket(server.ws_url, room_id, aki.token)  # players are not spectators: they always get in
    assert seated.recv()["type"] == "room"
    elsewhere = Socket(server.ws_url, room_id, headers={"X-Forwarded-For": "198.51.100.7"})
    assert elsewhere.recv()["type"] == "room"  # another address (through the trusted proxy) watches
    crowd[0].close()
    for _ in range(50):
        again = Socket(server.ws_url, room_id)
        if again.recv()["type"] == "room":
            break
        again.close()
    else:
        raise AssertionError("a closed spectator socket never freed its place")
    stream.close()
