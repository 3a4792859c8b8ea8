"""The host's table changes in the lobby and a player's rename (issue 29, points 4 and 5) over the
real REST API and sockets, on each database: checked against the game's metadata, host only,
refused once started, pushed to every socket; a rename goes through the one name validator and
the claimed-name check, and reaches every table the player sits at."""

from __future__ import annotations

from tests.support.clients import Api, Socket


def room_where(sock: Socket, predicate) -> dict:
    return sock.recv_until(lambda m: m["type"] == "room" and predicate(m["room"]))["room"]


def aki_and_ben_at_two_tables(server) -> tuple[Api, Api, list[str]]:
    """Aki hosts a Synomilia and a Peribit table; Ben sits at both (seat 2)."""
    aki = Api.new_player(server.base_url, "Aki")
    ben = Api.new_player(server.base_url, "Ben")
    rooms = []
    for game in ("synomilia", "peribit"):
        rid = aki.post("/api/rooms", {"game": game}).json()["id"]
        assert ben.post(f"/api/rooms/{rid}/join", {"seat": 1}).status_code == 200
        rooms.append(rid)
    return aki, ben, rooms


def test_the_host_changes_the_table_until_start(server):
    aki = Api.new_player(server.base_url, "Aki")
    ben = Api.new_player(server.base_url, "Ben")
    room = aki.post("/api/rooms", {"game": "makelandia", "seats": 6}).json()
    rid = room["id"]
    assert [s["seat"] for s in room["seats"]] == list(range(6))
    assert aki.post(f"/api/rooms/{rid}/bots", {"seat": 3, "level": "strong"}).status_code == 200
    assert ben.post(f"/api/rooms/{rid}/join", {"seat": 5}).status_code == 200
    watcher = Socket(server.ws_url, rid, ben.token)

    # a friend cannot; a size or an option outside the game's metadata changes nothing
    for who, body, status, code in ((ben, {"seats": 4}, 403, "not_host"), (aki, {"seats": 9}, 422, "bad_seats"),
                                    (aki, {"seats": 3}, 422, "bad_seats"),
                                    (aki, {"options": {"turn_seconds": -1}}, 422, "bad_options"),
                                    (aki, {"options": {"no_such_option": 1}}, 422, "bad_options"),
                                    (aki, {"seats": True}, 422, None)):
        answer = who.http.patch(f"/api/rooms/{rid}", json=body, headers=who._headers())
        assert answer.status_code == status, (body, answer.text)
        if code:
            assert answer.json()["error"]["code"] == code
    assert aki.get(f"/api/rooms/{rid}").json()["num_seats"] == 6

    # shrinking to 4: Ben (seat 6) moves into the first free seat that stays; the bot keeps its seat and level
    answer = aki.http.patch(f"/api/rooms/{rid}", json={"seats": 4, "options": {"turn_seconds": 90}}, headers=aki._headers())
    assert answer.status_code == 200, answer.text
    pushed = room_where(watcher, lambda r: r["num_seats"] == 4)
    assert [(s["seat"], s["name"]) for s in pushed["seats"]] == [(0, "Aki"), (1, "Ben"), (2, None), (3, pushed["seats"][3]["name"])]
    assert pushed["seats"][3]["bot"] and pushed["seats"][3]["bot_level"] == "strong"
    assert pushed["options"]["turn_seconds"] == 90
    # options are merged: naming one keeps the others
    aki.http.patch(f"/api/rooms/{rid}", json={"seats": 5}, headers=aki._headers())
    assert room_where(watcher, lambda r: r["num_seats"] == 5)["options"]["turn_seconds"] == 90
    # more people seated than the new size holds: refused, nothing moves
    assert aki.post(f"/api/rooms/{rid}/bots", {"seat": 2}).status_code == 200
    assert aki.post(f"/api/rooms/{rid}/bots", {"seat": 4}).status_code == 200
    answer = aki.http.patch(f"/api/rooms/{rid}", json={"seats": 4}, headers=aki._headers())
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "too_many_players"
    assert aki.get(f"/api/rooms/{rid}").json()["num_seats"] == 5
    # started: the table is what it is
    assert aki.post(f"/api/rooms/{rid}/start").status_code == 200
    answer = aki.http.patch(f"/api/rooms/{rid}", json={"seats": 6}, headers=aki._headers())
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "room_not_open"
    assert len(aki.get(f"/api/rooms/{rid}").json()["seats"]) == 5
    watcher.close()


def test_a_rename_reaches_every_table_and_keeps_the_player(server):
    aki, ben, rooms = aki_and_ben_at_two_tables(server)
    sockets = [Socket(server.ws_url, rid, aki.token) for rid in rooms]
    answer = ben.http.patch("/api/players/me", json={"name": " Benjiro "}, headers=ben._headers())
    assert answer.status_code == 200 and answer.json() == {"id": ben.player_id, "name": "Benjiro"}
    for sock in sockets:
        assert room_where(sock, lambda r: r["seats"][1]["name"] == "Benjiro")["seats"][1]["player_id"] == ben.player_id
    assert ben.get("/api/players/me").json() == {"id": ben.player_id, "name": "Benjiro"}

    # the same name rules as a new player; an account's name is not for others
    for body in ({"name": ""}, {"name": "a\u0007b"}, {"name": "x" * 41}, {"name": 7}):
        assert ben.http.patch("/api/players/me", json=body, headers=ben._headers()).status_code == 422
    assert aki.post("/api/accounts", {"password": "correct horse battery"}).status_code in (200, 201)
    refused = ben.http.patch("/api/players/me", json={"name": "ＡＫＩ"}, headers=ben._headers())
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_claimed"
    assert ben.get("/api/players/me").json()["name"] == "Benjiro"
    assert Api(server.base_url).http.patch("/api/players/me", json={"name": "Nobody"}).status_code == 401

    # an account renamed logs in under the new name; the old one is free again
    session = Api(server.base_url).post("/api/accounts/login", {"name": "Aki", "password": "correct horse battery"}).json()
    account = Api(server.base_url, session["token"])
    assert account.http.patch("/api/players/me", json={"name": "Akira"}, headers=account._headers()).status_code == 200
    assert Api(server.base_url).post("/api/accounts/login", {"name": "akira", "password": "correct horse battery"}).status_code == 200
    assert Api(server.base_url).post("/api/players", {"name": "Aki"}).status_code == 201
    assert Api(server.base_url).post("/api/players", {"name": "Akira"}).status_code == 409
    for sock in sockets:
        sock.close()


def test_a_claim_under_a_new_name_reaches_every_table(server):
    """Claiming an account under another name (the guest name was taken, say) is a rename too:
    the tables the player sits at show the new name at once, not at their next refresh."""
    aki, ben, rooms = aki_and_ben_at_two_tables(server)
    assert aki.post(f"/api/rooms/{rooms[0]}/start").status_code == 200  # one running, one open
    sockets = [Socket(server.ws_url, rid, aki.token) for rid in rooms]
    claimed = ben.post("/api/accounts", {"password": "correct horse battery", "name": "Benjiro"})
    assert claimed.status_code == 201, claimed.text
    for sock in sockets:
        assert room_where(sock, lambda r: r["seats"][1]["name"] == "Benjiro")["seats"][1]["player_id"] == ben.player_id
    assert Api(server.base_url, claimed.json()["token"]).get("/api/players/me").json()["name"] == "Benjiro"
    for sock in sockets:
        sock.close()

