"""A whole Synomilia match through two WebSocket clients (and a spectator): every pushed view is
exactly the engine's view for that socket's seat at that version, and none holds the other
player's secret prediction."""

from __future__ import annotations

import json
import random

import engines
from tests.support.clients import Socket
from tests.support.driver import check_pushed_views, play_over_sockets, setup_room, status_before_first_view

ENGINE = engines.get("synomilia")


def hides_prediction_of(state, viewer, other) -> bool:
    """The viewer's view does not change whatever the other's face-down card is."""
    data = ENGINE.state_to_json(state)
    if data["predictions"][other] is None:
        return True
    base = json.dumps(ENGINE.view(state, viewer), sort_keys=True)
    for card in range(10):
        changed = json.loads(json.dumps(data))
        changed["predictions"][other] = card
        if json.dumps(ENGINE.view(ENGINE.state_from_json(changed), viewer), sort_keys=True) != base:
            return False
    return True


def test_full_match_over_websockets_hides_secrets(server, database_url):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    sockets = {0: Socket(server.ws_url, room_id, host.token), 1: Socket(server.ws_url, room_id, guest.token)}
    spectator = Socket(server.ws_url, room_id)
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    final = play_over_sockets(host, room_id, sockets, random.Random(5))
    assert final["outcome"]["reason"]
    room = host.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "finished"

    all_sockets = {**sockets, None: spectator}
    match, states = check_pushed_views(database_url, room["match_id"], all_sockets)
    assert match.status == "finished" and match.version == final["version"]
    checked = 0
    for seat, sock in all_sockets.items():
        for message in (m for m in sock.received if m["type"] == "view"):
            reveal = message["view"]["reveal"]
            for other in (0, 1):
                if other != seat and not (reveal and reveal["cards"][other] is not None):
                    assert hides_prediction_of(states[message["version"]], seat, other), (seat, message["version"])
            checked += 1
    assert checked > 3 * 20


def test_reconnect_gets_missed_views_or_resync(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    first = sock.latest_view()
    assert first["version"] == 0
    sock.close()
    # guest predicts, host predicts: two versions pass while host is away
    for api in (guest, host):
        view = api.get(f"/api/rooms/{room_id}/view").json()
        assert api.post(f"/api/rooms/{room_id}/actions", {"action": view["legal_actions"][0], "version": view["version"]}).status_code == 200
    back = Socket(server.ws_url, room_id, host.token, version=0)
    missed = [back.latest_view(), back.latest_view()]
    assert [m["version"] for m in missed] == [1, 2]
    assert not missed[-1].get("resync")
    # an unknown/future version gets one full view marked resync
    again = Socket(server.ws_url, room_id, host.token, version=999)
    full = again.latest_view()
    assert full["version"] == 2 and full["resync"] is True
    # asking on an open socket works the same way
    again.send({"type": "sync", "version": 1})
    assert again.latest_view()["version"] == 2


def test_presence_is_part_of_the_room_view(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    sock = Socket(server.ws_url, room_id, host.token)
    room = sock.recv_until(lambda m: m["type"] == "room")["room"]
    assert [s["connected"] for s in room["seats"]] == [True, False]
    other = Socket(server.ws_url, room_id, guest.token)
    room = sock.recv_until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["connected"])["room"]
    assert room["seats"][1]["name"] == "Ben"
    other.close()
    sock.recv_until(lambda m: m["type"] == "room" and not m["room"]["seats"][1]["connected"])
    assert host.get(f"/api/rooms/{room_id}").json()["seats"][1]["connected"] is False


def test_a_socket_hears_the_room_is_running_before_its_first_view(server):
    """The room page draws the lobby from the room message and the table from the view: a view
    before the "running" room message would show the table beside the lobby's invite box."""
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    sock = Socket(server.ws_url, room_id, guest.token)
    sock.recv_until(lambda m: m["type"] == "room")
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    assert status_before_first_view(sock) == "running"
