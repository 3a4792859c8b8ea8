"""OpenAPI links: which response field feeds which operation's parameters (a room's ``id`` into
every ``/api/rooms/{room_id}`` operation, a view's first legal action and version into the next
action, a started room's ``match_id`` into the match history). Clients and generators of API tests
(schemathesis's stateful phase) follow them to reach rooms, matches and actions with real ids."""

from __future__ import annotations

ROOM = "/api/rooms/{room_id}"
ROOM_OPERATIONS = [("get", ROOM), ("post", f"{ROOM}/join"), ("post", f"{ROOM}/leave"), ("post", f"{ROOM}/start"),
                   ("post", f"{ROOM}/bots"), ("delete", f"{ROOM}/bots/{{seat}}"), ("get", f"{ROOM}/view"),
                   ("post", f"{ROOM}/actions"), ("get", f"{ROOM}/seat-data"), ("put", f"{ROOM}/seat-data")]
MATCH = "/api/matches/{match_id}"
MATCH_OPERATIONS = [("get", MATCH), ("get", f"{MATCH}/replay"), ("get", f"{MATCH}/export"),
                    ("get", "/api/admin/matches/{match_id}"), ("get", "/api/admin/matches/{match_id}/replay")]
NIGHT = "/api/nights/{night_id}"
NIGHT_OPERATIONS = [("get", NIGHT), ("patch", NIGHT), ("post", f"{NIGHT}/join"), ("post", f"{NIGHT}/leave"),
                    ("post", f"{NIGHT}/vote"), ("post", f"{NIGHT}/next"), ("post", f"{NIGHT}/end"),
                    ("get", f"{NIGHT}/chart.svg"), ("get", f"{NIGHT}/standings.png")]
NEXT_ACTION = {"room_id": "$request.path.room_id"}, {"action": "$response.body#/legal_actions/0",
                                                      "version": "$response.body#/version"}


def _to_rooms(room_id: str) -> list:
    return [(method, path, {"room_id": room_id}, None) for method, path in ROOM_OPERATIONS]


def _to_nights(night_id: str) -> list:
    return [(method, path, {"night_id": night_id}, None) for method, path in NIGHT_OPERATIONS]


def _to_matches(match_id: str) -> list:
    return [(method, path, {"match_id": match_id}, None) for method, path in MATCH_OPERATIONS]


# (method, path, status) of a response -> [(method, path, parameters, request body)] it leads to.
LINKS = {
    ("post", "/api/players", "201"): [("get", "/api/players/{player_id}", {"player_id": "$response.body#/id"}, None),
                                      ("get", "/api/players/{player_id}/matches", {"player_id": "$response.body#/id"}, None),
                                      ("get", "/api/players/{player_id}/stats", {"player_id": "$response.body#/id"}, None)],
    ("post", "/api/rooms", "201"): _to_rooms("$response.body#/id")
    + [("post", "/api/nights", {}, {"room_id": "$response.body#/id"})],  # a game night from the new table
    ("post", "/api/nights", "201"): _to_nights("$response.body#/id"),
    ("get", NIGHT, "200"): _to_nights("$response.body#/id"),
    ("post", f"{ROOM}/join", "200"): _to_rooms("$response.body#/id"),
    ("post", f"{ROOM}/bots", "200"): _to_rooms("$response.body#/id"),
    ("post", f"{ROOM}/start", "200"): _to_rooms("$response.body#/id") + _to_matches("$response.body#/match_id"),
    ("get", ROOM, "200"): _to_rooms("$response.body#/id") + _to_matches("$response.body#/match_id"),
    ("get", f"{ROOM}/view", "200"): [("post", f"{ROOM}/actions", *NEXT_ACTION)] + _to_matches("$response.body#/match_id"),
    ("post", f"{ROOM}/actions", "200"): [("post", f"{ROOM}/actions", *NEXT_ACTION)] + _to_matches("$response.body#/match_id"),
}


def add_links(schema: dict) -> dict:
    """Add ``links`` to the responses of ``schema`` (in place; idempotent); returns it."""
    paths = schema["paths"]
    for (method, path, status), targets in LINKS.items():
        response = paths[path][method]["responses"].setdefault(status, {"description": "Successful Response"})
        links = response.setdefault("links", {})
        for target_method, target_path, parameters, body in targets:
            operation_id = paths[target_path][target_method]["operationId"]
            link = {"operationId": operation_id, "parameters": parameters}
            if body is not None:
                link["requestBody"] = body
            links[operation_id] = link
    return schema


def install(app) -> None:
    generate = app.openapi
    app.openapi = lambda: add_links(generate())
