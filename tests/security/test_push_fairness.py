"""Issue 48, point 4: a subscriber chooses the endpoints their pushes go to, so how long each post
takes. Guests whose ten endpoints each accept the connection and never answer must not delay an
honest player's notification (each player's events wait in a queue of their own, served in
turn), nor push it out of a full queue, and their posts stop once they used up their sender time
(``PUSH_BUDGET_PER_PLAYER``). A real server on a real port; the honest player's push service is
the stand-in of tests/support/push_service.py, the guests' a loopback socket that never answers."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from app.observability import metrics
from tests.platform.test_push import settle, subscribe
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room
from tests.support.push_service import PushService
from tests.support.server import start_in_thread

TIMEOUT = 1.0  # PUSH_TIMEOUT: each post to a silent endpoint holds a sender this long
ENDPOINTS = 10  # each guest's subscriptions (PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER's default)
# The honest push must arrive within this: one post of every sender to a silent endpoint, and its own.
PROMPT_SECONDS = 3 * TIMEOUT + 2


class Silent:
    """A loopback "push service" that accepts every connection, reads the request, never answers."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.connections: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.connections.append(conn)

    @property
    def accepted(self) -> int:
        with self.lock:
            return len(self.connections)

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            for conn in self.connections:
                conn.close()


@pytest.fixture
def silent():
    service = Silent()
    yield service
    service.close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def subscribe_silently(api: Api, service: PushService, silent: Silent, name: str) -> None:
    """``ENDPOINTS`` subscriptions of ``api``'s on the silent endpoint, mentions chosen."""
    service.server_key = api.get("/api/push/key").json()["public_key"]
    for n in range(ENDPOINTS):
        body = service.subscriber(f"{name}-{n}").subscription(silent.base)
        assert api.post("/api/me/push-subscriptions", body).status_code == 201
    assert api.put("/api/me/notifications", {"kinds": {"chat_mention": True}}).status_code == 200


def chat(sock: Socket, text: str) -> None:
    sock.send({"type": "chat", "text": text, "channel": "room"})
    sock.recv_until(lambda m: m["type"] == "chat" and m["message"]["text"] == text)


def test_guests_with_silent_endpoints_do_not_delay_an_honest_players_push(database_url, push_service, silent):
    """Three guests at a table, ten silent endpoints each, mention one another: their events are
    queued before Hana's. Hana's push arrives within a few posts' time, not after theirs (each of
    their events holds a sender ``ENDPOINTS * TIMEOUT`` seconds when sent one post at a time)."""
    running = start_in_thread(database_url, push_allow_loopback_http=True, push_timeout=TIMEOUT,
                              rate_notify_per_player="1000/60")
    try:
        room_id, (ark, bex, cyd, hana) = setup_room(running.base_url, "makelandia", ["Ark", "Bex", "Cyd", "Hana"])
        for api, name in ((ark, "ark"), (bex, "bex"), (cyd, "cyd")):
            subscribe_silently(api, push_service, silent, name)
        subscribe(hana, push_service, "hana", kinds={"chat_mention": True})
        ark_sock, bex_sock = Socket(running.ws_url, room_id, ark.token), Socket(running.ws_url, room_id, bex.token)
        try:
            chat(ark_sock, "@Bex @Cyd one")
            chat(bex_sock, "@Ark @Cyd two")
            chat(ark_sock, "@Bex @Cyd three")
            sent = time.monotonic()
            chat(ark_sock, "@Hana your move")
            push_service.wait_for("hana", 1, timeout=PROMPT_SECONDS)
            assert time.monotonic() - sent < PROMPT_SECONDS
        finally:
            ark_sock.close()
            bex_sock.close()
        assert [p.payload["body"] for p in push_service.to("hana")] == ["@Hana your move"]
        assert push_service.problems == []
    finally:
        silent.close()  # the posts under way end now
        running.stop()


def test_a_full_queue_drops_the_longest_backlog_not_the_next_players_event(database_url, push_service, silent):
    """One sender, a queue of four: the guests' mentions fill it while their first post hangs.
    Hana's mention then takes the place of the newest event of the longest backlog (counted as
    dropped) instead of being dropped itself."""
    running = start_in_thread(database_url, push_allow_loopback_http=True, push_timeout=TIMEOUT,
                              push_workers=1, push_queue=4, rate_notify_per_player="1000/60")
    try:
        room_id, (ark, bex, cyd, hana) = setup_room(running.base_url, "makelandia", ["Ark", "Bex", "Cyd", "Hana"])
        for api, name in ((bex, "bex"), (cyd, "cyd")):
            subscribe_silently(api, push_service, silent, name)
        subscribe(hana, push_service, "hana", kinds={"chat_mention": True})
        dropped_before = metrics.PUSHES.labels("dropped")._value.get()
        sock = Socket(running.ws_url, room_id, ark.token)
        try:
            for n in range(3):
                chat(sock, f"@Bex @Cyd {n}")  # six events, of which the queue holds four after the first
            deadline = time.monotonic() + 10
            while metrics.PUSHES.labels("dropped")._value.get() == dropped_before:
                assert time.monotonic() < deadline, "the guests' mentions never filled the queue"
                time.sleep(0.02)
            chat(sock, "@Hana your move")
            push_service.wait_for("hana", 1, timeout=PROMPT_SECONDS + 2 * TIMEOUT)
        finally:
            sock.close()
        assert metrics.PUSHES.labels("dropped")._value.get() > dropped_before
        assert push_service.problems == []
    finally:
        silent.close()
        running.stop()


def test_a_players_silent_endpoints_use_up_their_sender_time(database_url, push_service, silent):
    """``PUSH_BUDGET_PER_PLAYER`` 1.5 s per hour: Bex's first turn (two posts at once, a second
    each) uses it up; the other eight of his endpoints are not posted to (``over_budget``)."""
    running = start_in_thread(database_url, push_allow_loopback_http=True, push_timeout=TIMEOUT,
                              push_budget_per_player="1.5/3600", rate_notify_per_player="1000/60")
    try:
        room_id, (ark, bex) = setup_room(running.base_url, "synomilia", ["Ark", "Bex"])
        subscribe_silently(bex, push_service, silent, "bex")
        over_before = metrics.PUSHES.labels("over_budget")._value.get()
        sock = Socket(running.ws_url, room_id, ark.token)
        try:
            chat(sock, "@Bex hello")
            settle(running)
        finally:
            sock.close()
        assert metrics.PUSHES.labels("over_budget")._value.get() - over_before == ENDPOINTS - 2
        assert silent.accepted == 2, "posted to his first two endpoints only"
    finally:
        silent.close()
        running.stop()


def test_a_host_whose_look_up_hangs_does_not_hold_the_senders(database_url, push_service, monkeypatch):
    """Bex's ten endpoints are on hosts of his own DNS server, which answered when he subscribed
    and never answers again: the look-up before each post gives up in time (``RESOLVE_SECONDS``)
    and Hana's push still arrives promptly. The resolver is the one stand-in: lookups of
    ``*.hang.test`` answer 127.0.0.1 until ``hanging`` is set, then block until the test ends."""
    hanging, release = threading.Event(), threading.Event()
    real = socket.getaddrinfo

    def resolver(host, *args, **kwargs):
        if isinstance(host, str) and host.endswith(".hang.test"):
            if hanging.is_set():
                release.wait(60)
                raise socket.gaierror("no answer")
            return real("127.0.0.1", *args, **kwargs)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    running = start_in_thread(database_url, push_allow_loopback_http=True, rate_notify_per_player="1000/60")
    try:
        room_id, (ark, bex, hana) = setup_room(running.base_url, "three_magic", ["Ark", "Bex", "Hana"])
        push_service.server_key = bex.get("/api/push/key").json()["public_key"]
        for n in range(ENDPOINTS):
            body = push_service.subscriber(f"bex-{n}").subscription(f"http://h{n}.hang.test:9")
            assert bex.post("/api/me/push-subscriptions", body).status_code == 201
        assert bex.put("/api/me/notifications", {"kinds": {"chat_mention": True}}).status_code == 200
        subscribe(hana, push_service, "hana", kinds={"chat_mention": True})
        hanging.set()
        sock = Socket(running.ws_url, room_id, ark.token)
        try:
            chat(sock, "@Bex one")
            chat(sock, "@Bex two")
            chat(sock, "@Bex three")
            chat(sock, "@Hana your move")
            push_service.wait_for("hana", 1, timeout=PROMPT_SECONDS)
        finally:
            sock.close()
        assert push_service.problems == []
    finally:
        release.set()
        running.stop()


def test_look_ups_that_hang_hold_a_bounded_number_of_threads(monkeypatch):
    """Twenty posts' look-ups of hosts that never answer: each caller waits ``timeout`` at most,
    and they hold the resolver's four threads, no more; an address literal needs none of them."""
    from app.push import guard

    release = threading.Event()
    real = socket.getaddrinfo

    def hanging(host, *args, **kwargs):
        if isinstance(host, str) and host.endswith(".hang.test"):
            release.wait(60)
            raise socket.gaierror("no answer")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    resolver = guard.Resolver(timeout=0.2, threads=4)
    threads_before = threading.active_count()
    try:
        for n in range(20):
            started = time.monotonic()
            with pytest.raises(guard.EndpointRefused, match="not resolved within"):
                resolver.check(f"https://h{n}.hang.test/push", allow_loopback_http=False)
            assert time.monotonic() - started < 2
        assert threading.active_count() - threads_before <= 4
        assert resolver.check("http://127.0.0.1:9/push", allow_loopback_http=True) == ["127.0.0.1"]
    finally:
        release.set()
        resolver.close()
