"""The host's table changes and a player's rename (issue 29, points 4 and 5) across a cluster: made
through one process, they reach sockets held by the others."""

from __future__ import annotations

from tests.support.clients import Api, Socket
from tests.support.cluster import LocalCluster


def room_where(sock: Socket, predicate) -> dict:
    return sock.recv_until(lambda m: m["type"] == "room" and predicate(m["room"]))["room"]


def test_table_changes_and_renames_reach_every_process(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path) as cluster:
        one, two, three = cluster.servers
        aki = Api.new_player(one.base_url, "Aki")
        ben = Api.new_player(one.base_url, "Ben")
        room = aki.post("/api/rooms", {"game": "makelandia", "seats": 4}).json()
        rid = room["id"]
        assert ben.post(f"/api/rooms/{rid}/join", {"seat": 1}).status_code == 200
        on_two = Socket(two.ws_url, rid, ben.token)
        on_three = Socket(three.ws_url, rid)  # a visitor on the third process

        host_on_three = Api(three.base_url, aki.token)
        answer = host_on_three.http.patch(f"/api/rooms/{rid}", json={"seats": 6}, headers=host_on_three._headers())
        assert answer.status_code == 200, answer.text
        for sock in (on_two, on_three):
            assert len(room_where(sock, lambda r: r["num_seats"] == 6)["seats"]) == 6

        ben_on_one = Api(one.base_url, ben.token)
        assert ben_on_one.http.patch("/api/players/me", json={"name": "Benjiro"}, headers=ben_on_one._headers()).status_code == 200
        for sock in (on_two, on_three):
            assert room_where(sock, lambda r: r["seats"][1]["name"] == "Benjiro")["seats"][1]["player_id"] == ben.player_id
        on_two.close()
        on_three.close()
