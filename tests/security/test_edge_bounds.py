"""One client cannot take every connection of a server exposed without a proxy (issue 48, point 9):
on a host with 1,024 open files (a bound of 768 connections), one address holding 900 half-sent
requests gets at most ``MAX_CONNECTIONS_PER_ADDRESS`` (64) of them, the rest answered 503 at
accept, and /healthz from another address answers 200 all the while. WebSockets count too, until
they close. Against ``python -m app`` on loopback (the subject is sockets)."""

from __future__ import annotations

import socket
import time

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from tests.support.clients import Api, client_from
from tests.support.server import ServerProcess

PER_ADDRESS = 64  # the default of MAX_CONNECTIONS_PER_ADDRESS


@pytest.fixture
def exposed(tmp_path):
    # Half-sent requests are held for the whole test (30 s to arrive), and so are silent sockets.
    server = ServerProcess(f"sqlite:///{tmp_path / 'edge.db'}", open_files=1024,
                           env={"REQUEST_READ_TIMEOUT": "30", "WS_HELLO_SECONDS": "30"})
    server.start()
    yield server
    server.stop()


def connect_from(address: str, server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(address, 0))


def answer_within(sock: socket.socket, wait: float) -> bytes | None:
    """What the server said before closing the connection, or None if it is still open after ``wait``."""
    sock.settimeout(wait)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except (TimeoutError, BlockingIOError):  # (the latter: a wait of 0)
        return None
    except ConnectionResetError:
        pass
    return received


def test_one_address_holding_half_sent_requests_leaves_room_for_everyone_else(exposed):
    held = []
    try:
        for _ in range(900):
            sock = connect_from("127.0.0.2", exposed)
            try:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the rest
            except OSError:
                pass  # already answered and closed
            held.append(sock)
        with client_from("127.0.0.3", exposed.base_url) as other:
            for _ in range(3):
                assert other.get("/healthz").status_code == 200
        refused = [answer_within(sock, 3.0) for sock in held[PER_ADDRESS:]]
        assert all(answer is not None and answer.startswith(b"HTTP/1.1 503") for answer in refused), refused[:3]
        assert b"from your address" in refused[0] and b"retry-after: 5" in refused[0].lower()
        # (accepted before the refused ones) the first ones are held still, as any client's are
        assert all(answer_within(sock, 0.0) is None for sock in held[:PER_ADDRESS])
    finally:
        for sock in held:
            sock.close()


def test_sockets_count_until_they_close(exposed):
    room_id = Api.new_player(exposed.base_url, "Host").post("/api/rooms", {"game": "synomilia"}).json()["id"]
    url = f"{exposed.ws_url}/ws/rooms/{room_id}"
    sockets = []
    try:
        for _ in range(PER_ADDRESS):  # upgraded, silent (no hello yet)
            sockets.append(ws_connect(url, sock=connect_from("127.0.0.4", exposed), open_timeout=10).__enter__())
        refused = answer_within(connect_from("127.0.0.4", exposed), 3.0)
        assert refused is not None and refused.startswith(b"HTTP/1.1 503"), refused
        sockets.pop().close()
        deadline = time.monotonic() + 10  # until the server has seen that socket close
        while True:
            try:
                with httpx.Client(base_url=exposed.base_url, timeout=5,
                                  transport=httpx.HTTPTransport(local_address="127.0.0.4")) as again:
                    if again.get("/healthz").status_code == 200:
                        break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "a closed socket still counts"
            time.sleep(0.05)
    finally:
        for each in sockets:
            each.close()
