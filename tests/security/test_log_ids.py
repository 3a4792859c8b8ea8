"""No id reaches a log line in a path: every route of the app's route table with a path parameter
that is an id (a room's, a night's, a player's, a match's, a session's...) is requested with a
fresh id in each, and neither the text nor the JSON log of any line says it (issue 48, point 6)."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets

import httpx
from fastapi import routing
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.observability.logs import JsonFormatter, TextFormatter, _not_a_frame_trace, room_ref
from tests.support.clients import Api

CLIENTS = ("httpx", "httpcore", "websockets.client")
# The parameters that are no ids (app.observability.logs.NOT_IDS), each with a value to send:
# a parameter added there is an id here until this test is told otherwise.
READABLE = {"game": "synomilia", "seat": "1", "path": "nothing.js"}
NOT_IDS = frozenset(READABLE)


def test_no_route_logs_the_ids_in_its_path(server, caplog):
    api = Api.new_player(server.base_url, "Aki")
    sent: dict[str, str] = {}  # each id sent -> the route that got it
    requested = []
    with caplog.at_level(logging.DEBUG):
        for route in routing.iter_route_contexts(server.app.routes):
            template = route.path_format
            names = list(getattr(route, "param_convertors", {}))
            if not any(name not in NOT_IDS for name in names):
                continue
            path = template
            for name in names:
                value = READABLE[name] if name in NOT_IDS else f"leak{secrets.token_hex(8)}"
                sent.setdefault(value, template)
                path = path.replace("{" + name + "}", value)
            methods = sorted(set(getattr(route, "methods", None) or ()) - {"HEAD"})
            if not methods:  # a WebSocket's route
                with connect(server.ws_url + path, open_timeout=10) as ws, contextlib.suppress(ConnectionClosed):
                    ws.send(json.dumps({"type": "hello", "token": api.token}))
                    ws.recv(timeout=5)  # the server closes it: an unknown room
            for method in methods:
                body = {} if method in ("POST", "PUT", "PATCH") else None
                response = api.http.request(method, path, json=body, headers=api._headers())
                assert response.status_code < 500, (method, path, response.text)
                requested.append((method, template))
            # a path that goes on past a route's (a 404) is scrubbed as well
            assert api.get(path + "/nothing-here").status_code in (404, 405)
        httpx.get(f"{server.base_url}/api/players/me", headers=api._headers())
    assert len(requested) > 30  # the route table really was walked
    # the server's lines (this process also holds the test's own clients, whose lines are not logs)
    records = [r for r in caplog.records if not r.name.startswith(CLIENTS) and _not_a_frame_trace(r)]
    routes_logged = {r.route for r in records if getattr(r, "route", None)}
    assert {template for _, template in requested} <= routes_logged
    text = "\n".join(TextFormatter().format(r) for r in records)
    json_text = "\n".join(JsonFormatter().format(r) for r in records)
    for value, template in sent.items():
        if value in READABLE.values():
            continue
        assert value not in text, f"{template}: {value} in the text log"
        assert value not in json_text, f"{template}: {value} in the JSON log"
        assert room_ref(value) in text, template  # logged, as its ref
    assert "/api/players/me " in text  # a literal route's word is no id
