"""Correspondence tables on the real server with a fake clock (SQLite and PostgreSQL): a match of
each pace played over simulated days, deadlines that are days long, kept for each awaited seat
(its own in a simultaneous phase), and fired once with the host's choice: the bot plays the late
seat's move, or the late player loses. The log holds each firing as one platform action, so a
replay of the log gives the stored state."""

from __future__ import annotations

import random
import threading
import time

import pytest
from sqlalchemy import create_engine, delete, select
from sqlalchemy.orm import Session

import engines
from app import store
from app.correspondence import records
from app.endings import actions as platform
from app.models import MatchDeadline
from tests.support.clients import Api, Socket
from tests.support.databases import KINDS
from tests.support.driver import SHORT_MATCH, stored_match
from tests.support.server import ADMIN_TOKEN

pytestmark = pytest.mark.every_database  # tests/conftest.py

DAY = 86_400
PACES = {"1d": 1, "2d": 2, "3d": 3, "7d": 7}
NAMES = ["Aki", "Ben", "Cho", "Dai"]


def correspondence_room(base_url: str, game: str, pace: str, on_deadline: str = "bot", players: int | None = None,
                        options: dict | None = None) -> tuple[str, list[Api]]:
    engine = engines.get(game)
    count = players or engine.min_players
    apis = [Api.new_player(base_url, name) for name in NAMES[:count]]
    response = apis[0].post("/api/rooms", {"game": game, "seats": count, "pace": pace, "on_deadline": on_deadline,
                                           "options": options if options is not None else SHORT_MATCH.get(game, {})})
    assert response.status_code == 201, response.text
    room = response.json()
    assert room["pace"] == pace and room["on_deadline"] == on_deadline
    for api in apis[1:]:
        assert api.post(f"/api/rooms/{room['id']}/join").status_code == 200
    assert apis[0].post(f"/api/rooms/{room['id']}/start").status_code == 200
    return room["id"], apis


def stored_deadlines(database_url: str, match_id: str) -> dict[int, float]:
    db = create_engine(database_url)
    with Session(db) as session:
        rows = {row.seat: row.due_at for row in session.scalars(select(MatchDeadline).where(MatchDeadline.match_id == match_id))}
    db.dispose()
    return rows


def wait_view(api: Api, room_id: str, check, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    view = None
    while time.monotonic() < deadline:
        response = api.get(f"/api/rooms/{room_id}/view")
        if response.status_code == 200:  # (in a cluster, a 503 while a new owner takes the room)
            view = response.json()
            if check(view):
                return view
        time.sleep(0.02)
    raise AssertionError(f"room {room_id}: the view never got there; last {view}")


def replayed_state_matches(database_url: str, match_id: str):
    match, log = stored_match(database_url, match_id)
    engine = engines.get(match.game)
    # the stored snapshot is of version ``match.version`` (every 32 actions, and the end)
    state, table = platform.replay(engine, engine.new_game(len(match.seats), match.seed, match.options),
                                   log[:match.version])
    assert engine.state_to_json(state) == match.state
    return match, log


GAME_OF_PACE = {"1d": "synomilia", "2d": "peribit", "3d": "mipolin", "7d": "makelandia"}


@pytest.mark.parametrize("pace", list(PACES))
def test_a_match_of_each_pace_over_simulated_days(fake_clock_server, database_url, pace):
    """Every move comes most of a pace after the decision became the player's: days pass, nothing
    fires, each fresh deadline is a whole pace from when the decision became theirs, and a seat
    that stays awaited keeps its deadline."""
    server = fake_clock_server
    clock = server.clock
    game = GAME_OF_PACE[pace]
    length = PACES[pace] * DAY
    room_id, apis = correspondence_room(server.base_url, game, pace)
    rng = random.Random(pace)
    started = clock.now()
    became = {}  # seat -> when its current decision became its own
    view = apis[0].get(f"/api/rooms/{room_id}/view").json()
    for seat in view["awaiting"]:
        became[seat] = clock.now()
    moves = 0
    while True:
        views = {seat: api.get(f"/api/rooms/{room_id}/view").json() for seat, api in enumerate(apis)}
        any_view = views[0]
        if any_view["outcome"] is not None:
            break
        version = any_view["version"]
        if any(v["version"] != version for v in views.values()):
            continue
        awaited = [s for s in any_view["awaiting"] if s >= 0]
        if not awaited or -1 in any_view["awaiting"]:  # an automatic step (a reveal) is due
            clock.advance(11)
            wait_view(apis[0], room_id, lambda v: v["version"] > version)
            continue
        deadlines = {int(s): ms / 1000 for s, ms in any_view["deadlines"].items()}
        assert set(deadlines) == set(awaited)
        for seat in awaited:
            assert deadlines[seat] >= clock.now()
            assert deadlines[seat] - length <= clock.now() + 1e-6
        seat = rng.choice(awaited)
        # Most of the time left passes before the move, but never all of it.
        clock.advance(max(0.0, (deadlines[seat] - clock.now()) * 0.5))
        action = rng.choice(views[seat]["legal_actions"])
        response = apis[seat].post(f"/api/rooms/{room_id}/actions", {"action": action, "version": version})
        assert response.status_code == 200, response.text
        moves += 1
        after = wait_view(apis[0], room_id, lambda v: v["version"] > version)
        if after["outcome"] is None and seat in after["awaiting"] and -1 not in after["awaiting"]:
            # the one who moved and is awaited again has a fresh deadline: a whole pace from now
            assert after["deadlines"][str(seat)] == int((clock.now() + length) * 1000)
        for other in awaited:
            if other != seat and other in after["awaiting"] and after["outcome"] is None:
                assert after["deadlines"][str(other)] == int(deadlines[other] * 1000)  # kept
    assert clock.now() - started > length  # it took days
    match, log = replayed_state_matches(database_url, any_view["match_id"])
    assert not [a for s, a in log if s == platform.PLATFORM]  # no deadline fired, nothing else happened
    assert match.status == "finished" and match.pace == pace
    assert stored_deadlines(database_url, match.id) == {}  # none left once it is over
    assert moves > 3


def test_the_deadline_plays_a_bot_move_for_each_late_seat_once(fake_clock_server, database_url):
    """Synomilia's prediction phase awaits both seats at once: each has its own deadline; when a
    day passes, the bot predicts for each, logged once each, and the players keep their seats."""
    server = fake_clock_server
    room_id, apis = correspondence_room(server.base_url, "synomilia", "1d", "bot")
    first = apis[0].get(f"/api/rooms/{room_id}/view").json()
    awaited = [s for s in first["awaiting"] if s >= 0]
    assert len(awaited) == 2
    expected = {s: server.clock.now() + DAY for s in awaited}
    until = time.monotonic() + 10
    while stored_deadlines(database_url, first["match_id"]) != expected:  # written just after the start
        assert time.monotonic() < until, stored_deadlines(database_url, first["match_id"])
        time.sleep(0.02)
    # Seat 0 answers after 5 hours; seat 1 never does.
    server.clock.advance(5 * 3600)
    action = apis[0].get(f"/api/rooms/{room_id}/view").json()["legal_actions"][0]
    assert apis[0].post(f"/api/rooms/{room_id}/actions", {"action": action, "version": 0}).status_code == 200
    server.clock.advance(DAY - 5 * 3600 - 60)
    time.sleep(0.3)
    assert apis[0].get(f"/api/rooms/{room_id}/view").json()["version"] == 1  # not yet
    server.clock.advance(61)
    view = wait_view(apis[0], room_id, lambda v: v["version"] >= 2)
    time.sleep(0.3)  # nothing more fires
    match, log = replayed_state_matches(database_url, first["match_id"])
    fired = [a for s, a in log if s == platform.PLATFORM]
    assert [(a["platform"], a["seat"], a["then"]) for a in fired] == [("deadline", 1, "bot")]
    room = apis[0].get(f"/api/rooms/{room_id}").json()
    assert [s["zombie"] for s in room["seats"]] == [False, False] and room["status"] == "running"
    # The next decisions have fresh deadlines of a day from the firing.
    later = apis[0].get(f"/api/rooms/{room_id}/view").json()
    for seat in later["awaiting"]:
        if seat >= 0:
            assert later["deadlines"][str(seat)] >= int((server.clock.now() + DAY - 60) * 1000)
    assert view["outcome"] is None
    # Played to the end: the final state stored is the replay of the log, the deadline's move included.
    rng = random.Random(5)
    while (current := apis[0].get(f"/api/rooms/{room_id}/view").json())["outcome"] is None:
        if -1 in current["awaiting"]:
            server.clock.advance(11)  # a delayed reveal
            wait_view(apis[0], room_id, lambda v: v["version"] > current["version"])
            continue
        seat = rng.choice([s for s in current["awaiting"] if s >= 0])
        mine = apis[seat].get(f"/api/rooms/{room_id}/view").json()
        response = apis[seat].post(f"/api/rooms/{room_id}/actions",
                                   {"action": rng.choice(mine["legal_actions"]), "version": mine["version"]})
        assert response.status_code == 200, response.text
    match, log = replayed_state_matches(database_url, first["match_id"])
    assert match.status == "finished" and match.version == len(log)
    # In the replay the bot's move is the late seat's own move: hidden from the other seat's and the
    # spectator's view, like that seat's other moves; the fact of the deadline is public.
    step = 1 + next(index for index, (seat, _action) in enumerate(log) if seat == platform.PLATFORM)
    shown = {}
    for viewer in ("all", "0", "1", "spectator"):
        response = apis[0].get(f"/api/matches/{first['match_id']}/replay?seat={viewer}&step={step}")
        assert response.status_code == 200, response.text
        shown[viewer] = response.json()["last_action"]["action"]
    assert shown["all"] == shown["1"] == log[step - 1][1] and "move" in shown["1"]
    assert shown["0"] == shown["spectator"] == {"platform": "deadline", "seat": 1, "then": "bot"}


def test_the_late_player_loses_when_the_host_chose_so(fake_clock_server, database_url):
    server = fake_clock_server
    room_id, apis = correspondence_room(server.base_url, "three_magic", "2d", "lose")
    first = apis[0].get(f"/api/rooms/{room_id}/view").json()
    late = [s for s in first["awaiting"] if s >= 0][0]
    sockets = [Socket(server.ws_url, room_id, api.token) for api in apis]
    for sock in sockets:
        sock.close()  # nobody stays connected: no seat goes to a bot for that
    server.clock.advance(2 * DAY + 1)
    view = wait_view(apis[0], room_id, lambda v: v["outcome"] is not None)
    assert view["outcome"]["ending"] == "timeout"
    ranks = view["outcome"]["ranks"]
    assert ranks[late] == max(ranks) and all(r == 0 for s, r in enumerate(ranks) if s != late)
    match, log = replayed_state_matches(database_url, first["match_id"])
    assert [a["kind"] for s, a in log if s == platform.PLATFORM] == ["timeout"]
    assert match.ending == "timeout" and match.status == "finished"
    assert stored_deadlines(database_url, match.id) == {}


def test_every_game_can_be_a_correspondence_table(server):
    for game in engines.ids():
        engine = engines.get(game)
        room_id, apis = correspondence_room(server.base_url, game, "7d", players=engine.min_players)
        view = apis[0].get(f"/api/rooms/{room_id}/view").json()
        awaited = [s for s in view["awaiting"] if s >= 0]
        assert awaited and set(view["deadlines"]) == {str(s) for s in awaited}, game
        for ms in view["deadlines"].values():
            assert 7 * DAY - 60 < ms / 1000 - time.time() <= 7 * DAY + 1, game


def test_bad_pace_is_refused(server):
    api = Api.new_player(server.base_url, "Aki")
    for body in ({"pace": "5d"}, {"pace": 3}, {"on_deadline": "explode"}, {"pace": None, "on_deadline": []}):
        response = api.post("/api/rooms", {"game": "synomilia", **body})
        assert response.status_code == 422, (body, response.text)
    room = api.post("/api/rooms", {"game": "synomilia"}).json()
    assert room["pace"] == "live" and room["on_deadline"] == "bot"
    assert api.patch(f"/api/rooms/{room['id']}", {"pace": "2d", "on_deadline": "lose"}).json()["pace"] == "2d"
    assert api.patch(f"/api/rooms/{room['id']}", {"pace": "9d"}).status_code == 422
    other = Api.new_player(server.base_url, "Ben")
    assert other.patch(f"/api/rooms/{room['id']}", {"pace": "1d"}).status_code == 403


def test_twelve_hours_left_is_emitted_once_per_deadline(fake_clock_server, database_url):
    """The hook Web Push sends from (app/correspondence/reminders.py): called once when a person's
    deadline reaches 12 hours left, never again for it (the row's ``warned``), and anew for a new
    deadline; never for a seat that already moved."""
    from app.correspondence import reminders

    heard: list = []
    reminders.TWELVE_HOURS_LEFT.append(heard.append)
    try:
        server = fake_clock_server
        room_id, apis = correspondence_room(server.base_url, "synomilia", "1d", "bot")
        first = apis[0].get(f"/api/rooms/{room_id}/view").json()
        action = first["legal_actions"][0]
        assert apis[0].post(f"/api/rooms/{room_id}/actions", {"action": action, "version": 0}).status_code == 200
        server.clock.advance(12 * 3600 - 60)
        time.sleep(0.3)
        assert heard == []  # 12 h and a minute left
        server.clock.advance(120)
        deadline = time.monotonic() + 10
        while not heard:
            assert time.monotonic() < deadline, "no 12-hours-left event"
            time.sleep(0.02)
        server.clock.advance(3600)
        time.sleep(0.3)
        assert [(r.seat, r.player_id, r.room_id, r.game) for r in heard] == [
            (1, apis[1].player_id, room_id, "synomilia")]  # Ben only: Aki had moved
        assert heard[0].due_at == first["deadlines"]["1"] / 1000
        db = create_engine(database_url)
        with Session(db) as session:
            assert session.get(MatchDeadline, (first["match_id"], 1)).warned
        db.dispose()
    finally:
        reminders.TWELVE_HOURS_LEFT.remove(heard.append)


@pytest.mark.parametrize("database_kind", [kind for kind in KINDS if kind == "postgresql"], indirect=True)
def test_a_first_deadline_stored_late_does_not_come_back_after_the_move(server, database_url):
    """The first decisions' deadlines are stored in the background (``records.add_missing``); the
    first move's transaction deletes its mover's. Here that transaction is open (its entry and
    deadline changes written, not committed) when the background write runs: the write must wait
    for it and then see the move, not insert the mover's deadline behind its back (PostgreSQL, READ
    COMMITTED; SQLite runs both on the one writer thread). Found as a CI flake of the kill -9 test."""
    room_id, (aki, _ben) = correspondence_room(server.base_url, "synomilia", "1d")
    match_id = aki.get(f"/api/rooms/{room_id}").json()["match_id"]
    wait_view(aki, room_id, lambda _v: set(stored_deadlines(database_url, match_id)) == {0, 1})
    due = stored_deadlines(database_url, match_id)
    db = create_engine(database_url)
    with Session(db) as session, session.begin():  # as if the background write had not landed yet
        session.execute(delete(MatchDeadline).where(MatchDeadline.match_id == match_id))
    move = Session(db)
    move.begin()
    entry = store.LogEntry(match_id, 0, 0, {"type": "test"}, deadlines={0: None, 1: due[1]})
    store.write_log(move, [entry])  # the move's unit, its transaction still open
    background = threading.Thread(target=lambda: records.add_missing(Session(db), match_id, 0, {0: due[0], 1: due[1]}))
    background.start()
    background.join(0.5)  # with the match's row locked by the move, it waits for the commit
    move.commit()
    move.close()
    background.join(10)
    assert not background.is_alive()
    assert stored_deadlines(database_url, match_id) == {1: due[1]}
    db.dispose()


def test_an_admin_abort_leaves_no_deadline_behind(server, database_url):
    """A match an administrator aborts is over like any other: its seats' deadlines go with it
    (a finish deletes them in its transaction; the abort does the same in its own)."""
    room_id, (aki, _ben) = correspondence_room(server.base_url, "synomilia", "1d")
    match_id = aki.get(f"/api/rooms/{room_id}").json()["match_id"]
    wait_view(aki, room_id, lambda _v: set(stored_deadlines(database_url, match_id)) == {0, 1})
    admin = Api(server.base_url, ADMIN_TOKEN)
    assert admin.post(f"/api/admin/matches/{match_id}/abort").status_code == 200
    assert stored_match(database_url, match_id)[0].status == "aborted"
    assert stored_deadlines(database_url, match_id) == {}
