"""A room over three processes: presence and spectator counts, chat, the chat rate limit and the
bound on a player's sockets are the same whichever process a socket is on; sockets that join a running match on a process that
does not own it get their seat's view and the chat history at once; every process says a room is
running before it pushes the match's first view."""

from __future__ import annotations

import random
import time

import pytest

from tests.cluster.conftest import CLUSTER_KINDS
from tests.support.clients import Api, Socket
from tests.support.cluster import LocalCluster
from tests.support.databases import migrated_database
from tests.support.driver import setup_room, status_before_first_view


@pytest.fixture(scope="module", params=CLUSTER_KINDS)
def shared_cluster(request, tmp_path_factory):
    """One cluster for this module's tests (three server processes and HAProxy took a start per
    test): each test makes its own players and rooms. 5 chat credits per 600 s (the default refills
    them over 10 s, so a loaded machine that took 2 s over the seven messages of the chat test got
    a sixth credit back, and one refusal less), at most 3 sockets per player, graces from 1 s (the
    zombie test's room waits 1 s, not the 20 s floor)."""
    folder = tmp_path_factory.mktemp("cluster")
    with migrated_database(request.param, folder) as url:
        cluster = LocalCluster(url, folder, MAX_SOCKETS_PER_PLAYER="3", RATE_CHAT_PER_TOKEN="5/600",
                               MIN_GRACE_SECONDS="1")
        cluster.database_url = url
        with cluster:
            yield cluster


@pytest.fixture
def cluster(shared_cluster, request):
    yield shared_cluster
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:  # shown with the failure: what each process logged last
        for index, server in enumerate(shared_cluster.servers):
            print(f"--- server {index} (port {server.port}), last lines ---")
            print("".join(server.output[-80:]))


def room_update(sock: Socket, predicate, timeout: float = 10.0) -> dict:
    """The first room summary on ``sock`` that satisfies ``predicate``; on a timeout, says what the
    last summary seen showed (seats' presence and spectators)."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            message = sock.recv_until(lambda m: m["type"] == "room", timeout=max(deadline - time.monotonic(), 0.01))
        except TimeoutError:
            shown = last and ([(s["name"], s["connected"]) for s in last["seats"]], last["spectators"], last["status"])
            raise TimeoutError(f"no room summary matched in {timeout} s; the last one: {shown}") from None
        last = message["room"]
        if predicate(last):
            return last


def test_every_process_says_the_room_is_running_before_the_first_view(cluster):
    one, two, three = cluster.servers
    room_id, (aki, ben) = setup_room(cluster.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    sockets = [Socket(one.ws_url, room_id, aki.token), Socket(two.ws_url, room_id, ben.token),
               Socket(three.ws_url, room_id)]
    for sock in sockets:
        sock.recv_until(lambda m: m["type"] == "room")
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    assert [status_before_first_view(sock) for sock in sockets] == ["running"] * 3


def test_presence_chat_and_rate_limits_across_processes(cluster):
    # (the module's cluster: 5 chat credits per 600 s, at most 3 sockets per player)
    one, two, three = cluster.servers
    room_id, (aki, ben) = setup_room(cluster.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    # Joining the running match on three different processes (at most one of them owns it).
    a = Socket(one.ws_url, room_id, aki.token)
    b = Socket(two.ws_url, room_id, ben.token)
    watcher = Socket(three.ws_url, room_id)
    for sock, seat in ((a, 0), (b, 1), (watcher, None)):
        view = sock.latest_view()
        assert view["seat"] == seat and view["version"] == 0
    everyone_here = room_update(a, lambda r: all(s["connected"] for s in r["seats"]) and r["spectators"] == 1)
    assert [s["name"] for s in everyone_here["seats"]] == ["Aki", "Ben"]

    b.send({"type": "chat", "text": "よろしく"})
    for sock in (a, watcher):
        said = sock.recv_until(lambda m: m["type"] == "chat")["message"]
        assert (said["name"], said["text"]) == ("Ben", "よろしく")

    # One player's chat credits (5 per 600 s here) are spent from two processes together.
    b2 = Socket(three.ws_url, room_id, ben.token)
    replies = []
    for i in range(6):
        (b if i % 2 == 0 else b2).send({"type": "chat", "text": f"m{i}"})
        sock = b if i % 2 == 0 else b2
        replies.append(sock.recv_until(lambda m: m["type"] == "error" or
                                       (m["type"] == "chat" and m["message"]["text"] == f"m{i}")))
    assert [r["type"] for r in replies] == ["chat"] * 4 + ["error"] * 2, replies  # "よろしく" took one
    assert all(r["code"] == "rate_limited" for r in replies if r["type"] == "error")

    # Ben's sockets (at most 3) are counted over every process: his third is let in, his
    # fourth refused, on whichever process it opens.
    b3 = Socket(one.ws_url, room_id, ben.token)
    assert b3.latest_view()["seat"] == 1
    b4 = Socket(two.ws_url, room_id, ben.token)
    assert b4.recv()["code"] == "too_many_sockets"
    b3.close()

    watcher.close()
    b2.close()
    room_update(a, lambda r: r["spectators"] == 0)
    b.close()
    gone = room_update(a, lambda r: not r["seats"][1]["connected"])
    assert gone["seats"][0]["connected"]


def test_zombie_seats_count_sockets_on_every_process(cluster):
    """The owner decides zombie seats on everyone's presence: a player whose only socket is on
    another process is present; once it closes, the bot takes the seat after the grace period."""
    from tests.cluster.test_losing_a_node import owner_epoch, server_of
    from tests.support.clients import Api

    aki, ben = Api.new_player(cluster.base_url, "Aki"), Api.new_player(cluster.base_url, "Ben")
    room_id = aki.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}, "seats": 2,
                                      "grace_seconds": 1.0}).json()["id"]
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    started = aki.post(f"/api/rooms/{room_id}/start")
    assert started.status_code == 200, started.text
    owner = server_of(cluster, owner_epoch(cluster.database_url, started.json()["match_id"])[1])
    elsewhere = next(s for s in cluster.servers if s is not owner)
    a = Socket(elsewhere.ws_url, room_id, aki.token)
    b = Socket(owner.ws_url, room_id, ben.token)
    time.sleep(2.5)  # longer than the grace period: Aki is present (on another process)
    here = room_update(b, lambda r: all(s["connected"] for s in r["seats"]))
    assert not any(s["zombie"] for s in here["seats"])
    a.close()
    replaced = room_update(b, lambda r: r["seats"][0]["zombie"], timeout=15)
    assert not replaced["seats"][0]["connected"] and not replaced["seats"][1]["zombie"]


def read_view(api: Api, room_id: str) -> dict:
    answer = api.get(f"/api/rooms/{room_id}/view")
    assert answer.status_code == 200, (api.base_url, answer.status_code, answer.text)
    return answer.json()


def test_a_rest_read_through_any_process_shows_every_acknowledged_action(cluster):
    """Read your writes behind a load balancer: once one process acknowledged an action, a view
    read through any other process has that version (a mirror asks the owner rather than answer
    from what has reached it: the owner's published views are a moment behind the answer)."""
    room_id, (aki, ben) = setup_room(cluster.base_url, "synomilia", ["Aki", "Ben"],
                                     {"reveal_delay": 0, "turn_seconds": 0})
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    through = [{player: Api(server.base_url, api.token) for player, api in (("aki", aki), ("ben", ben))}
               for server in cluster.servers]
    rng, acknowledged = random.Random(11), 0
    for turn in range(24):
        here, there = through[turn % 3], through[(turn + 1) % 3]
        mover = next((name for name in ("aki", "ben") if read_view(here[name], room_id)["legal_actions"]), None)
        if mover is None:
            break  # the match is over
        view = read_view(here[mover], room_id)
        assert view["version"] >= acknowledged
        answer = here[mover].post(f"/api/rooms/{room_id}/actions",
                                  {"action": rng.choice(view["legal_actions"]), "version": view["version"]})
        assert answer.status_code == 200, answer.text
        acknowledged = answer.json()["version"]
        assert acknowledged > view["version"]
        for name in ("aki", "ben"):
            assert read_view(there[name], room_id)["version"] >= acknowledged
    assert turn >= 10
