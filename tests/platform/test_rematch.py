"""Rematch over the REST API and the socket: after the end, every seated person confirms (bots at
once), the same room starts a new match with the same seats and a new seed, linked from the old
one; refusals change nothing; two last votes at once start exactly one match."""

from __future__ import annotations

import random
import threading

from tests.support.clients import Api, Socket
from tests.support.driver import play_over_rest, setup_room, stored_match


def finished_room(server, names=("Aki", "Ben")):
    room_id, apis = setup_room(server.base_url, "synomilia", list(names), {"reveal_delay": 0})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    play_over_rest(dict(enumerate(apis)), room_id, random.Random(3))
    room = apis[0].get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "finished"
    return room_id, apis, room


def test_two_people_confirm_and_the_same_room_plays_again(server, database_url):
    room_id, (host, guest), old = finished_room(server)
    socket = Socket(server.ws_url, room_id, guest.token)
    socket.latest_view()
    stranger = Api.new_player(server.base_url, "Cho")
    assert stranger.post(f"/api/rooms/{room_id}/rematch").json()["error"]["code"] == "not_seated"

    first = host.post(f"/api/rooms/{room_id}/rematch").json()
    assert first["confirmed"] == [0] and first["waiting"] == [1] and first["rematch_id"] is None
    assert host.post(f"/api/rooms/{room_id}/rematch").json()["confirmed"] == [0]  # idempotent
    pushed = socket.recv_until(lambda m: m["type"] == "rematch")
    assert pushed["confirmed"] == [0] and pushed["match_id"] == old["match_id"]
    assert host.get(f"/api/rooms/{room_id}").json()["status"] == "finished"

    last = guest.post(f"/api/rooms/{room_id}/rematch").json()
    assert last["confirmed"] == [0, 1] and last["rematch_id"]
    room = host.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "running" and room["match_id"] == last["rematch_id"] != old["match_id"]
    assert [s["player_id"] for s in room["seats"]] == [s["player_id"] for s in old["seats"]]
    view = socket.recv_until(lambda m: m["type"] == "view" and m["match_id"] == last["rematch_id"])
    assert view["version"] == 0 and view["outcome"] is None

    links = host.get(f"/api/matches/{old['match_id']}/rematch").json()
    assert links == {"match_id": old["match_id"], "rematch_of": None, "rematch_id": last["rematch_id"]}
    assert host.get(f"/api/matches/{last['rematch_id']}/rematch").json()["rematch_of"] == old["match_id"]
    # an unknown match is not found, and an id that cannot be one is refused (not echoed back)
    assert host.get(f"/api/matches/{'0' * 32}/rematch").json()["error"]["code"] == "not_found"
    assert host.get(f"/api/matches/{'x' * 5000}/rematch").status_code == 422
    assert host.get(f"/api/rooms/{'x' * 5000}/rematch").status_code == 422
    # a new seed: the new match is not the old one again
    seeds = {stored_match(database_url, m)[0].seed for m in (old["match_id"], last["rematch_id"])}
    assert len(seeds) == 2
    # while the rematch runs nobody can ask for another one
    assert host.post(f"/api/rooms/{room_id}/rematch").json()["error"]["code"] == "no_rematch"
    socket.close()


def test_bots_confirm_at_once(server):
    host = Api.new_player(server.base_url, "Aki")
    room_id = host.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}}).json()["id"]
    host.post(f"/api/rooms/{room_id}/bots", {"seat": 1})
    host.post(f"/api/rooms/{room_id}/start")
    play_over_rest({0: host}, room_id, random.Random(4))
    state = host.get(f"/api/rooms/{room_id}/rematch").json()
    assert state["available"] and state["confirmed"] == [1] and state["waiting"] == [0]
    started = host.post(f"/api/rooms/{room_id}/rematch").json()
    assert started["rematch_id"]
    assert host.get(f"/api/rooms/{room_id}").json()["status"] == "running"


def test_a_rematch_keeps_each_bot_at_its_level(server):
    host = Api.new_player(server.base_url, "Aki")
    room_id = host.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}}).json()["id"]
    assert host.post(f"/api/rooms/{room_id}/bots", {"seat": 1, "level": "strong"}).status_code == 200
    host.post(f"/api/rooms/{room_id}/start")
    play_over_rest({0: host}, room_id, random.Random(5))
    assert host.post(f"/api/rooms/{room_id}/rematch").json()["rematch_id"]
    room = host.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "running" and [s["bot_level"] for s in room["seats"]] == [None, "strong"]


def test_no_rematch_before_the_end(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    assert host.post(f"/api/rooms/{room_id}/rematch").json()["error"]["code"] == "no_rematch"
    host.post(f"/api/rooms/{room_id}/start")
    response = guest.post(f"/api/rooms/{room_id}/rematch")
    assert response.status_code == 409 and response.json()["error"]["code"] == "no_rematch"
    assert Api(server.base_url).post(f"/api/rooms/{room_id}/rematch").status_code == 401
    assert host.post("/api/rooms/nope/rematch").status_code == 404


def test_last_votes_at_once_start_exactly_one_match(server):
    room_id, apis, old = finished_room(server, ("Aki", "Ben", "Cho")[:2])
    results = []
    barrier = threading.Barrier(2)

    def vote(api):
        barrier.wait()
        results.append(api.post(f"/api/rooms/{room_id}/rematch").json())

    threads = [threading.Thread(target=vote, args=(api,)) for api in apis]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    started = {r["rematch_id"] for r in results if r.get("rematch_id")}
    assert len(started) == 1, results
    room = apis[0].get(f"/api/rooms/{room_id}").json()
    assert room["match_id"] in started and room["status"] == "running"


def test_a_rematch_over_the_sockets_starts_on_the_same_sockets(server):
    room_id, apis, old = finished_room(server)
    sockets = [Socket(server.ws_url, room_id, api.token) for api in apis]
    for socket in sockets:
        socket.latest_view()
    watcher = Socket(server.ws_url, room_id)
    watcher.send({"type": "rematch", "id": "w1"})
    refused = watcher.recv_until(lambda m: m["type"] == "error")
    assert refused["code"] == "not_seated" and refused["ref"] == "w1"

    sockets[0].send({"type": "rematch"})
    for socket in sockets:
        pushed = socket.recv_until(lambda m: m["type"] == "rematch")
        assert pushed["confirmed"] == [0] and pushed["waiting"] == [1] and pushed["rematch_id"] is None
    assert apis[0].get(f"/api/rooms/{room_id}").json()["status"] == "finished"

    sockets[1].send({"type": "rematch"})
    last = sockets[0].recv_until(lambda m: m["type"] == "rematch" and m["rematch_id"])
    assert last["confirmed"] == [0, 1]
    for socket in sockets:  # the new match's first view comes before or after the last rematch state
        new_view = lambda m: m["type"] == "view" and m["match_id"] == last["rematch_id"]  # noqa: E731
        view = next(filter(new_view, socket.received), None) or socket.recv_until(new_view)
        assert view["version"] == 0 and view["outcome"] is None and view["legal_actions"]
    room = apis[0].get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "running" and room["match_id"] == last["rematch_id"] != old["match_id"]
    sockets[0].send({"type": "rematch", "id": 7})  # the new match is not over: refused, nothing changes
    assert sockets[0].recv_until(lambda m: m["type"] == "error") == {
        "type": "error", "code": "no_rematch", "message": "a rematch needs a finished match; the room is running", "ref": 7}
    for socket in (*sockets, watcher):
        socket.close()
