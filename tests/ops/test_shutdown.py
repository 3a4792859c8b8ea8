"""SIGTERM in the middle of matches, the server a real process started with the README's command:
readiness turns false first, actions already being applied commit and reach the sockets, every
socket is closed with 1012 "service restart", the process exits 0 within SHUTDOWN_TIMEOUT, and
after a restart every client resumes from the version it had — nothing it saw is missing from
the database, nothing is applied twice, and the match plays on to its end."""

from __future__ import annotations

import json
import random
import signal
import time

import httpx
from websockets.exceptions import ConnectionClosed

from tests.live.helpers import room_id_of
from tests.support.clients import Api, Socket
from tests.support.driver import check_pushed_views, play_over_sockets, setup_room, stored_match
from tests.support.server import ADMIN_TOKEN, ServerProcess
from tests.support.waiting import wait_for

SHUTDOWN_TIMEOUT = 10.0
GAME, OPTIONS = "synomilia", {"reveal_delay": 0}


def close_code(sock: Socket, timeout: float = 15.0) -> int:
    """Read until the server closes the socket; the close code it sent."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            sock.recv(timeout=deadline - time.monotonic())
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else -1
        except TimeoutError:
            break
    raise AssertionError("the server did not close the socket")


def terminate(server: ServerProcess) -> float:
    """SIGTERM; returns how long the process took to exit (it must exit 0)."""
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    code = server.process.wait(timeout=SHUTDOWN_TIMEOUT + 5)
    assert code == 0, "".join(server.output[-30:])
    return time.monotonic() - started


def resume(server: ServerProcess, room_id: str, old: Socket, token: str | None) -> Socket:
    """Reconnect with the last version seen, keeping what the old socket received."""
    version = old.last_view["version"] if old.last_view else None
    sock = Socket(server.ws_url, room_id, token, version=version)
    sock.received = list(old.received)
    sock.last_view = old.last_view
    return sock


def test_sigterm_mid_match_closes_with_1012_and_clients_resume(database_url):
    # (UNATTENDED_TABLES_PLAY: the room of bots alone below plays by itself)
    server = ServerProcess(database_url, env={"SHUTDOWN_TIMEOUT": str(SHUTDOWN_TIMEOUT), "UNATTENDED_TABLES_PLAY": "true"})
    server.start()
    try:
        room_id, apis = setup_room(server.base_url, GAME, ["Aki", "Ben"], OPTIONS)
        assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
        players = {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}
        watcher = Socket(server.ws_url, room_id)
        # A room of bots acting every 20 ms: actions are being applied when the signal lands. Three
        # Magic, whose match lasts minutes (a Makelandia match of bots could end before the signal,
        # and then nothing would be left to play on after the restart).
        host = Api.new_player(server.base_url, "Host")
        bot_room = room_id_of(host.post("/api/rooms", {"game": "three_magic", "seats": 3, "options": {"call_window": 0.5},
                                                       "bot_think_seconds": 0.02}).json())
        assert host.post(f"/api/rooms/{bot_room}/leave").status_code == 200
        for seat in range(3):
            assert host.post(f"/api/rooms/{bot_room}/bots", {"seat": seat}).status_code == 200
        assert host.post(f"/api/rooms/{bot_room}/start").status_code == 200
        bot_watcher = Socket(server.ws_url, bot_room)
        bot_watcher.latest_view()
        wait_for(lambda: bot_watcher.latest_view()["version"] >= 5, what="bots to be playing")

        rng = random.Random(19)
        for _ in range(4):  # a few moves, then one in flight
            view = apis[0].get(f"/api/rooms/{room_id}/view").json()
            actor = next(s for s in view["awaiting"] if s >= 0)
            mine = players[actor].latest_view(version=view["version"])
            players[actor].send({"type": "action", "action": rng.choice(mine["legal_actions"]), "version": view["version"]})
            players[actor].latest_view(version=view["version"] + 1)
        view = apis[0].get(f"/api/rooms/{room_id}/view").json()
        in_flight_version = view["version"]
        actor = next(s for s in view["awaiting"] if s >= 0)
        mine = players[actor].latest_view(version=in_flight_version)
        players[actor].send({"type": "action", "action": rng.choice(mine["legal_actions"]), "version": in_flight_version})

        took = terminate(server)

        sockets = [*players.values(), watcher, bot_watcher]
        assert [close_code(sock) for sock in sockets] == [1012] * len(sockets)
        assert took <= SHUTDOWN_TIMEOUT + 1.0
        match_id = players[0].last_view["match_id"]
        match, log = stored_match(server.database_url, match_id)
        # The action in flight was either applied, committed and pushed before the close, or not at all.
        # (match.version is the latest snapshot; the log's length is the match's version.)
        assert len(log) in (in_flight_version, in_flight_version + 1)
        assert (players[actor].last_view["version"] == in_flight_version + 1) == (len(log) == in_flight_version + 1)
        for sock in (*players.values(), watcher):
            assert sock.last_view["version"] == len(log)  # every view was delivered before 1012
        bot_match, bot_log = stored_match(server.database_url, bot_watcher.last_view["match_id"])
        assert bot_watcher.last_view["version"] == len(bot_log)

        server.start()
        resumed = {seat: resume(server, room_id, sock, apis[seat].token) for seat, sock in players.items()}
        resumed_watcher = resume(server, room_id, watcher, None)
        for sock in (*resumed.values(), resumed_watcher):
            assert sock.recv_until(lambda m: m["type"] == "view")["version"] == len(log)
            assert not sock.received[-1].get("resync")
        final = play_over_sockets(apis[0], room_id, resumed, rng)
        assert final["outcome"] is not None
        check_pushed_views(server.database_url, match_id, {**resumed, None: resumed_watcher})
        # The bots played on after the restart (their match resumed from the database).
        wait_for(lambda: len(stored_match(server.database_url, bot_match.id)[1]) > len(bot_log),
                 what="the bots to play on")
    finally:
        server.stop()


def test_readiness_is_false_before_anything_stops(database_url):
    """During SHUTDOWN_UNREADY_SECONDS /readyz answers 503 "shutting down" while the API still
    serves (so the load balancer moves new players first); then the process drains and exits 0."""
    server = ServerProcess(database_url, env={"SHUTDOWN_UNREADY_SECONDS": "2"})
    server.start()
    try:
        assert httpx.get(f"{server.base_url}/readyz").json() == {"status": "ready"}
        server.process.send_signal(signal.SIGTERM)
        ready = wait_for(lambda: (r := httpx.get(f"{server.base_url}/readyz")).status_code == 503 and r, timeout=2)
        assert ready.json() == {"status": "unavailable", "reasons": ["shutting down"]}
        assert httpx.get(f"{server.base_url}/api/games").status_code == 200  # still serving meanwhile
        assert httpx.get(f"{server.base_url}/healthz").status_code == 200  # alive: do not kill it
        assert server.process.wait(timeout=SHUTDOWN_TIMEOUT + 5) == 0
    finally:
        server.stop()


def test_draining_refuses_new_work_but_answers_probes(server):
    """Once draining, new requests get 503 ``shutting_down`` (with Retry-After) and new sockets a
    1012 close, so clients retry elsewhere at once; probes and metrics still answer."""
    lifecycle = server.app.state.lifecycle
    lifecycle.shutting_down = lifecycle.draining = True
    try:
        refused = httpx.get(f"{server.base_url}/api/games")
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "shutting_down"
        assert refused.headers["retry-after"] == "1"
        assert httpx.get(f"{server.base_url}/readyz").status_code == 503
        assert httpx.get(f"{server.base_url}/healthz").status_code == 200
        assert httpx.get(f"{server.base_url}/metrics", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).status_code == 200
        sock = Socket(server.ws_url, "any-room")
        assert close_code(sock) == 1012
    finally:
        lifecycle.shutting_down = lifecycle.draining = False  # this process's metrics report it


def test_sigterm_ends_a_stream_with_a_shutting_down_line(database_url):
    """A program reading the NDJSON stream learns that the server is restarting (an ``error``
    line ``shutting_down`` last), not a bare end it would take for a network fault."""
    server = ServerProcess(database_url, env={"SHUTDOWN_TIMEOUT": str(SHUTDOWN_TIMEOUT), "SHUTDOWN_UNREADY_SECONDS": "0"})
    server.start()
    try:
        room_id, (host, guest) = setup_room(server.base_url, GAME, ["Aki", "Ben"], OPTIONS)
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        lines = []
        headers = {"Authorization": f"Bearer {guest.token}"}
        with httpx.stream("GET", f"{server.base_url}/api/rooms/{room_id}/stream", headers=headers, timeout=15) as response:
            assert response.status_code == 200
            for line in response.iter_lines():
                lines.append(json.loads(line))
                if len(lines) == 1:
                    assert lines[0]["type"] == "view"
                    server.process.send_signal(signal.SIGTERM)
        assert lines[-1]["type"] == "error" and lines[-1]["code"] == "shutting_down", lines
        assert server.process.wait(timeout=SHUTDOWN_TIMEOUT + 5) == 0
    finally:
        server.stop()
