"""A server exposed without a proxy (the Docker image) survives huge and slow request heads and
floods of connections (issue 30, point 1), on the start command's own settings (app/serving.py):
each attack runs against ``python -m app`` on loopback, bounded in time and in connections."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time

import httpx
import pytest
import uvicorn
import uvloop
from prometheus_client import REGISTRY
from uvicorn.server import ServerState

from app.serving import guarded_h11

from tests.support.clients import Api, Socket
from tests.support.server import ServerProcess

READ_TIMEOUT = 1.5


@pytest.fixture
def exposed(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 'exposed.db'}",
                           env={"REQUEST_READ_TIMEOUT": str(READ_TIMEOUT), "MAX_CONNECTIONS": "120"})
    server.start()
    yield server
    server.stop()


def connect(server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def closed_by_server(sock: socket.socket, wait: float) -> bytes | None:
    """What the server said before closing the connection, or None if it is still open after ``wait``."""
    sock.settimeout(wait)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return received


def healthz_seconds(server) -> float:
    started = time.monotonic()
    assert httpx.get(f"{server.base_url}/healthz", timeout=10).status_code == 200
    return time.monotonic() - started


def test_a_huge_request_head_is_cut_off_early_and_stalls_nobody(exposed):
    sent = {}

    def stream_header(index: int) -> None:
        sock = connect(exposed)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Huge: ")
        total, chunk = 0, b"a" * 65536
        try:
            while total < 32 * 2**20:
                sock.sendall(chunk)
                total += len(chunk)
        except OSError:
            pass  # cut off by the server
        sent[index] = total
        sock.close()

    streams = [threading.Thread(target=stream_header, args=(i,)) for i in range(2)]
    for thread in streams:
        thread.start()
    latencies = [healthz_seconds(exposed) for _ in range(5)]
    for thread in streams:
        thread.join(timeout=60)
    # The server stopped reading at its cap (16 KiB, plus what the kernel buffers held).
    assert all(total < 8 * 2**20 for total in sent.values()), sent
    assert max(latencies) < 5, latencies  # (a stalled server took 10 s and more)


def test_unfinished_requests_time_out(exposed):
    trickling = []
    for index in range(40):
        sock = connect(exposed)
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n" if index % 2 else b"POST /api/players HTTP/1.1\r\n"
                     b"Host: x\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{")
        trickling.append(sock)
    started = time.monotonic()
    # A byte every 0.3 s: uvicorn's keep-alive timer restarted on each one and never fired.
    while time.monotonic() - started < READ_TIMEOUT + 1.5:
        for sock in trickling:
            try:
                sock.send(b"X")
            except OSError:
                pass
        time.sleep(0.3)
    answers = [closed_by_server(sock, 2.0) for sock in trickling]
    for sock in trickling:
        sock.close()
    assert all(answer is not None for answer in answers), sum(answer is None for answer in answers)
    heads = [answer for answer in answers if answer]
    assert any(answer.startswith(b"HTTP/1.1 408") for answer in heads), heads[:3]
    assert healthz_seconds(exposed) < 5


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_connections_are_bounded(exposed):
    idle = [connect(exposed) for _ in range(200)]
    refused = [closed_by_server(sock, 3.0) for sock in idle[150:]]
    assert all(answer is not None and answer.startswith(b"HTTP/1.1 503") for answer in refused), refused[:3]
    # (counted once the server has answered the last connections, so it has taken every one)
    assert open_files(exposed.process.pid) < 120 + 60  # the bound plus the server's own files
    # The idle ones are dropped after the read timeout: the server serves again.
    assert all(closed_by_server(sock, READ_TIMEOUT + 5) is not None for sock in idle[:120])
    assert healthz_seconds(exposed) < 5
    for sock in idle:
        sock.close()


def test_connections_never_exhaust_the_open_file_limit(tmp_path):
    """On a host whose limit is 400 open files, 450 idle connections: the bound follows the limit
    (400 - 256 kept for the server's own files), so the server never fails to accept for want of
    a file, and serves again once the idle ones time out."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'files.db'}", env={"REQUEST_READ_TIMEOUT": str(READ_TIMEOUT)},
                           open_files=400)
    server.start()
    idle = []
    try:
        idle = [connect(server) for _ in range(450)]
        busy = [closed_by_server(sock, 3.0) for sock in idle[200:]]
        assert all(answer is not None and answer.startswith(b"HTTP/1.1 503") for answer in busy), busy[:3]
        # (counted once the server has answered the last connections, so it has taken every one)
        assert open_files(server.process.pid) < 400
        assert all(closed_by_server(sock, READ_TIMEOUT + 5) is not None for sock in idle[:144])  # timed out
        assert healthz_seconds(server) < 5
    finally:
        for sock in idle:
            sock.close()
        server.stop()


@pytest.mark.parametrize("protocol", ["websockets-sansio", "websockets"])
def test_sockets_and_streams_outlive_the_read_timeout(tmp_path, protocol):
    server = ServerProcess(f"sqlite:///{tmp_path / 'ws.db'}",
                           env={"REQUEST_READ_TIMEOUT": "1", "WS_PROTOCOL": protocol})
    server.start()
    try:
        host = Api.new_player(server.base_url, "Host")
        room_id = host.post("/api/rooms", {"game": "synomilia"}).json()["id"]
        live = Socket(server.ws_url, room_id, host.token)
        assert live.recv()["type"] == "room"
        time.sleep(1.6)
        live.send({"type": "ping"})
        live.recv_until(lambda m: m["type"] == "pong")
        live.close()
        # A keep-alive HTTP connection keeps serving request after request.
        with httpx.Client(base_url=server.base_url, timeout=10) as http:
            for _ in range(3):
                assert http.get("/api/games").status_code == 200
    finally:
        server.stop()


async def _hello(scope, receive, send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


READ_TIMEOUT_IN_PROCESS = 0.5


def _answer(request: bytes, held: float = 0.0, late: float = 0.0) -> bytes:
    """What a client hears from the guarded server, run in this process on uvloop as the server
    runs: ``request`` is sent ``late`` seconds after the accept, then the loop is held for ``held``
    seconds (a long callback, a storm of reconnections)."""

    async def main() -> bytes:
        loop = asyncio.get_running_loop()
        config = uvicorn.Config(_hello, log_config=None, lifespan="off")
        config.load()
        state = ServerState()
        protocol = guarded_h11(READ_TIMEOUT_IN_PROCESS, 100)
        server = await loop.create_server(lambda: protocol(config=config, server_state=state, app_state={}),
                                          "127.0.0.1", 0)
        client = socket.create_connection(server.sockets[0].getsockname()[:2])
        client.setblocking(False)
        while not state.connections:  # accepted: the request's deadline runs
            await asyncio.sleep(0.01)
        await asyncio.sleep(late)
        with contextlib.suppress(OSError):
            client.send(request)
        time.sleep(held)  # the loop is held (on purpose) while the request waits in the kernel
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := await asyncio.wait_for(loop.sock_recv(client, 65536), 5):
                answer += chunk
        client.close()
        server.close()
        await server.wait_closed()
        return answer

    return uvloop.run(main())


def _cut(reason: str) -> float:
    return REGISTRY.get_sample_value("asobiba_http_connections_cut_total", {"reason": reason}) or 0.0


def test_a_request_waiting_unread_is_served_after_the_loop_was_held():
    before = _cut("no_request"), _cut("slow_request")
    answer = _answer(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", held=READ_TIMEOUT_IN_PROCESS + 0.3)
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"ok"), answer
    assert (_cut("no_request"), _cut("slow_request")) == before  # nobody was cut


@pytest.mark.parametrize(("request_bytes", "reason"), [(b"", "no_request"),
                                                       (b"GET / HTTP/1.1\r\nHost: x\r\n", "slow_request")])
def test_late_clients_are_cut_and_counted(request_bytes, reason):
    before = _cut(reason)
    if request_bytes:  # the head begins at once and never ends
        answer = _answer(request_bytes, late=0.0, held=0.0)
    else:  # not a byte
        answer = _answer(b"", late=READ_TIMEOUT_IN_PROCESS + 0.3)
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert _cut(reason) == before + 1
