"""A push endpoint is chosen by whoever subscribes, so the server must not let one hold a sender
thread or fill its memory: the whole post (connection, headers, body) is bounded in time and the
answer's body is read only up to ``guard.MAX_RESPONSE_BYTES``. Real loopback sockets: a push
"service" that answers with an endless body, and one that drips its headers a byte at a time."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time

import pytest
import requests

from app.push import guard
from app.push.notifier import Notifier
from app.push.texts import Event
from app.settings import Settings
from tests.support.clients import Api
from tests.support.push_service import Subscriber
from tests.support.server import start_in_thread


class Stub:
    """A loopback TCP server answering every connection with ``behave(conn)``."""

    def __init__(self, behave):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.behave = behave
        self.stopped = threading.Event()
        self.sent = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            conn.recv(65536)  # the request (small)
            self.behave(self, conn)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self.stopped.set()
        self.listener.close()


def endless_body(stub: Stub, conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
    while not stub.stopped.is_set():
        conn.sendall(chunk)
        stub.sent += 65536


def dripping_headers(stub: Stub, conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 201 Created\r\n")
    while not stub.stopped.is_set():
        conn.sendall(b"X")  # one header line that never ends, a byte well within the read timeout
        stub.sent += 1
        stub.stopped.wait(0.2)


def post_in_thread(url: str, timeout: float) -> tuple[threading.Thread, dict]:
    out: dict = {}

    def run() -> None:
        session = guard.guarded_session(allow_loopback_http=True)
        started = time.monotonic()
        try:
            response = session.post(url, data=b"{}", timeout=timeout)
            out["status"] = response.status_code
            out["body"] = len(response.content)
        except requests.RequestException as exc:
            out["error"] = type(exc).__name__
        out["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


@pytest.mark.parametrize("behave", [endless_body, dripping_headers], ids=["endless_body", "dripping_headers"])
def test_a_post_is_bounded_in_time_and_memory(behave):
    stub = Stub(behave)
    try:
        thread, out = post_in_thread(f"http://127.0.0.1:{stub.port}/push/x", timeout=2.0)
        thread.join(30)  # a deadline, not a wait: an unbounded post never ends
        assert not thread.is_alive(), f"the post was still running after 30 s ({stub.sent} bytes sent to it)"
        assert out["seconds"] < 15, out
        if "body" in out:
            assert out["body"] <= guard.MAX_RESPONSE_BYTES, out
    finally:
        stub.close()


def test_a_resolver_that_hangs_holds_only_the_subscriptions_own_threads(database_url, monkeypatch):
    """A subscriber chooses the endpoint's host, so its DNS server too: one that never answers must
    not take the threads the rest of the server shares (the readiness probe's database ping, the
    hub's writes run in the event loop's default executor). The resolver is the one stand-in here:
    lookups of ``*.hang.test`` block until the test ends, as a DNS server that does not answer."""
    release = threading.Event()
    real = socket.getaddrinfo

    def hanging(host, *args, **kwargs):
        if isinstance(host, str) and host.endswith(".hang.test"):
            release.wait(60)
            raise socket.gaierror("no answer")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    server = start_in_thread(database_url)
    try:
        api = Api.new_player(server.base_url, "Aya")
        body = Subscriber("/x").subscription("https://push.hang.test")
        results: list[int] = []

        def subscribe() -> None:
            results.append(api.post("/api/me/push-subscriptions", body).status_code)

        threads = [threading.Thread(target=subscribe, daemon=True) for _ in range(12)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 4  # while every lookup hangs (each request waits 5 s)
        while time.monotonic() < deadline:
            ready = api.get("/readyz")
            assert ready.status_code == 200, ready.text
        for thread in threads:
            thread.join(30)
        assert results == [422] * 12, results
    finally:
        release.set()
        server.stop()


@pytest.mark.parametrize("address", [
    "64:ff9b::a00:1",  # NAT64 (RFC 6052) of 10.0.0.1: an IPv6-only network's gateway reaches it
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254 (cloud metadata)
    "64:ff9b:1::a00:1",  # local-use NAT64 (RFC 8215)
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "::7f00:1",  # IPv4-compatible ::127.0.0.1 (deprecated)
    "::a00:1",
])
def test_ipv6_addresses_that_carry_a_private_ipv4_address_are_refused(address):
    assert not guard.address_allowed(address, "https", allow_loopback_http=False)


@pytest.mark.parametrize("address", ["8.8.8.8", "2606:4700:4700::1111", "64:ff9b::808:808", "::ffff:8.8.8.8"])
def test_public_addresses_are_allowed(address):
    assert guard.address_allowed(address, "https", allow_loopback_http=False)


def test_a_full_queue_is_said_once_a_minute_with_its_count(caplog):
    """A busy moment drops thousands of notifications (each counted in the metrics); the log says
    so once, with the count, not one line per event (a flood that once filled a server's log pipe)."""
    async def scenario(notifier: Notifier) -> None:
        notifier.queue = asyncio.Queue(1)  # (its senders not started: nothing takes from it)
        notifier._loop = asyncio.get_running_loop()
        with caplog.at_level(logging.WARNING, logger="asobiba.push"):
            notifier.notify([f"player-{n}" for n in range(500)], Event("your_turn", "room", "peribit"))
            notifier._dropped_said_at -= 61  # a minute later
            notifier.notify(["late"], Event("your_turn", "room", "peribit"))

    asyncio.run(scenario(Notifier(Settings(), db=None, limiter=None)))
    said = [r.getMessage() for r in caplog.records if r.name == "asobiba.push"]
    assert said == ["push queue full: 1 notifications dropped (the last a your_turn) since the last warning",
                    "push queue full: 499 notifications dropped (the last a your_turn) since the last warning"]


def test_the_last_drops_of_a_busy_moment_are_said_when_the_minute_is_over(caplog, monkeypatch):
    """Drops after a warning are said once its minute is over, though no further drop comes."""
    monkeypatch.setattr("app.push.notifier.DROPPED_WARNING_SECONDS", 0.3)

    def said() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == "asobiba.push"]

    async def scenario(notifier: Notifier) -> None:
        notifier.queue = asyncio.Queue(1)
        notifier._loop = asyncio.get_running_loop()
        with caplog.at_level(logging.WARNING, logger="asobiba.push"):
            notifier.notify([f"player-{n}" for n in range(20)], Event("your_turn", "room", "peribit"))
            assert len(said()) == 1  # the first drop at once, the other 18 when the minute is over
            deadline = time.monotonic() + 10
            while len(said()) < 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)

    asyncio.run(scenario(Notifier(Settings(), db=None, limiter=None)))
    assert said() == ["push queue full: 1 notifications dropped (the last a your_turn) since the last warning",
                      "push queue full: 18 notifications dropped (the last a your_turn) since the last warning"]
