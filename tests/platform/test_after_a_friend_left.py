"""Issue 29 point 1 over REST and the socket: after a match, a friend who is gone (no socket) no
longer blocks the others. The host puts a bot in that seat (its yes and the host's count at once)
and the rematch starts with the others' yes; or anyone opens a new table with the same people
(any game), which the old room points to, with the gone friend's seat left free for them."""

from __future__ import annotations

import random

from tests.support.clients import Api, Socket
from tests.support.driver import play_over_rest, setup_room


def finished_three(server):
    room_id, apis = setup_room(server.base_url, "mipolin", ["Aya", "Ben", "Cho"])
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    sockets = [Socket(server.ws_url, room_id, api.token) for api in apis]
    for sock in sockets:
        sock.latest_view()
    # the match ends (everyone but Aya resigns... Aya simply resigns: any ending will do)
    assert apis[0].post(f"/api/rooms/{room_id}/actions", {"action": {"platform": "resign"}, "version": 0}).status_code == 200
    assert apis[0].get(f"/api/rooms/{room_id}").json()["status"] == "finished"
    return room_id, apis, sockets


def test_the_host_plays_the_rematch_with_a_bot_for_the_friend_who_left(server):
    room_id, (aya, ben, cho), sockets = finished_three(server)
    sockets[2].close()  # Cho closes the tab
    sockets[0].recv_until(lambda m: m["type"] == "room" and not m["room"]["seats"][2]["connected"])
    assert ben.post(f"/api/rooms/{room_id}/rematch").json()["waiting"] == [0, 2]
    # only the host chooses, and only for someone who is gone
    assert ben.post(f"/api/rooms/{room_id}/bots", {"seat": 2}).json()["error"]["code"] == "not_host"
    assert aya.post(f"/api/rooms/{room_id}/bots", {"seat": 1}).json()["error"]["code"] == "seat_taken"
    summary = aya.post(f"/api/rooms/{room_id}/bots", {"seat": 2})
    assert summary.status_code == 200, summary.text
    room = summary.json()
    assert room["status"] == "running" and room["seats"][2]["bot"]
    view = sockets[1].recv_until(lambda m: m["type"] == "view" and m["outcome"] is None)
    assert view["match_id"] == room["match_id"]


def test_a_new_table_with_the_same_people_that_the_gone_friend_can_still_join(server):
    room_id, (aya, ben, cho), sockets = finished_three(server)
    sockets[2].close()
    sockets[0].recv_until(lambda m: m["type"] == "room" and not m["room"]["seats"][2]["connected"])
    stranger = Api.new_player(server.base_url, "Dee")
    assert stranger.post(f"/api/rooms/{room_id}/next").json()["error"]["code"] == "not_seated"
    new = ben.post(f"/api/rooms/{room_id}/next", {"game": "synomilia", "seats": 3})
    assert new.json()["error"]["code"] == "bad_seats"  # Synomilia takes two
    new = ben.post(f"/api/rooms/{room_id}/next")
    assert new.status_code == 200, new.text
    table = new.json()
    assert table["game"] == "mipolin" and table["status"] == "open" and table["host_id"] == ben.player_id
    assert [s["name"] for s in table["seats"]] == ["Aya", "Ben", None]  # Cho's seat stays free for her
    pushed = sockets[0].recv_until(lambda m: m["type"] == "room" and m["room"]["next_room_id"])
    assert pushed["room"]["next_room_id"] == table["id"]
    assert aya.post(f"/api/rooms/{room_id}/next").json()["id"] == table["id"]  # one new table per room
    # Cho comes back later through the old link: it points to the new table, where she sits down
    old = Api(server.base_url, cho.token).get(f"/api/rooms/{room_id}").json()
    assert old["next_room_id"] == table["id"]
    assert cho.post(f"/api/rooms/{table['id']}/join").status_code == 200
    assert ben.post(f"/api/rooms/{table['id']}/start").status_code == 200


def test_a_new_table_of_another_game(server):
    room_id, apis = setup_room(server.base_url, "synomilia", ["Aya", "Ben"], {"reveal_delay": 0})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    assert apis[0].post(f"/api/rooms/{room_id}/next").json()["error"]["code"] == "room_not_over"
    play_over_rest(dict(enumerate(apis)), room_id, random.Random(1))
    socket = Socket(server.ws_url, room_id, apis[1].token)
    socket.recv_until(lambda m: m["type"] == "room")
    table = apis[0].post(f"/api/rooms/{room_id}/next", {"game": "peribit"}).json()
    assert table["game"] == "peribit" and table["seats"][0]["name"] == "Aya" and table["seats"][1]["name"] == "Ben"
