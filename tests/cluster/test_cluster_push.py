"""Web Push in a cluster (issue 31): three processes behind HAProxy share one VAPID key (made by the
first start, stored in the database) and each event is pushed once, by the process that owns the
match (a mirror never sends), whatever process the actions came through; a mention is pushed
once, by the process that stored the message. The stand-in push service on loopback verifies
the signature and decrypts every push (tests/support/push_service.py)."""

from __future__ import annotations

import random
import time

from tests.cluster.test_losing_a_node import owner_epoch, server_of
from tests.platform.test_push import ALL_KINDS, step, turns_of
from tests.support.clients import Api, Socket
from tests.support.cluster import LocalCluster
from tests.support.push_service import PushService

QUIET_SECONDS = 2.0  # after the expected pushes arrived, a duplicate would arrive within this


def steady(service: PushService, name: str, count: int) -> list:
    """The pushes to ``name`` once there are ``count``, and still ``count`` after a quiet spell."""
    service.wait_for(name, count, timeout=30)
    quiet_until = time.monotonic() + QUIET_SECONDS
    while time.monotonic() < quiet_until:
        assert len(service.to(name)) == count, [p.payload for p in service.to(name)]
        time.sleep(0.05)
    return service.to(name)


def test_one_key_and_one_push_per_event_from_the_owner(postgres_url, tmp_path):
    service = PushService()
    try:
        with LocalCluster(postgres_url, tmp_path, PUSH_ALLOW_LOOPBACK_HTTP="true",
                          RATE_NOTIFY_PER_PLAYER="1000/60") as cluster:
            keys = {Api(s.base_url).get("/api/push/key").json()["public_key"] for s in cluster.servers}
            assert len(keys) == 1, "every process signs with the key stored by the first"
            service.server_key = keys.pop()

            aki, ben = Api.new_player(cluster.base_url, "Aki"), Api.new_player(cluster.base_url, "Ben")
            room_id = aki.post("/api/rooms", {"game": "synomilia", "seats": 2,
                                              "options": {"reveal_delay": 0, "turn_seconds": 0}}).json()["id"]
            assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
            assert ben.post("/api/me/push-subscriptions", service.subscriber("ben").subscription(service.base)).status_code == 201
            assert ben.put("/api/me/notifications", {"kinds": ALL_KINDS}).status_code == 200
            started = aki.post(f"/api/rooms/{room_id}/start")
            assert started.status_code == 200, started.text
            match_id = started.json()["match_id"]

            # Moves through the proxy (round robin: most reach a process that forwards them).
            rng, apis = random.Random(3), {0: aki, 1: ben}
            for _ in range(10):
                step(apis, room_id, rng)
            turns = turns_of(postgres_url, match_id, 1)
            assert turns >= 2
            assert [p.payload["kind"] for p in steady(service, "ben", turns)] == ["your_turn"] * turns

            # A mention typed on a process that does not own the match: pushed once.
            owner = server_of(cluster, owner_epoch(postgres_url, match_id)[1])
            elsewhere = next(s for s in cluster.servers if s is not owner)
            sock = Socket(elsewhere.ws_url, room_id, aki.token)
            try:
                sock.send({"type": "chat", "text": "your move, @Ben", "channel": "room"})
                pushes = steady(service, "ben", turns + 1)
            finally:
                sock.close()
            assert pushes[-1].payload["kind"] == "chat_mention" and pushes[-1].payload["body"] == "your move, @Ben"

            # Aki resigns through the proxy: the end, once.
            version = aki.get(f"/api/rooms/{room_id}/view").json()["version"]
            assert aki.post(f"/api/rooms/{room_id}/actions",
                            {"action": {"platform": "resign"}, "version": version}).status_code == 200
            pushes = steady(service, "ben", turns + 2)
            assert pushes[-1].payload["kind"] == "match_ended"
            assert service.problems == []
    finally:
        service.close()
