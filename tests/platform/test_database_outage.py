"""The database becomes unreachable mid-match (a TCP proxy between the server and PostgreSQL is
cut, then restored): actions are refused with ``unavailable`` (503 + Retry-After over REST, an
``error`` on the socket), no view is pushed, nothing is half-applied, other requests answer 503
rather than 500; once the link is back, play resumes by itself and no acknowledged action is lost."""

from __future__ import annotations

import random
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.support.clients import Socket
from tests.support.databases import KINDS
from tests.support.driver import play_over_rest, setup_room, stored_match
from tests.support.tcp_proxy import server_behind_proxy

pytestmark = pytest.mark.every_database  # tests/conftest.py


def refused_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"]["code"] == "unavailable" and int(response.headers["Retry-After"]) >= 1


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind == "postgresql"])
def test_actions_during_a_database_outage(kind, tmp_path):
    with server_behind_proxy(kind, tmp_path) as (server, proxy, url):
        room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"],
                                            {"reveal_delay": 0, "turn_seconds": 0})
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        sockets = {0: Socket(server.ws_url, room_id, host.token), 1: Socket(server.ws_url, room_id, guest.token)}
        first = host.get(f"/api/rooms/{room_id}/view").json()
        acked = []
        action = first["legal_actions"][0]
        assert host.post(f"/api/rooms/{room_id}/actions", {"action": action, "version": 0}).status_code == 200
        acked.append((0, action))
        for sock in sockets.values():
            sock.latest_view(version=1)

        proxy.cut()
        guest_view = sockets[1].last_view
        guest_action = guest_view["legal_actions"][0]
        refused_unavailable(guest.post(f"/api/rooms/{room_id}/actions", {"action": guest_action, "version": 1}))
        sockets[1].send({"type": "action", "action": guest_action, "version": 1})
        error = sockets[1].recv_until(lambda m: m["type"] in ("error", "view"))
        assert error["type"] == "error" and error["code"] == "unavailable"
        refused_unavailable(httpx.post(f"{server.base_url}/api/players", json={"name": "Late"}))
        refused_unavailable(host.post("/api/rooms", {"game": "synomilia", "seats": 2}))
        time.sleep(0.3)
        for sock in sockets.values():  # nothing was pushed: no view past version 1
            with pytest.raises(TimeoutError):
                sock.recv_until(lambda m: m["type"] == "view", timeout=0.3)
        spectator = httpx.get(f"{server.base_url}/api/rooms/{room_id}/view").json()  # needs no database
        assert spectator["version"] == 1  # memory holds what was committed, nothing more

        proxy.restore()
        deadline = time.monotonic() + 20
        while True:  # the first calls may still meet connections the cut left behind
            response = guest.post(f"/api/rooms/{room_id}/actions", {"action": guest_action, "version": 1})
            if response.status_code == 200 or time.monotonic() > deadline:
                break
            refused_unavailable(response)
            time.sleep(0.2)
        assert response.status_code == 200, response.text
        acked.append((1, guest_action))
        assert sockets[0].latest_view(version=2)["version"] == 2  # pushed once committed
        play_over_rest({0: host, 1: guest}, room_id, random.Random(5))
        match, log = stored_match(url, first["match_id"])
        assert log[:len(acked)] == acked  # no acknowledged action lost, none applied twice
        assert match.status == "finished" and match.outcome is not None


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind == "postgresql"])
def test_a_socket_opened_during_an_outage_stays_without_the_chat_history(kind, tmp_path):
    """A spectator's socket needs no database to watch a running match (the room and match are in
    memory), but its chat history does: opened during an outage, it is told ``unavailable`` and
    stays open (it used to end on the history's unhandled error), then sees play resume."""
    with server_behind_proxy(kind, tmp_path) as (server, proxy, url):
        room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"],
                                            {"reveal_delay": 0, "turn_seconds": 0})
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        first = host.get(f"/api/rooms/{room_id}/view").json()
        proxy.cut()
        watcher = Socket(server.ws_url, room_id)
        assert watcher.latest_view()["version"] == first["version"]
        error = watcher.recv_until(lambda m: m["type"] in ("error", "chat_history"))
        assert error["type"] == "error" and error["code"] == "unavailable"
        proxy.restore()
        deadline = time.monotonic() + 20
        while True:  # the first calls may still meet connections the cut left behind
            response = host.post(f"/api/rooms/{room_id}/actions",
                                 {"action": first["legal_actions"][0], "version": first["version"]})
            if response.status_code == 200 or time.monotonic() > deadline:
                break
            refused_unavailable(response)
            time.sleep(0.2)
        assert response.status_code == 200, response.text
        assert watcher.latest_view(version=first["version"] + 1)["version"] > first["version"]


@pytest.mark.parametrize("database_kind", [kind for kind in KINDS if kind == "postgresql"], indirect=True)
def test_the_action_writer_meets_a_connection_the_database_closed(server, database_url):
    """The action writer does not test its connection before each batch (a round trip per commit):
    when the database has closed it (a restart, an administrator's ``pg_terminate_backend``), the
    next move fails at its first statement, before any commit, and is written again on a new
    connection: the player sees the move accepted, not ``unavailable``."""
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"],
                                        {"reveal_delay": 0, "turn_seconds": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    apis = {0: host, 1: guest}
    for _ in range(3):
        view = host.get(f"/api/rooms/{room_id}/view").json()
        seat = view["awaiting"][0]
        mover = apis[seat].get(f"/api/rooms/{room_id}/view").json()
        admin = create_engine(database_url)
        with admin.connect() as connection:  # every other connection to this database, the writer's too
            closed = connection.execute(text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar()
        admin.dispose()
        assert closed >= 1
        response = apis[seat].post(f"/api/rooms/{room_id}/actions",
                                   {"action": mover["legal_actions"][0], "version": mover["version"]})
        assert response.status_code == 200, response.text
    _, log = stored_match(database_url, view["match_id"])
    assert len(log) == 3  # each move stored once
