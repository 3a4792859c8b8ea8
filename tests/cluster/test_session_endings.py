"""Revoking a session through one process ends its sockets and streams on every other process
(issue 30, point 4): the ending goes out on the Redis bus."""

from __future__ import annotations

from tests.live.helpers import Stream
from tests.platform.test_session_endings import PASSWORD, ended, log_in, still_open
from tests.support.clients import Api, Socket
from tests.support.cluster import LocalCluster


def test_a_session_revoked_on_one_process_ends_its_socket_and_stream_on_the_others(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path, size=2) as cluster:
        one, two = cluster.servers
        aki = Api.new_player(one.base_url, "Aki")
        phone = Api(two.base_url, aki.post("/api/accounts", {"password": PASSWORD}).json()["token"])
        laptop = log_in(one.base_url, "Aki")
        room_id = laptop.post("/api/rooms", {"game": "synomilia"}).json()["id"]
        lost = Socket(two.ws_url, room_id, phone.token)
        lost.recv_until(lambda m: m["type"] == "room")
        stream = Stream(two.base_url, room_id, phone.token)
        assert stream.next()["type"] == "room"
        kept = Socket(two.ws_url, room_id, laptop.token)
        kept.recv_until(lambda m: m["type"] == "room")

        sessions = laptop.get("/api/accounts/me").json()["sessions"]
        lost_session = next(s for s in sessions if not s["current"])
        assert laptop.http.delete(f"/api/accounts/sessions/{lost_session['id']}",
                                  headers=laptop._headers()).json() == {"revoked": 1}
        messages, code = ended(lost)
        assert code == 4401 and messages[-1]["code"] == "session_ended"
        assert stream.rest()[-1]["code"] == "session_ended"
        stream.close()
        still_open(kept)
