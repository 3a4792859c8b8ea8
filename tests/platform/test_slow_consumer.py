"""A socket that never reads does not stall its room: pushes only queue for it, and once its queue
reaches ``send_queue_limit`` it is closed with 1013 (try again later) while everyone else keeps
receiving every message at once."""

from __future__ import annotations

import secrets
import socket

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support.clients import Socket
from tests.support.driver import setup_room
from tests.support.server import start_in_thread

NO_LIMITS = {f"rate_{name}_per_{per}": "off" for name in ("frames", "chat") for per in ("token", "ip")}


@pytest.fixture
def small_queue_server(database_url):
    running = start_in_thread(database_url, send_queue_limit=8, chat_max_chars=8000, **NO_LIMITS)
    yield running
    running.stop()


def test_a_socket_that_never_reads_is_closed_1013_and_stalls_nobody(small_queue_server):
    server = small_queue_server
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    talker = Socket(server.ws_url, room_id, host.token)
    listener = Socket(server.ws_url, room_id, guest.token)
    tiny_buffer = socket.socket()  # a small receive window, set before connecting
    tiny_buffer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    tiny_buffer.connect(("127.0.0.1", int(server.base_url.rsplit(":", 1)[1])))
    slow = connect(f"{server.ws_url}/ws/rooms/{room_id}", sock=tiny_buffer, max_queue=1, max_size=2**22,
                   compression=None).__enter__()  # uncompressed: the bytes really pile up
    slow.send('{"type": "hello"}')  # a spectator
    listener.recv_until(lambda m: m["type"] == "room" and m["room"]["spectators"] == 1)

    count = 400
    for i in range(count):  # ~3.2 MB of chat: more than the socket buffers hold
        talker.send({"type": "chat", "text": f"{i:04d} " + secrets.token_urlsafe(6000)[:7990]})
    for i in range(count):  # the reading sockets get every message, in order, promptly
        message = listener.recv_until(lambda m: m["type"] == "chat", timeout=20)
        assert message["message"]["text"].startswith(f"{i:04d} ")
    if not any(m["type"] == "room" and m["room"]["spectators"] == 0 for m in listener.received):
        listener.recv_until(lambda m: m["type"] == "room" and m["room"]["spectators"] == 0, timeout=20)
    assert server.app.state.hub.rooms[room_id].summary()["spectators"] == 0  # the slow socket has left

    received = 0
    with pytest.raises(ConnectionClosed) as closed:
        while True:  # now read what it was sent before the server gave up on it
            slow.recv(timeout=20)
            received += 1
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    assert received < count
