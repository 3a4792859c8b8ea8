"""A session that ends takes its live sockets and NDJSON streams with it (issue 30, point 4): the
"lost phone" revoked from the laptop stops seeing the seat's private view, chatting and playing at
once, and so do logging out, logging out everywhere, an expired session and a guest token retired
by claiming the name. Sockets are told ``session_ended`` and closed with 4401; streams end with
that error as their last line."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, update
from websockets.exceptions import ConnectionClosed

from app.accounts.models import AccountSession
from app.models import utcnow
from tests.live.helpers import Stream
from tests.support.clients import Api, Socket
from tests.support.server import start_in_thread

PASSWORD = "correct horse battery"


def ended(sock: Socket, timeout: float = 10.0) -> tuple[list[dict], int]:
    """Everything the socket received until the server closed it, and the close code."""
    deadline = time.monotonic() + timeout
    with pytest.raises(ConnectionClosed) as closed:
        while time.monotonic() < deadline:
            sock.recv(timeout=max(deadline - time.monotonic(), 0.01))
    return sock.received, closed.value.rcvd.code


def still_open(sock: Socket) -> None:
    sock.send({"type": "ping"})
    sock.recv_until(lambda m: m["type"] == "pong")


def log_in(base_url: str, name: str) -> Api:
    answer = Api(base_url).post("/api/accounts/login", {"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return Api(base_url, answer.json()["token"])


def account_in_a_running_match(base_url: str):
    """Aki (claimed, logged in on a phone and a laptop) plays Ben in a running Synomilia match."""
    aki = Api.new_player(base_url, "Aki")
    phone = Api(base_url, aki.post("/api/accounts", {"password": PASSWORD}).json()["token"])
    laptop = log_in(base_url, "Aki")
    room_id = phone.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}}).json()["id"]
    ben = Api.new_player(base_url, "Ben")
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert phone.post(f"/api/rooms/{room_id}/start").status_code == 200
    return room_id, phone, laptop, ben


def test_a_revoked_session_loses_its_socket_and_stream_at_once(server):
    room_id, phone, laptop, ben = account_in_a_running_match(server.base_url)
    lost = Socket(server.ws_url, room_id, phone.token)
    assert lost.latest_view()["seat"] == 0 and lost.last_view["view"]["viewer"] == 0  # the private view
    stream = Stream(server.base_url, room_id, phone.token)
    assert stream.next()["seat"] == 0
    kept = Socket(server.ws_url, room_id, laptop.token)
    kept.latest_view()

    phone_session = next(s for s in laptop.get("/api/accounts/me").json()["sessions"] if not s["current"])
    revoked = laptop.http.delete(f"/api/accounts/sessions/{phone_session['id']}", headers=laptop._headers())
    assert revoked.json() == {"revoked": 1}

    messages, code = ended(lost)
    assert code == 4401 and messages[-1]["code"] == "session_ended"
    lines = stream.rest()
    assert lines[-1]["type"] == "error" and lines[-1]["code"] == "session_ended"
    stream.close()
    still_open(kept)  # the laptop plays on
    # the room no longer counts the phone: Ben sees Aki connected only through the laptop
    ben_view = Socket(server.ws_url, room_id, ben.token)
    room = ben_view.recv_until(lambda m: m["type"] == "room")["room"]
    assert room["seats"][0]["connected"]
    kept.close()


def test_logging_out_and_logging_out_everywhere_end_sockets(server):
    room_id, phone, laptop, _ = account_in_a_running_match(server.base_url)
    on_phone = Socket(server.ws_url, room_id, phone.token)
    on_laptop = Socket(server.ws_url, room_id, laptop.token)
    for sock in (on_phone, on_laptop):
        sock.latest_view()
    assert phone.post("/api/accounts/logout").json() == {"revoked": 1}
    assert ended(on_phone)[1] == 4401
    still_open(on_laptop)
    tablet = log_in(server.base_url, "Aki")
    on_tablet = Socket(server.ws_url, room_id, tablet.token)
    on_tablet.latest_view()
    assert tablet.post("/api/accounts/logout-all").json() == {"revoked": 2}
    assert ended(on_laptop)[1] == 4401 and ended(on_tablet)[1] == 4401


def test_claiming_a_name_ends_the_guest_tokens_sockets(server):
    aki = Api.new_player(server.base_url, "Aki")
    room_id = aki.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    as_guest = Socket(server.ws_url, room_id, aki.token)
    as_guest.recv_until(lambda m: m["type"] == "room")
    session = Api(server.base_url, aki.post("/api/accounts", {"password": PASSWORD}).json()["token"])
    assert ended(as_guest)[1] == 4401
    as_account = Socket(server.ws_url, room_id, session.token)
    assert as_account.recv_until(lambda m: m["type"] == "room")["room"]["seats"][0]["connected"]


def test_an_expired_session_ends_its_socket_at_the_expiry_time(database_url):
    running = start_in_thread(database_url, session_days=3 / 86400)  # sessions last 3 s
    try:
        aki = Api.new_player(running.base_url, "Aki")
        session = Api(running.base_url, aki.post("/api/accounts", {"password": PASSWORD}).json()["token"])
        room_id = session.post("/api/rooms", {"game": "synomilia"}).json()["id"]
        sock = Socket(running.ws_url, room_id, session.token)
        sock.recv_until(lambda m: m["type"] == "room")
        opened = time.monotonic()
        messages, code = ended(sock, timeout=15)
        assert code == 4401 and messages[-1]["code"] == "session_ended"
        assert time.monotonic() - opened < 5
    finally:
        running.stop()


def test_a_session_ended_behind_the_servers_back_is_found_by_the_periodic_check(database_url):
    """A revocation whose message never arrived (Redis down in a cluster; here: written straight
    into the database) still ends the socket within SESSION_CHECK_SECONDS."""
    running = start_in_thread(database_url, session_check_seconds=0.5)
    try:
        aki = Api.new_player(running.base_url, "Aki")
        session = Api(running.base_url, aki.post("/api/accounts", {"password": PASSWORD}).json()["token"])
        room_id = session.post("/api/rooms", {"game": "synomilia"}).json()["id"]
        sock = Socket(running.ws_url, room_id, session.token)
        sock.recv_until(lambda m: m["type"] == "room")
        engine = create_engine(database_url)
        with engine.begin() as connection:
            connection.execute(update(AccountSession).values(revoked_at=utcnow()))
        engine.dispose()
        assert ended(sock, timeout=10)[1] == 4401
    finally:
        running.stop()
