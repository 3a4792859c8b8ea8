"""Streams and sockets count against one set of bounds over every process of a cluster (issue 30,
point 6): a player's streams on one process and sockets on another stop together at
``MAX_SOCKETS_PER_PLAYER``, and spectators from one address at ``MAX_SPECTATORS_PER_IP``."""

from __future__ import annotations

from tests.live.helpers import Stream
from tests.support.clients import Api, Socket
from tests.support.cluster import LocalCluster
from tests.support.driver import setup_room


def test_streams_and_sockets_share_the_bounds_over_every_process(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path, size=2, MAX_SOCKETS_PER_PLAYER="2", MAX_SPECTATORS_PER_IP="2") as cluster:
        one, two = cluster.servers
        room_id, (aki, _) = setup_room(cluster.base_url, "synomilia", ["Aki", "Ben"])
        stream = Stream(one.base_url, room_id, aki.token)
        assert stream.next()["type"] == "room"
        tab = Socket(two.ws_url, room_id, aki.token)
        assert tab.recv()["type"] == "room"
        refused = Stream(one.base_url, room_id, aki.token)
        assert refused.response.status_code == 429
        refused.close()
        refused = Stream(two.base_url, room_id, aki.token)
        assert refused.response.status_code == 429
        refused.close()

        watcher = Api.new_player(cluster.base_url, "Watcher")
        watching = Stream(one.base_url, room_id, watcher.token)  # not seated: a spectator of this address
        assert watching.next()["type"] == "room"
        anonymous = Socket(two.ws_url, room_id)
        assert anonymous.recv()["type"] == "room"
        third = Socket(one.ws_url, room_id)
        assert third.recv()["code"] == "too_many_sockets"
        fourth = Stream(two.base_url, room_id, Api.new_player(cluster.base_url, "Other").token)
        assert fourth.response.status_code == 429
        fourth.close()
        for held in (stream, watching):
            held.close()
        tab.close()
        anonymous.close()
