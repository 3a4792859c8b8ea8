"""Ending a match early in a cluster (app/endings): a resign or an abort vote sent to a process
that does not own the match is forwarded like any action and ends the match on the owner; the
sockets on every process see the votes and the end; a bot playing for a player who left is marked
on every process's room summary, and the notice reaches every process's sockets."""

from __future__ import annotations

from tests.cluster.test_losing_a_node import owner_epoch, server_of
from tests.support.clients import Api, Socket
from tests.support.cluster import LocalCluster


def test_a_resign_sent_to_a_mirror_ends_the_match_on_the_owner(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path) as cluster:
        aki, ben = Api.new_player(cluster.base_url, "Aki"), Api.new_player(cluster.base_url, "Ben")
        room_id = aki.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}, "seats": 2}).json()["id"]
        assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
        started = aki.post(f"/api/rooms/{room_id}/start")
        assert started.status_code == 200, started.text
        match_id = started.json()["match_id"]
        owner = server_of(cluster, owner_epoch(postgres_url, match_id)[1])
        elsewhere = next(s for s in cluster.servers if s is not owner)
        a = Socket(elsewhere.ws_url, room_id, aki.token)
        b = Socket(owner.ws_url, room_id, ben.token)
        a.latest_view()
        b.latest_view()

        # an abort vote through the mirror: the owner logs it, every process's sockets see it
        a.send({"type": "action", "action": {"platform": "abort"}, "version": 0, "id": "v"})
        assert a.recv_until(lambda m: m["type"] == "ack")["ref"] == "v"
        assert b.recv_until(lambda m: m["type"] == "view" and m["platform"]["abort_votes"])["platform"]["abort_votes"] == [0]

        # Ben leaves on the owner: the bot is marked on the mirror's summaries too, with the notice
        assert Api(owner.base_url, ben.token).post(f"/api/rooms/{room_id}/leave").status_code == 200
        heard = []  # the notice and the summary come by different paths: in either order
        a.recv_until(lambda m: heard.append(m) or (
            any(h["type"] == "room" and h["room"]["seats"][1]["zombie"] for h in heard)
            and any(h["type"] == "chat" for h in heard)), timeout=15)
        notice = next(h["message"] for h in heard if h["type"] == "chat")
        assert notice["notice"] == "bot_plays" and notice["seat"] == 1

        # Aki resigns through the process that does not own the match
        a.send({"type": "action", "action": {"platform": "resign"}, "version": 0, "id": "r"})
        ended = a.recv_until(lambda m: m["type"] == "view" and m["outcome"] is not None)
        assert ended["outcome"]["ending"] == "resigned" and ended["outcome"]["ranks"] == [1, 0]
        assert b.recv_until(lambda m: m["type"] == "view" and m["outcome"] is not None)["outcome"] == ended["outcome"]
        record = Api(elsewhere.base_url).get(f"/api/matches/{match_id}").json()
        assert record["status"] == "finished" and record["ending"] == "resigned"
