"""Both ways a message leaves the server reach the client intact: as a prebuilt frame written
straight to the transport (uvicorn's sans-I/O protocol with ``app.live.socket_protocol``'s
extension, the default) and through the plain ASGI ``send`` (``WS_PROTOCOL=websockets``, which
offers no extension). A whole Synomilia match on each: every view each socket received is exactly
the engine's view for its seat at that version."""

from __future__ import annotations

import random

import pytest

from tests.support.clients import Socket
from tests.support.driver import check_pushed_views, play_over_sockets, setup_room
from tests.support.server import start_in_thread


@pytest.mark.parametrize("ws_protocol", ["websockets-sansio", "websockets"])
def test_a_match_is_pushed_intact_by_either_websocket_implementation(database_url, ws_protocol):
    server = start_in_thread(database_url, ws_protocol=ws_protocol)
    try:
        room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
        sockets = {0: Socket(server.ws_url, room_id, host.token), 1: Socket(server.ws_url, room_id, guest.token)}
        spectator = Socket(server.ws_url, room_id)
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        final = play_over_sockets(host, room_id, sockets, random.Random(11))
        match_id = host.get(f"/api/rooms/{room_id}").json()["match_id"]
        check_pushed_views(database_url, match_id, {**sockets, None: spectator})
        # The frame is built only for a socket that takes prebuilt frames.
        runner = server.app.state.hub.rooms[room_id].runner
        assert runner.version == final["version"]
        assert runner.current(None).framed is (ws_protocol == "websockets-sansio")
    finally:
        server.stop()
