"""The live path under load, on real SQLite and PostgreSQL: more sockets and requests than database
connections, a kill -9 while a group commit is in flight, and hundreds of spectators."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.exceptions import ConnectionClosed

from app.settings import Settings

from tests.support.clients import Socket
from tests.support.driver import play_over_sockets, setup_room, stored_match
from tests.support.server import ServerProcess, start_in_thread

pytestmark = pytest.mark.every_database  # tests/conftest.py

NO_RATE_LIMITS = {f"rate_{name}_per_{per}": "off"
                  for name in ("players", "rooms", "actions", "frames", "chat", "sockets") for per in ("token", "ip")
                  if f"rate_{name}_per_{per}" in Settings.model_fields}  # (an unknown RATE_* stops the start)
OPTIONS = {"reveal_delay": 0}


def started_room(server, rng_name: str):
    room_id, apis = setup_room(server.base_url, "synomilia", [f"{rng_name}a", f"{rng_name}b"], OPTIONS)
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    return room_id, apis


def test_more_sockets_and_requests_than_connections_every_room_plays(database_url):
    """Two database connections (and workers) for 8 rooms, 16 sockets and 24 threads of REST
    reads and writes at once: callers wait their turn, every room plays to the end, nothing fails."""
    server = start_in_thread(database_url, db_pool_size=1, db_max_overflow=1, **NO_RATE_LIMITS)
    try:
        rooms = [started_room(server, f"r{i}") for i in range(8)]
        stop = threading.Event()
        statuses: list[int] = []

        def hammer(i: int) -> None:  # token lookups, room reads, seat-data writes: all database work
            room_id, apis = rooms[i % len(rooms)]
            api = apis[i % 2]
            while not stop.is_set():
                statuses.append(api.get("/api/players/me").status_code)
                statuses.append(api.put(f"/api/rooms/{room_id}/seat-data", {"note": i}).status_code)
                statuses.append(api.get(f"/api/rooms/{room_id}/seat-data").status_code)

        def play(index: int) -> dict:
            room_id, apis = rooms[index]
            sockets = {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}
            return play_over_sockets(apis[0], room_id, sockets, random.Random(index))

        with ThreadPoolExecutor(24 + len(rooms)) as pool:
            hammers = [pool.submit(hammer, i) for i in range(24)]
            finals = [pool.submit(play, i) for i in range(len(rooms))]
            outcomes = [f.result(timeout=240)["outcome"] for f in finals]
            stop.set()
            for f in hammers:
                f.result(timeout=60)
        assert all(outcome is not None for outcome in outcomes)
        assert statuses and set(statuses) == {200}, sorted(set(statuses))
        for room_id, apis in rooms:
            assert apis[0].get(f"/api/rooms/{room_id}").json()["status"] == "finished"
    finally:
        server.stop()


class RoomPlayer(threading.Thread):
    """Plays one room over its two sockets as fast as views come, remembering every action it sent
    (version, seat, action) and every view version the server pushed, until the server dies."""

    def __init__(self, server, room_id, apis, seed):
        super().__init__(daemon=True)
        self.sockets = [Socket(server.ws_url, room_id, api.token) for api in apis]
        self.sent: dict[int, tuple[int, dict]] = {}
        self.rng = random.Random(seed)

    def pushed(self) -> int:
        """The highest version any of the room's sockets received."""
        versions = [m["version"] for sock in self.sockets for m in sock.received if m["type"] == "view"]
        return max(versions, default=0)

    def run(self) -> None:
        try:
            latest = [sock.latest_view() for sock in self.sockets]
            while True:
                version = max(view["version"] for view in latest)
                actors = [s for s, view in enumerate(latest) if view["version"] == version and view["legal_actions"]]
                if latest[0]["outcome"] is not None and latest[0]["version"] == version:
                    return
                if not actors:
                    seat = min(range(2), key=lambda s: latest[s]["version"])
                    latest[seat] = self.sockets[seat].latest_view(version=latest[seat]["version"] + 1)
                    continue
                seat = self.rng.choice(actors)
                action = self.rng.choice(latest[seat]["legal_actions"])
                self.sent[version] = (seat, action)
                self.sockets[seat].send({"type": "action", "action": action, "version": version})
                reply = self.sockets[seat].recv_until(
                    lambda m: m["type"] == "error" or (m["type"] == "view" and m["version"] > version))
                if reply["type"] == "view":
                    latest[seat] = reply
        except (ConnectionClosed, TimeoutError, OSError):
            for sock in self.sockets:  # read what the server pushed before it died
                try:
                    while True:
                        sock.recv(timeout=0.5)
                except (ConnectionClosed, TimeoutError, OSError):
                    pass


def test_kill_with_a_batch_in_flight_keeps_exactly_the_pushed_actions(database_url):
    """Group commit with a 30 ms window (a batch is almost always in flight), 6 rooms playing as
    fast as they can, SIGKILL: after the restart every action whose view any socket received is in
    the log, and the log holds nothing but actions the clients sent (and the server's own steps)."""
    server = ServerProcess(database_url, env={"COMMIT_WINDOW_MS": "30", **{k.upper(): v for k, v in NO_RATE_LIMITS.items()}})
    server.start()
    try:
        rooms = [started_room(server, f"k{i}") for i in range(6)]
        players = [RoomPlayer(server, room_id, apis, i) for i, (room_id, apis) in enumerate(rooms)]
        for player in players:
            player.start()
        time.sleep(1.5)
        server.kill()
        for player in players:
            player.join(timeout=30)
        server.start()
        checked = 0
        for (room_id, apis), player in zip(rooms, players):
            match_id = apis[0].get(f"/api/rooms/{room_id}").json()["match_id"]
            _match, log = stored_match(database_url, match_id)
            assert len(log) >= player.pushed()  # every pushed view's action survived
            for idx, (seat, action) in enumerate(log):
                if seat >= 0:  # a player's action: exactly one the client sent for that version
                    assert player.sent.get(idx) == (seat, action), (idx, seat, action)
            view = apis[0].get(f"/api/rooms/{room_id}/view").json()
            assert view["version"] == len(log)  # the restarted server resumed from exactly that log
            checked += player.pushed() > 0
        assert checked == len(rooms)
    finally:
        server.stop()


def test_hundreds_of_spectators_share_one_message_per_version(database_url):
    """300 spectator sockets: each version's spectator message is encoded once for all of them,
    every spectator receives every version, and room summaries are coalesced (a join does not send
    the summary to every socket again)."""
    interval = 0.25
    server = start_in_thread(database_url, max_spectators_per_room=400, max_spectators_per_ip=400,
                             room_push_interval=interval, **NO_RATE_LIMITS)
    try:
        room_id, apis = started_room(server, "s")
        spectators = []
        began = time.monotonic()
        with ThreadPoolExecutor(32) as pool:
            spectators = list(pool.map(lambda _i: Socket(server.ws_url, room_id), range(300)))
        for sock in spectators:
            sock.latest_view()
        runner = server.app.state.hub.rooms[room_id].runner
        start_version, encoded_before = runner.version, runner.views.encodes[None]
        players = {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}
        rng = random.Random(5)
        for _ in range(6):  # six player actions (and the server's own steps after them)
            view = apis[0].get(f"/api/rooms/{room_id}/view").json()
            seat = next(s for s in view["awaiting"] if s >= 0)
            mine = players[seat].latest_view(version=view["version"])
            players[seat].send({"type": "action", "action": rng.choice(mine["legal_actions"]), "version": view["version"]})
            players[seat].latest_view(version=view["version"] + 1)
        for _ in range(100):  # the server's own steps (reveals) that follow the last action
            view = apis[0].get(f"/api/rooms/{room_id}/view").json()
            if -1 not in view["awaiting"]:
                break
            time.sleep(0.05)
        end_version = view["version"]
        assert end_version >= start_version + 6
        wanted = list(range(start_version + 1, end_version + 1))
        for sock in spectators:
            sock.latest_view(version=end_version, timeout=30)
            versions = [m["version"] for m in sock.received if m["type"] == "view"]
            assert [v for v in versions if v > start_version] == wanted
            assert all(m["seat"] is None and m["legal_actions"] == [] for m in sock.received if m["type"] == "view")
        assert runner.views.encodes[None] - encoded_before == len(wanted)  # once per version for 300 sockets
        assert runner.current(None).framed  # and framed once: the same bytes went to every socket
        # The first spectator saw 299 later joins (and the players'): one summary per join would be
        # 300+ (O(sockets²) in all); coalesced, it is at most one per interval (plus its own first).
        first = spectators[0]
        summaries = [m for m in first.received if m["type"] == "room"]
        assert len(summaries) <= (time.monotonic() - began) / interval + 2, len(summaries)
        assert len(summaries) < 150, len(summaries)
        # The coalesced summary that counts all 300 may come after the last view (six quick moves
        # can take less than one interval): it is waited for, not only looked for.
        def counts_all(message):
            return message["type"] == "room" and message["room"]["spectators"] == 300
        if not any(counts_all(m) for m in first.received):
            first.recv_until(counts_all, timeout=5)
        assert any(counts_all(m) for m in first.received)
    finally:
        server.stop()
