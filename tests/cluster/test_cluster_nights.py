"""A game night in a cluster (issue 33): the matches of one night are owned by different
processes; a resign sent to a process that does not own the match ends it on the owner, whose
finishing transaction counts it in the night; the next table is opened through another process,
which owns its match; a socket on a third process follows the old table to the new one; and every
process reads the same scoreboard, equal to the match records."""

from __future__ import annotations

from app.nights import scoring
from tests.cluster.test_losing_a_node import owner_epoch, server_of
from tests.support.clients import Api, Socket
from tests.support.cluster import LocalCluster


def totals_from_records(api: Api, night: dict) -> dict[str, int]:
    totals: dict[str, int] = {}
    for match in night["matches"]:
        record = api.get(f"/api/matches/{match['match_id']}").json()
        for seat in record["seats"]:
            totals[seat["player_id"]] = totals.get(seat["player_id"], 0) + scoring.points("places", seat["rank"])
    return totals


def test_a_night_whose_next_table_is_owned_by_another_process(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path) as cluster:
        one, two, three = cluster.servers[:3]
        aki, ben, cho = (Api.new_player(one.base_url, name) for name in ("Aki", "Ben", "Cho"))
        room_id = aki.post("/api/rooms", {"game": "three_magic", "seats": 3}).json()["id"]
        for api in (ben, cho):
            assert api.post(f"/api/rooms/{room_id}/join").status_code == 200
        night_id = aki.post("/api/nights", {"room_id": room_id}).json()["id"]
        started = Api(one.base_url, aki.token).post(f"/api/rooms/{room_id}/start")
        assert started.status_code == 200, started.text
        owner = server_of(cluster, owner_epoch(postgres_url, started.json()["match_id"])[1])
        elsewhere = [s for s in cluster.servers if s is not owner]
        watcher = Socket(elsewhere[1].ws_url, room_id, cho.token)
        watcher.latest_view()

        # Ben resigns through a process that does not own the match: forwarded, counted on the owner
        resigned = Api(elsewhere[0].base_url, ben.token).post(
            f"/api/rooms/{room_id}/actions", {"action": {"platform": "resign"}, "version": 0})
        assert resigned.status_code == 200, resigned.text
        watcher.recv_until(lambda m: m["type"] == "view" and m["outcome"] is not None)
        night = Api(three.base_url).get(f"/api/nights/{night_id}").json()
        assert night["played"] == 1 and night["totals"] == totals_from_records(aki, night)

        # the host opens the next table through another process: it owns the new match
        opener = elsewhere[0]
        night = Api(opener.base_url, aki.token).post(f"/api/nights/{night_id}/next", {"game": "mipolin"}).json()
        second = night["room"]
        assert second["status"] == "running" and second["game"] == "mipolin"
        assert server_of(cluster, owner_epoch(postgres_url, second["match_id"])[1]) is opener  # claimed like a Start
        moved = watcher.recv_until(lambda m: m["type"] == "room" and m["room"]["next_room_id"])
        assert moved["room"]["next_room_id"] == second["id"]  # the page on the third process follows

        # a resign for the second match through a process that is not its owner
        second_owner = server_of(cluster, owner_epoch(postgres_url, second["match_id"])[1])
        other = next(s for s in cluster.servers if s is not second_owner)
        follower = Socket(other.ws_url, second["id"], aki.token)
        follower.latest_view()
        assert Api(other.base_url, cho.token).post(
            f"/api/rooms/{second['id']}/actions", {"action": {"platform": "resign"}, "version": 0}).status_code == 200
        follower.recv_until(lambda m: m["type"] == "view" and m["outcome"] is not None)
        boards = [Api(s.base_url).get(f"/api/nights/{night_id}").json() for s in cluster.servers]
        assert all(b["played"] == 2 and b["totals"] == boards[0]["totals"] for b in boards)
        assert boards[0]["totals"] == totals_from_records(aki, boards[0])
        assert len({m["first_player_id"] for m in boards[0]["matches"]}) == 2  # the first move went round
