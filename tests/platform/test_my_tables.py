""""My tables" and vacations on the real server with a fake clock (SQLite and PostgreSQL): a
player at three tables sees the one awaiting them first, then the running one awaiting others,
then the open one; counts, deadlines, the last move and unread chat are right; nobody sees or
marks another's tables. A vacation moves the player's deadlines (only theirs), shows to the
others, ends early with the unused days given back, and is bounded to 14 days a year."""

from __future__ import annotations

import json
import time

import pytest
import httpx

from tests.platform.test_correspondence import DAY, stored_deadlines, wait_view
from tests.support.clients import Api, Socket

pytestmark = pytest.mark.every_database  # tests/conftest.py


def new_table(host: Api, guest: Api, pace: str = "1d", start: bool = True) -> str:
    room = host.post("/api/rooms", {"game": "synomilia", "pace": pace}).json()
    assert guest.post(f"/api/rooms/{room['id']}/join").status_code == 200
    if start:
        assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    return room["id"]


def tables_of(api: Api) -> dict:
    response = api.get("/api/me/tables")
    assert response.status_code == 200, response.text
    return response.json()


def test_three_tables_in_order_with_counts(fake_clock_server):
    server = fake_clock_server
    clock = server.clock
    aki, ben, cho = (Api.new_player(server.base_url, n) for n in ("Aki", "Ben", "Cho"))
    waiting = new_table(aki, ben)  # Aki will have answered: Ben's turn only
    clock.advance(3600)
    mine = new_table(aki, ben)  # both awaited: Aki's turn
    clock.advance(3600)
    open_table = new_table(aki, ben, pace="3d", start=False)
    first = aki.get(f"/api/rooms/{waiting}/view").json()
    assert aki.post(f"/api/rooms/{waiting}/actions", {"action": first["legal_actions"][0],
                                                      "version": first["version"]}).status_code == 200
    sock = Socket(server.ws_url, waiting, ben.token)
    sock.send({"type": "chat", "text": "your move was quick", "channel": "room"})
    sock.recv_until(lambda m: m["type"] == "chat")
    sock.close()

    listed = tables_of(aki)
    assert [t["room_id"] for t in listed["tables"]] == [mine, waiting, open_table]
    assert listed["your_turn"] == 1
    by_id = {t["room_id"]: t for t in listed["tables"]}
    assert by_id[mine]["your_turn"] and {a["name"] for a in by_id[mine]["awaiting"]} == {"Aki", "Ben"}
    assert by_id[mine]["deadline"] == int((clock.now() - 3600 + DAY) * 1000)  # Aki's own, from the start
    assert abs(by_id[mine]["time_left"] - (DAY - 3600)) < 1
    assert not by_id[waiting]["your_turn"] and [a["name"] for a in by_id[waiting]["awaiting"]] == ["Ben"]
    assert by_id[waiting]["last_move_by"] == {"seat": 0, "name": "Aki"} and by_id[waiting]["unread"] == 1
    assert by_id[open_table]["status"] == "open" and by_id[open_table]["deadline"] is None
    assert by_id[open_table]["pace"] == "3d" and by_id[mine]["unread"] == 0

    ben_listed = tables_of(ben)  # both running tables await Ben: the sooner deadline first
    assert ben_listed["your_turn"] == 2
    assert [t["room_id"] for t in ben_listed["tables"]] == [waiting, mine, open_table]
    assert ben_listed["tables"][0]["unread"] == 0  # his own message

    assert tables_of(cho) == {"tables": [], "your_turn": 0, "answers_owed": 0, "waiting_for_you": 0,
                              "now": int(clock.now() * 1000)}
    assert cho.post(f"/api/me/tables/{waiting}/read").status_code == 404  # not his table
    assert cho.post("/api/me/tables/no%20such/read").status_code in (400, 422)
    assert aki.post(f"/api/me/tables/{waiting}/read").status_code == 200
    assert {t["room_id"]: t["unread"] for t in tables_of(aki)["tables"]}[waiting] == 0
    assert Api(server.base_url).get("/api/me/tables").status_code == 401

    # The NDJSON stream: the same object at once, then a line when something changes.
    with httpx.Client(base_url=server.base_url, timeout=20) as client:
        with client.stream("GET", "/api/me/tables/stream", headers={"Authorization": f"Bearer {aki.token}"}) as stream:
            assert stream.status_code == 200
            lines = stream.iter_lines()
            line = json.loads(next(lines))
            assert line["type"] == "tables" and line["your_turn"] == 1
            assert [t["room_id"] for t in line["tables"]] == [mine, waiting, open_table]
            view = ben.get(f"/api/rooms/{waiting}/view").json()
            assert ben.post(f"/api/rooms/{waiting}/actions", {"action": view["legal_actions"][0],
                                                              "version": view["version"]}).status_code == 200
            line = json.loads(next(lines))
            while line["type"] == "ping":
                line = json.loads(next(lines))
            # the next line says what changed: Ben answered at the waiting table
            changed = {t["room_id"]: t for t in line["tables"]}[waiting]
            assert line["type"] == "tables" and changed["last_move_by"] == {"seat": 1, "name": "Ben"}


def test_an_answer_owed_to_a_proposal_is_listed_and_counted(fake_clock_server):
    """Aki proposes to abort a correspondence table where Ben has moved and it is Aki's turn: Ben
    owes an answer (listed first, counted among the tables waiting for him), Aki owes none; once
    Ben declines, nobody does."""
    server = fake_clock_server
    aki, ben = (Api.new_player(server.base_url, n) for n in ("Aki", "Ben"))
    room_id = new_table(aki, ben)
    other = new_table(aki, ben)  # both awaited here: Ben's turn at this one
    view = ben.get(f"/api/rooms/{room_id}/view").json()
    assert ben.post(f"/api/rooms/{room_id}/actions", {"action": view["legal_actions"][0],
                                                      "version": view["version"]}).status_code == 200
    assert tables_of(ben)["waiting_for_you"] == 1 and tables_of(ben)["answers_owed"] == 0
    version = aki.get(f"/api/rooms/{room_id}/view").json()["version"]
    proposed = aki.post(f"/api/rooms/{room_id}/actions", {"action": {"platform": "abort"}, "version": version})
    assert proposed.status_code == 200, proposed.text

    listed = tables_of(ben)
    by_id = {t["room_id"]: t for t in listed["tables"]}
    assert by_id[room_id]["answer_owed"] and not by_id[room_id]["your_turn"]
    assert not by_id[other]["answer_owed"] and by_id[other]["your_turn"]
    assert (listed["your_turn"], listed["answers_owed"], listed["waiting_for_you"]) == (1, 1, 2)
    mine = tables_of(aki)
    assert not any(t["answer_owed"] for t in mine["tables"]) and mine["answers_owed"] == 0

    version = ben.get(f"/api/rooms/{room_id}/view").json()["version"]
    declined = ben.post(f"/api/rooms/{room_id}/actions",
                        {"action": {"platform": "decline", "kind": "abort"}, "version": version})
    assert declined.status_code == 200, declined.text
    listed = tables_of(ben)
    assert listed["answers_owed"] == 0 and listed["waiting_for_you"] == 1


def test_vacation_moves_only_the_players_deadlines(fake_clock_server, database_url):
    server = fake_clock_server
    clock = server.clock
    aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
    room_id = new_table(aki, ben)
    match_id = aki.get(f"/api/rooms/{room_id}").json()["match_id"]
    start = clock.now()
    until = time.monotonic() + 10
    while set(stored_deadlines(database_url, match_id)) != {0, 1}:
        assert time.monotonic() < until
        time.sleep(0.02)
    assert aki.get("/api/me/vacation").json() == {"on_vacation": False, "until": None, "year": 2030,
                                                  "days_left": 14, "allowance_days": 14}
    clock.advance(3600)
    on = aki.post("/api/me/vacation", {"days": 3})
    assert on.status_code == 200, on.text
    assert on.json()["on_vacation"] and on.json()["days_left"] == 11
    assert on.json()["until"] == int((clock.now() + 3 * DAY) * 1000)
    assert stored_deadlines(database_url, match_id) == {0: start + DAY + 3 * DAY, 1: start + DAY}
    view = wait_view(ben, room_id, lambda v: v["deadlines"].get("0") == int((start + 4 * DAY) * 1000))
    assert view["deadlines"]["1"] == int((start + DAY) * 1000)
    seats = ben.get(f"/api/rooms/{room_id}").json()["seats"]
    assert seats[0]["vacation_until"] == on.json()["until"] and seats[1]["vacation_until"] is None
    assert tables_of(ben)["tables"][0]["players"][0]["vacation_until"] == on.json()["until"]
    assert aki.post("/api/me/vacation", {"days": 1}).json()["error"]["code"] == "on_vacation"

    clock.advance(DAY)  # Ben's deadline passes: the bot predicts for Ben, nothing for Aki
    wait_view(aki, room_id, lambda v: v["version"] >= 1)
    after = aki.get(f"/api/rooms/{room_id}/view").json()
    assert 0 in after["awaiting"] and after["deadlines"]["0"] == int((start + 4 * DAY) * 1000)

    # Back after a day and an hour of the three: the unused part comes back and the clock runs again.
    used = DAY + 3600
    clock.advance(3600)
    off = aki.delete("/api/me/vacation")
    assert off.status_code == 200, off.text
    assert not off.json()["on_vacation"] and off.json()["days_left"] == 12  # 14 - 1.04 days, whole days
    assert stored_deadlines(database_url, match_id)[0] == start + DAY + used
    assert aki.delete("/api/me/vacation").json()["error"]["code"] == "not_on_vacation"
    assert aki.post("/api/me/vacation", {"days": 13}).json()["error"]["code"] == "vacation_exhausted"
    for body in ({"days": 0}, {"days": 15}, {"days": "3"}, {"days": 2.5}, {}, {"days": 2, "x": 1}):
        assert aki.post("/api/me/vacation", body).status_code == 422, body
    assert Api(server.base_url).post("/api/me/vacation", {"days": 2}).status_code == 401
