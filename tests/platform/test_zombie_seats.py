"""Zombie seats on a fake clock: a seated player away from a running match (no socket, no stream,
no REST call) for longer than the room's grace period is replaced by the game's bot, shown as
such in the room summary; coming back takes the seat back; the abandonment is in the player's
record and the match is not rated. For every game: a table everyone walked away from waits for them,
then ends (aborted)."""

from __future__ import annotations

import time

import httpx
import pytest

import engines
from tests.support.clients import Api, Socket
from tests.support.driver import SHORT_MATCH, setup_room
from tests.support.waiting import wait_until_equal

NAMES = ["Aki", "Ben", "Cho", "Dai"]
CLOCKS = ("turn_seconds", "placement_clock")


def no_clocks(game: str) -> dict:
    """The game's per-decision clocks off, so only zombie seats move the table."""
    return {o["name"]: 0 for o in engines.get(game).options if o["name"] in CLOCKS}


def watch_state(server, room_id) -> str:
    """The server's absence watch of the room, for a failure's message (CI once saw no seat
    replaced within 30 s, Makelandia on PostgreSQL, and nothing said why)."""
    live = server.app.state.hub.rooms.get(room_id)
    watch = live.absence if live is not None else None
    if watch is None:
        return f"; room loaded: {live is not None}, no absence watch"
    task = watch._task
    return (f"; clock {server.clock.now()}, away since {watch.away_since}, zombies {watch.zombies}, "
            f"humans {watch.humans}, grace {watch.grace}, expiry task {task!r}, sleepers {server.clock.pending()}")


def bots_waiting(server, room_id) -> bool:
    """The match's bots wait for a person: its runner knows no person is at the table, and its
    only pending step is the abort after the wait (no bot move, no timed step is scheduled)."""
    live = server.app.state.hub.rooms.get(room_id)
    runner = live.runner if live is not None else None
    if runner is None or not runner.unattended:
        return False
    pending = [task.get_coro().__name__ for task in list(runner.timers._tasks) if not task.done()]
    return pending == ["_end_unattended"]


def room(server, room_id) -> dict:
    """Read anonymously: a seated player's own REST calls would count as being present."""
    return httpx.get(f"{server.base_url}/api/rooms/{room_id}").json()


def view(server, room_id) -> dict:
    return httpx.get(f"{server.base_url}/api/rooms/{room_id}/view").json()


def zombies(server, room_id) -> list[int]:
    return [s["seat"] for s in room(server, room_id)["seats"] if s["zombie"]]


@pytest.mark.parametrize("game", engines.ids())
def test_a_table_everyone_left_waits_for_them_then_is_aborted(fake_clock_server, game):
    """Once every seat is a bot's, the bots wait for a person (a table playing by itself for
    nobody would cost the server for nothing, and anyone could fill it with such tables); after
    UNATTENDED_END_SECONDS without a person the match is aborted, unrated."""
    server = fake_clock_server
    engine = engines.get(game)
    room_id, apis = setup_room(server.base_url, game, NAMES[:engine.min_players],
                               {**no_clocks(game), **SHORT_MATCH.get(game, {})})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    assert server.clock.advance(59) == 0  # within the grace period (60 s by default): nobody's watch is due
    assert zombies(server, room_id) == []
    server.clock.advance(2)
    wait_until_equal(lambda: zombies(server, room_id), list(range(engine.min_players)),
             state=lambda: watch_state(server, room_id))
    summary = room(server, room_id)
    assert all(not s["bot"] and not s["connected"] for s in summary["seats"])  # people, played for

    def settled() -> bool:  # timed steps (a reveal, a deal) still come due; then nothing moves
        if -1 in view(server, room_id)["awaiting"]:
            server.clock.advance(10)
        return bots_waiting(server, room_id)

    wait_until_equal(settled, True, state=lambda: watch_state(server, room_id))
    waiting = view(server, room_id)
    assert waiting["outcome"] is None and -1 not in waiting["awaiting"] and waiting["awaiting"], waiting
    server.clock.advance(600)  # (the table has been without a person since it passed 61 s)
    wait_until_equal(lambda: (view(server, room_id)["outcome"] or {}).get("ending"), "unattended")
    record = httpx.get(f"{server.base_url}/api/matches/{summary['match_id']}").json()
    assert record["status"] == "aborted" and record["rated"] is False and record["ending"] == "unattended"
    for api in apis:
        assert httpx.get(f"{server.base_url}/api/players/{api.player_id}").json()["abandoned"] == 1


def test_a_person_coming_back_wakes_the_bots_and_the_wait_starts_again(fake_clock_server):
    server = fake_clock_server
    room_id, (aki, ben) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], no_clocks("synomilia"))
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    assert ben.post(f"/api/rooms/{room_id}/leave").status_code == 200  # a bot plays for Ben at once
    wait_until_equal(lambda: 1 in view(server, room_id)["awaiting"], False)  # and it predicted
    assert aki.post(f"/api/rooms/{room_id}/leave").status_code == 200  # nobody is at the table now
    wait_until_equal(lambda: zombies(server, room_id), [0, 1])
    wait_until_equal(lambda: bots_waiting(server, room_id), True)  # Aki's seat is awaited: no bot plays it
    assert server.clock.advance(500) == 0  # (nothing of this table is due before the abort)
    waiting = view(server, room_id)
    assert waiting["awaiting"] == [0] and waiting["outcome"] is None
    assert aki.post(f"/api/rooms/{room_id}/join").status_code == 200  # Aki is back: the table plays on
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert ben.post(f"/api/rooms/{room_id}/leave").status_code == 200  # (Ben's seat: the bot's again)
    socket = Socket(server.ws_url, room_id, aki.token)
    assert socket.latest_view()["awaiting"] == [0]  # Aki decides, no bot for her
    assert aki.post(f"/api/rooms/{room_id}/leave").status_code == 200
    wait_until_equal(lambda: zombies(server, room_id), [0, 1])
    assert server.clock.advance(599) == 0  # a new wait: 600 s from Aki's second leaving
    server.clock.advance(2)
    wait_until_equal(lambda: (view(server, room_id)["outcome"] or {}).get("ending"), "unattended")


def test_a_table_of_bots_alone_does_not_start(server):
    aki = Api.new_player(server.base_url, "Aki")
    room_id = aki.post("/api/rooms", {"game": "synomilia", "seats": 2}).json()["id"]
    assert aki.post(f"/api/rooms/{room_id}/leave").status_code == 200  # the host stands up
    for seat in (0, 1):
        assert aki.post(f"/api/rooms/{room_id}/bots", {"seat": seat}).status_code == 200
    refused = aki.post(f"/api/rooms/{room_id}/start")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_players", refused.text
    assert room(server, room_id)["status"] == "open"


def test_coming_back_takes_the_seat_back(fake_clock_server):
    server = fake_clock_server
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], no_clocks("synomilia"))
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    host_socket = Socket(server.ws_url, room_id, host.token)
    guest_socket = Socket(server.ws_url, room_id, guest.token)
    guest_socket.latest_view()
    host_socket.recv_until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["connected"])
    guest_socket.close()  # away from the moment the server sees the socket go
    host_socket.recv_until(lambda m: m["type"] == "room" and not m["room"]["seats"][1]["connected"])
    assert server.clock.advance(30) == 0  # within the guest's grace period
    host_view = host_socket.latest_view(version=0)
    host_socket.send({"type": "action", "action": host_view["legal_actions"][0], "version": host_view["version"]})
    host_socket.latest_view(version=host_view["version"] + 1)
    server.clock.advance(31)  # the host is connected: only the guest's seat goes to the bot
    summary = host_socket.recv_until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["zombie"])["room"]
    assert summary["seats"][0]["zombie"] is False and summary["seats"][1]["connected"] is False
    wait_until_equal(lambda: 1 in view(server, room_id)["awaiting"], False)  # the bot predicted for the guest

    back = Socket(server.ws_url, room_id, guest.token)
    first = back.recv_until(lambda m: m["type"] == "room")["room"]
    assert first["seats"][1]["zombie"] is False and first["seats"][1]["connected"] is True
    current = view(server, room_id)
    if 1 in current["awaiting"]:  # the guest's decision waits for the guest again
        assert server.clock.advance(1) == 0  # no bot or timer is due for the guest's decision
        assert view(server, room_id)["version"] == current["version"]
    assert httpx.get(f"{server.base_url}/api/players/{guest.player_id}").json()["abandoned"] == 1
    assert httpx.get(f"{server.base_url}/api/players/{host.player_id}").json()["abandoned"] == 0


def test_rest_players_and_the_grace_option(fake_clock_server):
    server = fake_clock_server
    aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
    room_id = aki.post("/api/rooms", {"game": "synomilia", "seats": 2, "grace_seconds": 20,
                                      "options": no_clocks("synomilia")}).json()["id"]
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    for _ in range(4):  # a program playing over REST is present while it calls
        server.clock.advance(8)
        assert aki.get(f"/api/rooms/{room_id}/view").status_code == 200
        time.sleep(0.05)
    assert zombies(server, room_id) == [1]  # Ben made no call for 32 s; the room's grace is 20 s
    never = aki.post("/api/rooms", {"game": "synomilia", "seats": 2, "grace_seconds": 0}).json()["id"]
    assert ben.post(f"/api/rooms/{never}/join").status_code == 200
    assert aki.post(f"/api/rooms/{never}/start").status_code == 200
    server.clock.advance(3600)  # (also wakes the first room's timers: nothing to count on here)
    time.sleep(0.2)
    assert zombies(server, never) == []  # 0 = never replace


def test_an_abandonment_is_written_once_while_the_table_changes():
    """Three seats past their grace at once. While the first one's abandonment is being written (a
    database call, awaited), the room changes (a push reschedules the expiry) and Cho's socket
    comes and goes. Each seat still waiting for its write was written a second time by the new
    expiry (an ``IntegrityError`` in the server's log at 4,000 tables, benchmarks/load.py --pace);
    now Aki and Ben once each, and Cho, away afresh, only after a new grace period."""
    import asyncio

    from app.clock import FakeClock
    from app.live.zombies import AbsenceWatch

    async def settle():
        for _ in range(20):
            await asyncio.sleep(0)

    async def scenario():
        clock = FakeClock()
        written: list[int] = []
        release = asyncio.Event()

        async def on_abandon(seat: int, _player_id: str) -> None:
            written.append(seat)
            await release.wait()  # the write takes a while

        watch = AbsenceWatch(clock, 30, on_abandon, on_change=lambda: None)
        humans = {0: "aki", 1: "ben", 2: "cho"}
        watch.update(humans, present=set(), running=True)
        clock.advance(31)
        await settle()
        assert written == [0]
        watch.update(humans, present=set(), running=True)  # a room push: nothing new
        watch.update(humans, present={"cho"}, running=True)  # Cho's socket opens...
        watch.update(humans, present=set(), running=True)  # ...and closes again
        await settle()
        release.set()
        await settle()
        during = list(written), dict(watch.zombies)
        clock.advance(30)
        await settle()
        watch.stop()
        return during, written, watch.zombies

    (during, zombies_during), written, zombies = asyncio.run(scenario())
    assert during == [0, 1] and zombies_during == {0: "aki", 1: "ben"}
    assert written == [0, 1, 2] and zombies == {0: "aki", 1: "ben", 2: "cho"}
