"""Memory the hub holds follows what is in use (issue 30, point 10): requests for rooms that do not
exist leave no lock behind, and rooms loaded by GETs or joins leave memory once idle, while a room
with a socket stays and keeps pushing."""

from __future__ import annotations

import contextlib
import gc
import random
import secrets
import weakref

import pytest

from app.clock import FakeClock
from app.live.hub import rooms_remembered
from tests.support.clients import Api, Socket
from tests.support.driver import play_over_sockets, setup_room
from tests.support.server import start_in_thread
from tests.support.waiting import wait_for

IDLE = 0.4


@pytest.fixture
def idle_server(database_url):
    # The hub's own clock decides idleness: a test stands time still while it loads rooms (however
    # slow the machine) and moves it on to let the sweep run.
    running = start_in_thread(database_url, clock=FakeClock(), room_idle_seconds=IDLE)
    yield running
    running.stop()


def started_table(server) -> tuple[str, list[Api], dict[int, Socket]]:
    """Aki and Ben at a Synomilia table whose match has started, each with a socket."""
    room_id, apis = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    return room_id, apis, {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}


@contextlib.contextmanager
def only_reference_counting():
    """What exists is out of every collection's reach (the app's own timed collections call the
    collector explicitly, so switching it off is not enough): only reference counting frees it."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def test_joins_of_unknown_rooms_leave_no_lock(idle_server):
    hub = idle_server.app.state.hub
    player = Api.new_player(idle_server.base_url, "Prober")
    for _ in range(300):
        response = player.post(f"/api/rooms/{secrets.token_urlsafe(24)}/join")
        assert response.status_code == 404, response.text
        assert player.get(f"/api/rooms/{secrets.token_urlsafe(24)}").status_code == 404
    assert rooms_remembered(hub) == set()


def test_rooms_loaded_by_requests_leave_memory_once_idle(idle_server):
    hub = idle_server.app.state.hub
    host, reader = Api.new_player(idle_server.base_url, "Host"), Api.new_player(idle_server.base_url, "Reader")
    room_ids = [host.post("/api/rooms", {"game": "synomilia"}).json()["id"] for _ in range(12)]
    watched = room_ids[0]
    socket = Socket(idle_server.ws_url, watched, host.token)
    socket.recv_until(lambda m: m["type"] == "room")
    for _ in range(3):
        for room_id in room_ids:
            assert reader.get(f"/api/rooms/{room_id}").status_code == 200
    assert len(hub.rooms) == 12
    # Idle rooms go once their time has passed; the one with a socket stays.
    wait_for(lambda: idle_server.clock.advance(IDLE) >= 0 and set(hub.rooms) == {watched}, timeout=10.0,
             what="only the watched room to stay loaded", state=lambda: sorted(hub.rooms))
    assert rooms_remembered(hub) <= {watched}
    # A forgotten room is read back on demand, and a join reaches the socket of the kept room.
    assert reader.get(f"/api/rooms/{room_ids[5]}").json()["id"] == room_ids[5]
    assert reader.post(f"/api/rooms/{watched}/join").status_code == 200
    socket.recv_until(lambda m: m["type"] == "room" and any(
        seat["player_id"] == reader.player_id for seat in m["room"]["seats"]))
    socket.close()
    wait_for(lambda: idle_server.clock.advance(IDLE) >= 0 and not hub.rooms, timeout=10.0,
             what="every room forgotten", state=lambda: sorted(hub.rooms))


def test_a_finished_match_is_freed_without_the_cyclic_collector(database_url):
    """A match's runner and its parts (views, timers, platform path) hold no reference cycle: once
    a rematch replaces it, reference counting frees it with its kept states at once (issue 34: a
    cycle per match reached the oldest generation, which only a full collection scans)."""
    server = start_in_thread(database_url)
    try:
        room_id, apis, sockets = started_table(server)
        first = sockets[0].latest_view()
        runner = weakref.ref(server.app.state.hub.rooms[room_id].runner)
        final = play_over_sockets(apis[0], room_id, sockets, random.Random(3))
        assert final["match_id"] == first["match_id"] and final["outcome"] is not None
        with only_reference_counting():
            for sock in sockets.values():
                sock.send({"type": "rematch"})
            sockets[0].recv_until(lambda m: m["type"] == "view" and m["match_id"] != first["match_id"], timeout=20)
            wait_for(lambda: runner() is None, timeout=10.0, what="the old runner freed",
                     state=lambda: gc.get_referrers(runner()))
        for sock in sockets.values():
            sock.close()
    finally:
        server.stop()


def test_closed_sockets_and_a_forgotten_room_are_freed_without_the_cyclic_collector(database_url):
    """A socket lives as long as its player stays, so its objects reach the collector's oldest
    generation, which only a full collection scans; its room as long as its table. Once closed
    and forgotten, reference counting must free them with the room's finished match (issue 34: the
    frames extension in the socket's scope, the slow-consumer callback, the room's absence watch and
    its match's listener each made a cycle, and every closed socket left ~80 objects for a full
    collection)."""
    from app.live.socket_protocol import FRAMES_EXTENSION, FrameWritingProtocol

    server = start_in_thread(database_url)
    try:
        hub = server.app.state.hub
        room_id, apis, sockets = started_table(server)
        final = play_over_sockets(apis[0], room_id, sockets, random.Random(5))  # a finished match
        assert final["outcome"] is not None
        live = hub.rooms[room_id]
        connection = next(c for c in live.connections if c.player_id == apis[0].player_id)
        protocol = connection.websocket.scope["extensions"][FRAMES_EXTENSION]["write"].__self__
        assert isinstance(protocol, FrameWritingProtocol)
        kept = [weakref.ref(o) for o in (connection, connection.websocket, protocol, live, live.runner)]
        del live, connection, protocol
        with only_reference_counting():
            for sock in sockets.values():
                sock.close()
            wait_for(lambda: room_id not in hub.rooms, timeout=10.0, what="the room forgotten")  # its last socket gone
            wait_for(lambda: all(ref() is None for ref in kept), timeout=10.0, what="the socket's objects freed",
                     state=lambda: [type(ref()).__name__ for ref in kept if ref() is not None])
    finally:
        server.stop()


def test_a_room_forgotten_while_its_match_starts_runs_it_once(database_url):
    """The last socket of a room closes while a start is being written: the hub forgets the room
    (nothing ran in it) while ``attach_match`` waits for the database. The match must run in the
    room the hub holds, once: not in the forgotten room (no socket would see it, no absence watch
    would replace a player who left), nor a second time beside the runner the reload made."""
    import asyncio

    from app import store

    server = start_in_thread(database_url)
    try:
        hub = server.app.state.hub
        room_id, apis = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})

        async def scenario() -> tuple:
            before = await hub.room(room_id)

            def start(session) -> str:
                match = store.start_match(session, store.get_room(session, room_id, for_update=True))
                session.commit()
                return match.id

            match_id = await hub.db.run(start)
            # forgotten during attach_match's first wait (a socket's close does exactly this)
            asyncio.get_running_loop().call_soon(hub.forget_if_idle, room_id)
            runner = await hub.attach_match(room_id, match_id)
            return before, hub.rooms.get(room_id), runner, match_id

        loop = hub._idle_sweeper.get_loop()
        before, live, runner, match_id = asyncio.run_coroutine_threadsafe(scenario(), loop).result(30)
        assert live is not None and live is not before, "the room was forgotten and loaded again"
        assert live.runner is runner and runner.match_id == match_id
        assert before.runner is None, "nothing runs in the forgotten room"
        view = apis[0].get(f"/api/rooms/{room_id}/view").json()
        assert view["match_id"] == match_id
    finally:
        server.stop()
