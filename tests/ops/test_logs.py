"""Logs as an operator reads them: a whole match played over sockets and REST by a server process
with ``LOG_FORMAT=json LOG_LEVEL=DEBUG`` writes one JSON object per line with request, room and
match ids — and never a token, the seed, or any seat's hidden cards; an unhandled error is logged
once with its request id, and the client gets a clear 500."""

from __future__ import annotations

import asyncio
import json
import logging
import random

import httpx
import pytest

from app.observability.logs import room_ref, scrub
from app.observability.middleware import MAX_LOGGED_PATH, ObservabilityMiddleware, expected_unavailable
from tests.support.clients import Socket
from tests.support.databases import KINDS, POSTGRES_URL
from tests.support.driver import drain, play_over_sockets, setup_room, stored_match
from tests.support.server import ServerProcess
from tests.support.tcp_proxy import server_behind_proxy

GAME = "mipolin"  # every seat holds a hidden hand; a culprit card stays hidden to the end


def hidden_fragments(message: dict, spectator_view: dict) -> set[str]:
    """The JSON text of every part of a seat's view that the spectator view does not show."""
    fragments = set()
    for key, value in message["view"].items():
        if value != spectator_view.get(key) and key not in ("seat", "viewer"):
            for text in (json.dumps(value), json.dumps(value, separators=(",", ":")), json.dumps(value, ensure_ascii=False)):
                if len(text) >= 6:
                    fragments.add(text)
    return fragments


def test_a_played_match_logs_ids_but_no_secret(database_url):
    server = ServerProcess(database_url, env={"LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG"})
    server.start()
    try:
        room_id, apis = setup_room(server.base_url, GAME, ["Aki", "Ben", "Chie"])
        assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
        sockets = {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}
        spectator = Socket(server.ws_url, room_id)
        final = play_over_sockets(apis[0], room_id, sockets, random.Random(5))
        assert final["outcome"] is not None
        httpx.get(f"{server.base_url}/api/rooms/{room_id}", headers={"X-Request-ID": "trace-me-42"})
        for sock in (*sockets.values(), spectator):
            drain(sock)
            sock.close()
    finally:
        server.stop()
    match, _log = stored_match(server.database_url, final["match_id"])
    spectator_views = {m["version"]: m["view"] for m in spectator.received if m["type"] == "view"}
    secrets = {api.token for api in apis} | {str(match.seed)}
    for sock in sockets.values():
        for message in sock.received:
            if message["type"] == "view" and message["version"] in spectator_views and message["outcome"] is None:
                secrets |= hidden_fragments(message, spectator_views[message["version"]])
    assert len(secrets) > 10  # the hands really were hidden from the spectator

    lines = [line for line in server.output[1:] if line.strip()]  # the first line is the URL
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    text = "".join(lines)
    leaked = [secret for secret in secrets if secret in text]
    assert leaked == []
    assert '"hand"' not in text
    ref = room_ref(room_id)  # room ids are invite secrets: lines carry their ref (issue 30, point 13)
    assert any(r.get("room_id") == ref and r.get("match_id") == match.id and r.get("seat") == 1
               and r["message"] == "action applied" for r in records)
    events = {r.get("event") for r in records if r.get("room_id") == ref}
    assert {"match_started", "socket_opened", "socket_closed"} <= events
    assert any(r["message"] == "match finished" and r.get("match_id") == match.id for r in records)
    assert any(r.get("request_id") == "trace-me-42" and r.get("status") == 200 for r in records)
    assert all({"ts", "level", "logger", "message"} <= r.keys() for r in records)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_access_log_has_no_token_and_no_room_id(database_url, log_format):
    """Everything that names a room (REST paths, the socket, the stream, the invite page, an
    unknown room) is logged with the room's ref, and a token never appears, not even one a
    deprecated client still puts in the socket's URL (issue 30, point 13)."""
    server = ServerProcess(database_url, env={"LOG_FORMAT": log_format, "LOG_LEVEL": "DEBUG"})
    server.start()
    try:
        room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        sock = Socket(server.ws_url, room_id, host.token)
        old = Socket(server.ws_url, room_id, guest.token, token_in_url=True)
        spectator = Socket(server.ws_url, room_id)
        view = sock.latest_view()
        sock.send({"type": "action", "action": view["legal_actions"][0], "version": view["version"], "id": 1})
        sock.recv_until(lambda m: m["type"] == "ack")
        assert guest.get(f"/api/rooms/{room_id}/view").status_code == 200
        assert httpx.get(f"{server.base_url}/r/{room_id}", headers={"Accept": "text/html"}).status_code == 200
        with guest.http.stream("GET", f"/api/rooms/{room_id}/stream", headers=guest._headers()) as stream:
            next(stream.iter_lines())
        assert host.get(f"/api/rooms/{room_id}x/view").status_code == 404
        for each in (sock, old, spectator):
            each.close()
    finally:
        server.stop()
    text = "".join(server.output[1:])  # the first line is the URL the server prints
    assert room_ref(room_id) in text and "socket opened" in text and "stream opened" in text
    assert room_id not in text
    assert host.token not in text and guest.token not in text


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind == "postgresql"])
def test_a_5xx_is_logged_once_with_its_request_id(kind, tmp_path, caplog):
    with server_behind_proxy(kind, tmp_path) as (server, proxy, url):
        proxy.cut()
        with caplog.at_level(logging.ERROR):
            response = httpx.get(f"{server.base_url}/api/games/synomilia/leaderboard", timeout=10,
                                 headers={"X-Request-ID": "broken-1"})
        assert response.status_code == 503  # the database outage answer (app/unavailable.py)
        assert response.headers["x-request-id"] == "broken-1"
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1
        assert errors[0].getMessage() == "GET /api/games/synomilia/leaderboard 503"
        assert errors[0].route == "/api/games/{game}/leaderboard" and errors[0].status == 503


def test_a_room_named_in_a_message_is_logged_as_its_ref():
    """The cluster's messages name their room ("views of room <id> not available from ..."): the
    id is the invite link's secret, so every line carries the ref instead, whatever the call site
    passed (a second guard, like the token masks)."""
    room_id = "C6HvSLni5xOvzW1zEGMxvUNiSEHeGi6C"
    for message in (f"views of room {room_id} not available from vm:1:ab yet",
                    f"a malformed message on room {room_id}'s channel was dropped",
                    f"process vm:1:ab owns Room {room_id} (match 3f, epoch 2, version 7)"):
        line = scrub(message)
        assert room_id not in line and room_ref(room_id) in line, line
    assert scrub("the room is full") == "the room is full"  # words after "room" stay


def test_a_log_line_never_waits_for_a_stuck_reader():
    """stderr is a pipe nobody reads (a log shipper that stalled): logging goes on without waiting
    (a full pipe once stopped a whole server at its next line, event loop and all); what did not
    fit in the queue is dropped and counted, and said once the reader is back."""
    import os
    import threading
    import time

    from app.observability import logs

    read_end, write_end = os.pipe()
    stream = os.fdopen(write_end, "w")
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.extend(iter(lambda: os.read(read_end, 1 << 16), b"")), daemon=True)
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    log = logging.getLogger("asobiba.test")
    try:
        logs.configure("text", "INFO", stream=stream)
        started = time.monotonic()
        for n in range(logs.LOG_QUEUE_LINES + 5_000):  # far more than a pipe (64 KB) and the queue hold
            log.warning("line %d %s", n, "x" * 80)
        assert time.monotonic() - started < 30  # (blocked, it would wait forever)
        reader.start()
        deadline = time.monotonic() + 30
        while not root.handlers[0].queue.empty() and time.monotonic() < deadline:  # the writer catches up
            time.sleep(0.05)
        log.warning("the reader is back")
        logs._stop_listener()  # writes what is queued
        stream.close()
        reader.join(10)
        lines = b"".join(received).decode().splitlines()
    finally:
        if not reader.is_alive() and not received:
            reader.start()  # (a failure above: the writer must not wait on a pipe nobody reads)
        logs._stop_listener()
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    numbered = [line for line in lines if " line " in line]
    assert len(numbered) >= logs.LOG_QUEUE_LINES and numbered[0].endswith("line 0 " + "x" * 80)
    dropped = logs.LOG_QUEUE_LINES + 5_000 - len(numbered)
    assert dropped > 0 and any(f"{dropped} log lines were dropped" in line for line in lines), lines[-3:]
    assert lines[-1].endswith("the reader is back")


def test_a_process_whose_log_reader_is_stuck_still_exits():
    """The writer thread blocked on a full pipe at exit: the process gives it a bounded time
    (``STOP_SECONDS`` to queue the stop, as long to finish) and exits normally, not hanging on the
    log nor failing with a full queue."""
    import subprocess
    import sys
    import time

    script = (
        "import logging, os\n"
        "from app.observability import logs\n"
        "r, w = os.pipe()\n"
        "logs.configure(stream=os.fdopen(w, 'w'))\n"
        "for n in range(30000):\n"
        "    logging.getLogger('x').warning('line %d %s', n, 'y' * 80)\n"
        "print('logged', flush=True)\n"
    )
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "logged\n", (done.returncode, done.stderr[-2000:])
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("kind", KINDS)
def test_a_database_error_names_its_statement_but_not_its_values(kind, tmp_path):
    """A failing statement's text is what reaches the log (an unhandled error's traceback, the
    action writer's error line): its parameters are game content (actions, snapshots, notebooks)
    and room ids, so they are left out of it."""
    from sqlalchemy import text

    from app.db import make_engine

    engine = make_engine(POSTGRES_URL if kind == "postgresql" else f"sqlite:///{tmp_path}/errors.db")
    try:
        with engine.connect() as connection:
            with pytest.raises(Exception) as raised:
                connection.execute(text("INSERT INTO no_such_table (secret) VALUES (:secret)"),
                                   {"secret": "the-hand-and-the-seed"})
    finally:
        engine.dispose()
    assert "no_such_table" in str(raised.value)
    assert "the-hand-and-the-seed" not in str(raised.value) and "the-hand-and-the-seed" not in repr(raised.value)


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind == "postgresql"])
def test_a_postgresql_error_s_detail_is_left_out_of_log_lines(kind):
    """PostgreSQL quotes the failing key or row in its error's DETAIL ("Key (id)=(<room id>)
    already exists", "Failing row contains (..., {"hand": ...})"): every log line leaves it out,
    in a traceback and in an error's repr."""
    import traceback

    from sqlalchemy import text

    from app.db import make_engine

    engine = make_engine(POSTGRES_URL)
    texts = []
    try:
        with engine.connect() as connection:
            create = "CREATE TEMP TABLE IF NOT EXISTS secrets (id text PRIMARY KEY, note json, n int NOT NULL)"
            for values in ({"id": "the-room-id", "note": "{}", "n": 1},  # a key that exists
                           {"id": "x", "note": '{"hand": "the-hand"}', "n": None}):  # a row refused
                connection.execute(text(create))
                connection.execute(text("INSERT INTO secrets VALUES ('the-room-id', '{}', 0) ON CONFLICT DO NOTHING"))
                try:
                    connection.execute(text("INSERT INTO secrets VALUES (:id, CAST(:note AS json), :n)"), values)
                except Exception as exc:
                    texts += [traceback.format_exc(), repr(exc), str(exc)]
                connection.rollback()
    finally:
        engine.dispose()
    said = "".join(texts)  # (what PostgreSQL says, unscrubbed)
    assert "Key (id)=(the-room-id)" in said and "the-hand" in said
    for said in texts:
        assert "the-room-id" not in scrub(said) and "the-hand" not in scrub(said), scrub(said)


def test_a_drain_s_503s_are_info_lines_and_other_5xx_errors(server, caplog):
    """During a drain the readiness probe's 503 "shutting down" and the refused requests' 503
    ``shutting_down`` are the server doing its job: info lines. Any other 5xx is still an error."""
    lifecycle = server.app.state.lifecycle
    lifecycle.shutting_down = lifecycle.draining = True
    try:
        with caplog.at_level(logging.DEBUG, logger="asobiba.http"):
            assert httpx.get(f"{server.base_url}/readyz").status_code == 503
            assert httpx.get(f"{server.base_url}/api/games").status_code == 503
    finally:
        lifecycle.shutting_down = lifecycle.draining = False
    lines = {r.getMessage(): r.levelno for r in caplog.records if r.name == "asobiba.http"}
    assert lines == {"GET /readyz 503": logging.INFO, "GET /api/games 503": logging.INFO}


@pytest.mark.parametrize("expected", [False, True])
def test_only_an_expected_5xx_is_not_an_error_line(expected, caplog):
    """The access log's level for a 5xx an app answers: ERROR unless the app marked it expected."""
    async def answers_503(scope, receive, send):
        if expected:
            expected_unavailable(scope)
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def send(message):
        pass

    scope = {"type": "http", "method": "GET", "path": "/api/games", "headers": []}
    with caplog.at_level(logging.DEBUG, logger="asobiba.http"):
        asyncio.run(ObservabilityMiddleware(answers_503)(scope, None, send))
    [line] = [r for r in caplog.records if r.name == "asobiba.http"]
    assert line.getMessage() == "GET /api/games 503"
    assert line.levelno == (logging.INFO if expected else logging.ERROR)


def test_a_long_path_is_logged_cut_short(caplog):
    """A 16 KiB path of ids (``/n/x/n/x…``) would have every id hashed to its ref on the event
    loop, ~0.1 s per line (found by review): the access log keeps only the path's first
    MAX_LOGGED_PATH characters and says how many it left out."""
    async def answers_404(scope, receive, send):
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def send(message):
        pass

    path = "/n/x" * 4000
    scope = {"type": "http", "method": "GET", "path": path, "headers": []}
    with caplog.at_level(logging.DEBUG, logger="asobiba.http"):
        asyncio.run(ObservabilityMiddleware(answers_404)(scope, None, send))
    [line] = [r for r in caplog.records if r.name == "asobiba.http"]
    assert len(line.path) <= MAX_LOGGED_PATH + 40 and line.path.startswith("/n/x/n/x")
    assert line.path.endswith(f"(+{len(path) - MAX_LOGGED_PATH} characters)")
    assert len(line.getMessage()) < MAX_LOGGED_PATH + 60
