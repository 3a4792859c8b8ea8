"""A correspondence deadline in a three-process cluster whose owner dies: the owner is killed
(kill -9) while the deadline is a day away; the deadline passes while the room has no owner; the
process that takes the room over re-arms it from PostgreSQL and fires the host's choice exactly
once (the other processes, which only mirror the room, never fire it)."""

from __future__ import annotations

import time

from tests.cluster.test_losing_a_node import owner_epoch, server_of, wait_for_new_owner
from tests.platform.test_correspondence import stored_deadlines, wait_view
from tests.platform.test_correspondence_restart import fired, move_deadline
from tests.support.clients import Api
from tests.support.cluster import LocalCluster


def test_the_new_owner_fires_the_deadline_once(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path) as cluster:
        aki, ben, cho = (Api.new_player(cluster.base_url, name) for name in ("Aki", "Ben", "Cho"))
        room = aki.post("/api/rooms", {"game": "mipolin", "seats": 3, "pace": "2d", "on_deadline": "lose"}).json()
        for api in (ben, cho):
            assert api.post(f"/api/rooms/{room['id']}/join").status_code == 200
        started = aki.post(f"/api/rooms/{room['id']}/start")
        assert started.status_code == 200, started.text
        match_id = started.json()["match_id"]
        view = wait_view(aki, room["id"], lambda v: bool(v.get("awaiting")))
        late = [s for s in view["awaiting"] if s >= 0][0]
        until = time.monotonic() + 10
        while late not in stored_deadlines(postgres_url, match_id):
            assert time.monotonic() < until, "the first deadline was never stored"
            time.sleep(0.05)
        epoch, node = owner_epoch(postgres_url, match_id)
        server_of(cluster, node).kill()
        move_deadline(postgres_url, match_id, late, time.time() - 1)  # two days passed meanwhile
        wait_for_new_owner(postgres_url, match_id, epoch, timeout=10.0)
        ended = wait_view(aki, room["id"], lambda v: v["outcome"] is not None, timeout=20)
        assert ended["outcome"]["ending"] == "timeout"
        assert ended["outcome"]["ranks"][late] == max(ended["outcome"]["ranks"])
        assert [(a["kind"], a["seat"]) for a in fired(postgres_url, match_id)] == [("timeout", late)]
        assert stored_deadlines(postgres_url, match_id) == {}
        # every remaining process answers with the same end; nothing more was logged
        for server in cluster.servers:
            if server.process is not None and server.process.poll() is None:
                other = Api(server.base_url, aki.token).get(f"/api/rooms/{room['id']}/view").json()
                assert other["outcome"] == ended["outcome"]
        assert len(fired(postgres_url, match_id)) == 1


def test_a_vacation_moves_the_deadline_every_process_shows(postgres_url, tmp_path):
    """The vacation is asked of one process; the owner (maybe another) reads the deadlines again
    and every process, owner or mirror, shows the moved deadline at the same version."""
    with LocalCluster(postgres_url, tmp_path) as cluster:
        aki, ben = (Api.new_player(cluster.base_url, name) for name in ("Aki", "Ben"))
        room = aki.post("/api/rooms", {"game": "synomilia", "pace": "1d"}).json()
        assert ben.post(f"/api/rooms/{room['id']}/join").status_code == 200
        match_id = aki.post(f"/api/rooms/{room['id']}/start").json()["match_id"]
        until = time.monotonic() + 10
        while set(stored_deadlines(postgres_url, match_id)) != {0, 1}:
            assert time.monotonic() < until, "the first deadlines were never stored"
            time.sleep(0.05)
        before = stored_deadlines(postgres_url, match_id)
        direct = [Api(server.base_url, ben.token) for server in cluster.servers]
        for api in direct:  # every process holds the room (a mirror, or the owner)
            wait_view(api, room["id"], lambda v: v["deadlines"].get("0") == int(before[0] * 1000))
        epoch, node = owner_epoch(postgres_url, match_id)
        asked = next(s for s in cluster.servers if s is not server_of(cluster, node))  # not the owner
        response = Api(asked.base_url, aki.token).post("/api/me/vacation", {"days": 2})
        assert response.status_code == 200, response.text
        moved = int((before[0] + 2 * 86_400) * 1000)
        assert stored_deadlines(postgres_url, match_id)[0] == before[0] + 2 * 86_400
        for api in direct:
            view = wait_view(api, room["id"], lambda v: v["deadlines"].get("0") == moved)
            assert view["version"] == 0 and view["deadlines"]["1"] == int(before[1] * 1000)


def test_my_tables_says_whose_turn_on_every_process(postgres_url, tmp_path):
    """"My tables" asked of any process, the room's owner or not, says whose turn it is there and
    counts the tables waiting for the caller: the list reads the live match wherever it runs."""
    with LocalCluster(postgres_url, tmp_path) as cluster:
        aki, ben = (Api.new_player(cluster.base_url, name) for name in ("Aki", "Ben"))
        room = aki.post("/api/rooms", {"game": "synomilia", "pace": "1d"}).json()
        assert ben.post(f"/api/rooms/{room['id']}/join").status_code == 200
        assert aki.post(f"/api/rooms/{room['id']}/start").status_code == 200
        view = wait_view(aki, room["id"], lambda v: bool(v.get("awaiting")))
        awaited = {s for s in view["awaiting"] if s >= 0}
        for server in cluster.servers:  # the owner and the processes that only mirror the room
            for api, seat in ((aki, 0), (ben, 1)):
                listed = Api(server.base_url, api.token).get("/api/me/tables")
                assert listed.status_code == 200, listed.text
                table = next(t for t in listed.json()["tables"] if t["room_id"] == room["id"])
                assert [a["seat"] for a in table["awaiting"]] == sorted(awaited), (server.base_url, table)
                assert table["your_turn"] == (seat in awaited)
                assert listed.json()["waiting_for_you"] == (1 if seat in awaited else 0)
