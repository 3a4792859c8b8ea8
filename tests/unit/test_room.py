"""The live room (app/live/room.py), in process: what it pushes to which socket. Each seat's
sockets get that seat's own view (the same encoded frame for all of them), spectators and people
without a seat the public one, and nothing before its commit; room summaries are coalesced."""

from __future__ import annotations

import asyncio

import pytest

from app.clock import FakeClock
from app.errors import ApiError
from app.live.room import LiveRoom
from app.live.zombies import AbsenceWatch
from app.settings import Settings
from app.store import RoomInfo
from tests.support.live_parts import InMemoryWriter, RecordingSocket, new_runner, turns, until

PREDICT_3 = {"type": "predict", "card": 3}
PREDICT_4 = {"type": "predict", "card": 4}


def settings(**overrides) -> Settings:
    values: dict = dict(bot_think_seconds=0.0, room_push_interval=0.0, unattended_tables_play=False)
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]  # (pydantic-settings' own argument)


def seat(number: int, player_id: str | None, bot: bool = False) -> dict:
    return {"seat": number, "player_id": player_id, "name": player_id, "bot": bot, "left": False,
            "bot_level": "easy" if bot else None, "vacation_until": None}


def info(*seats: dict, status: str = "running", match_id: str | None = "m1") -> RoomInfo:
    return RoomInfo("r1", "synomilia", {}, status, "p0", match_id, len(seats), None, list(seats))


def table(writer: InMemoryWriter | None = None, **overrides):
    """Room r1 with Aki (p0) at seat 0 and Ben (p1) at seat 1, its match attached, and sockets for
    each seat (two for Aki), an anonymous spectator and a player without a seat (p9)."""
    writer = writer or InMemoryWriter()
    room = LiveRoom("r1", settings(**overrides))
    room.apply_info(info(seat(0, "p0"), seat(1, "p1")))
    runner = new_runner(writer=writer)
    room.attach(runner)
    sockets = {name: RecordingSocket(player_id, writer, "m1")
               for name, player_id in [("aki", "p0"), ("aki_phone", "p0"), ("ben", "p1"),
                                       ("spectator", None), ("visitor", "p9")]}
    for socket in sockets.values():
        room.join(socket)
    return room, runner, sockets


def test_each_seat_gets_its_own_view_and_spectators_the_public_one():
    async def scenario():
        room, runner, sockets = table()
        await runner.submit(0, PREDICT_3, 0)
        await runner.submit(1, PREDICT_4, 1)
        latest = {name: socket.views()[-1] for name, socket in sockets.items()}
        assert all(view["version"] == 2 for view in latest.values())
        assert latest["aki"]["seat"] == 0 and latest["aki"]["view"]["my_prediction"] == 3
        assert latest["ben"]["seat"] == 1 and latest["ben"]["view"]["my_prediction"] == 4
        assert latest["aki"]["legal_actions"] and latest["aki"]["legal_actions"] == runner.message(0)["legal_actions"]
        for name in ("spectator", "visitor"):
            assert latest[name]["seat"] is None and latest[name]["view"]["my_prediction"] is None
            assert latest[name]["legal_actions"] == []
            assert latest[name] == runner.message(None)

    asyncio.run(scenario())


def test_no_view_shows_another_seats_hidden_prediction():
    """Before the reveal, no socket but Aki's ever sees Aki's card (3) as a prediction."""
    async def scenario():
        room, runner, sockets = table()
        await runner.submit(0, PREDICT_3, 0)
        await runner.submit(1, PREDICT_4, 1)
        for name in ("ben", "spectator", "visitor"):
            assert all(view["view"]["my_prediction"] != 3 for view in sockets[name].views()), name
        assert all(view["view"]["my_prediction"] != 4 for view in sockets["aki"].views())

    asyncio.run(scenario())


def test_the_sockets_of_one_seat_share_one_encoded_frame_per_version():
    async def scenario():
        room, runner, sockets = table()
        await runner.submit(0, PREDICT_3, 0)
        aki = [f for f in sockets["aki"].frames if f.message["type"] == "view"]
        phone = [f for f in sockets["aki_phone"].frames if f.message["type"] == "view"]
        assert len(aki) == len(phone) == 1 and aki[0] is phone[0]
        spectator = [f for f in sockets["spectator"].frames if f.message["type"] == "view"]
        visitor = [f for f in sockets["visitor"].frames if f.message["type"] == "view"]
        assert spectator[0] is visitor[0] and spectator[0] is not aki[0]
        assert runner.views.encodes[0] == 1 and runner.views.encodes[None] == 1

    asyncio.run(scenario())


def test_no_view_is_pushed_before_its_commit():
    """The writer holds each commit: while it does, no socket is sent a view of that version; once
    it resolves, every socket gets it, and each view any socket got was committed when sent."""
    async def scenario():
        writer = InMemoryWriter(auto=False)
        room, runner, sockets = table(writer)
        for number, (seat_number, action) in enumerate([(0, PREDICT_3), (1, PREDICT_4)], start=1):
            submitted = asyncio.ensure_future(runner.submit(seat_number, action, runner.version))
            await until(lambda: writer.waiting == 1)
            await turns()
            for name, socket in sockets.items():
                assert all(view["version"] < number for view in socket.views()), f"{name} saw an uncommitted view"
            writer.commit_next()
            await submitted
            for name, socket in sockets.items():
                assert socket.views()[-1]["version"] == number, name
        for socket in sockets.values():
            assert socket.committed_when_sent, "sent nothing"
            for message, committed in zip(socket.received, socket.committed_when_sent):
                if message["type"] == "view":
                    assert message["version"] <= committed, (message["version"], committed)

    asyncio.run(scenario())


def test_a_refused_action_pushes_nothing():
    async def scenario():
        room, runner, sockets = table()
        await turns()  # the joins' coalesced summary
        before = {name: len(socket.received) for name, socket in sockets.items()}
        for action in ({"type": "pass"}, "nonsense"):
            with pytest.raises(ApiError):
                await runner.submit(0, action, 0)
        await turns()
        assert {name: len(socket.received) for name, socket in sockets.items()} == before

    asyncio.run(scenario())


def test_a_joining_socket_gets_the_summary_at_once_and_the_others_one_coalesced_push():
    async def scenario():
        room = LiveRoom("r1", settings())
        room.apply_info(info(seat(0, "p0"), seat(1, "p1"), status="open", match_id=None))
        first = RecordingSocket("p0")
        room.join(first)
        assert [r["id"] for r in first.rooms()] == ["r1"]  # at once, before any turn of the loop
        await turns()
        first.received.clear()
        for player_id in ("p1", None, None):
            room.join(RecordingSocket(player_id))
        assert first.received == []  # not one push per join
        await until(lambda: len(first.rooms()) == 1)
        await turns()
        (summary,) = first.rooms()
        assert [s["connected"] for s in summary["seats"]] == [True, True]
        assert summary["spectators"] == 2

    asyncio.run(scenario())


def test_the_summary_shows_who_is_connected_and_counts_spectators():
    async def scenario():
        room, runner, sockets = table()
        summary = room.summary()
        assert [s["connected"] for s in summary["seats"]] == [True, True]
        assert summary["spectators"] == 2  # the anonymous socket and p9, who has no seat
        room.leave(sockets["ben"])
        summary = room.summary()
        assert [s["connected"] for s in summary["seats"]] == [True, False]
        room.leave(sockets["aki"])  # Aki's phone is still there
        assert room.summary()["seats"][0]["connected"] is True

    asyncio.run(scenario())


def test_a_socket_that_left_is_sent_nothing_more():
    async def scenario():
        room, runner, sockets = table()
        room.leave(sockets["ben"])
        count = len(sockets["ben"].received)
        await runner.submit(0, PREDICT_3, 0)
        await turns()
        assert len(sockets["ben"].received) == count
        assert sockets["aki"].views()[-1]["version"] == 1

    asyncio.run(scenario())


def test_the_end_of_the_match_pushes_the_last_view_then_the_finished_room_at_once():
    async def scenario():
        room, runner, sockets = table(room_push_interval=3600.0)  # only a push ``now`` can arrive
        await turns()
        for socket in sockets.values():
            socket.received.clear()
        await runner.submit(1, {"platform": "resign"}, None)
        for name, socket in sockets.items():
            kinds = [m["type"] for m in socket.received]
            assert kinds == ["view", "room"], (name, kinds)
            view, summary = socket.received
            assert view["outcome"]["ending"] == "resigned" and summary["room"]["status"] == "finished"
        assert room.summary()["status"] == "finished"

    asyncio.run(scenario())


def test_push_to_seats_reaches_only_their_sockets():
    async def scenario():
        room, runner, sockets = table()
        for socket in sockets.values():
            socket.received.clear()
        room.push_to({"type": "chat", "message": {"text": "team only"}}, seats={0})
        assert {name for name, socket in sockets.items() if socket.received} == {"aki", "aki_phone"}
        room.push_to({"type": "chat", "message": {"text": "all"}})
        assert all(socket.received[-1]["message"]["text"] == "all" for socket in sockets.values())

    asyncio.run(scenario())


def test_attaching_a_match_tells_it_the_rooms_bot_seats_and_listens_to_it():
    async def scenario():
        room = LiveRoom("r1", settings(bot_think_seconds=1.5))
        room.apply_info(info(seat(0, "p0"), seat(1, "b1", bot=True)))
        room.join(RecordingSocket("p0"))  # a person at the table (app/live/attendance.py)
        runner = new_runner()
        room.attach(runner)
        assert runner.listener is room
        assert runner.bot_seats == {1} and runner.bot_levels == {1: "easy"}
        assert runner.bot_think_seconds == 1.5 and runner.unattended is False
        room.close()
        assert runner.listener is None

    asyncio.run(scenario())


def test_a_live_table_whose_person_is_not_connected_is_unattended():
    """Attendance is judged by the people connected, not by how many seats are bots (issue 48)."""
    async def scenario():
        clock = FakeClock()

        async def on_abandon(seat_number: int, player_id: str) -> None:
            pass

        room = LiveRoom("r1", settings())
        room.absence = AbsenceWatch(clock, 0.0, on_abandon, room.zombies_changed)  # (the hub's watch)
        room.apply_info(info(seat(0, "p0"), seat(1, "b1", bot=True)))
        runner = new_runner(clock=clock)
        room.attach(runner)
        assert runner.unattended is True
        sock = RecordingSocket("p0")
        room.join(sock)
        assert runner.unattended is False
        room.leave(sock)
        assert runner.unattended is True
        room.close()

    asyncio.run(scenario())


def test_a_table_of_bots_alone_is_unattended_unless_such_tables_play():
    async def scenario():
        for plays, unattended in ((False, True), (True, False)):
            room = LiveRoom("r1", settings(unattended_tables_play=plays))
            room.apply_info(info(seat(0, "b0", bot=True), seat(1, "b1", bot=True)))
            runner = new_runner()
            room.attach(runner)
            assert runner.unattended is unattended

    asyncio.run(scenario())


def test_an_absent_players_seat_goes_to_a_bot_after_the_grace_period_and_comes_back():
    """Ben's last socket leaves: after the grace period on the clock a bot plays his seat (the
    runner is told, every socket sees the seat as a zombie); his new socket takes it back."""
    async def scenario():
        clock = FakeClock()
        abandoned: list[tuple[int, str]] = []

        async def on_abandon(seat_number: int, player_id: str) -> None:
            abandoned.append((seat_number, player_id))

        room = LiveRoom("r1", settings())
        room.absence = AbsenceWatch(clock, 10.0, on_abandon, room.zombies_changed)
        room.apply_info(info(seat(0, "p0"), seat(1, "p1")))
        runner = new_runner(clock=clock)
        room.attach(runner)
        aki, ben = RecordingSocket("p0"), RecordingSocket("p1")
        room.join(aki)
        room.join(ben)
        room.leave(ben)
        assert clock.advance(9.0) == 0
        await turns()
        assert runner.zombie_seats == set() and runner.bot_seats == set()
        clock.advance(1.0)
        await until(lambda: runner.zombie_seats == {1})
        assert abandoned == [(1, "p1")] and runner.bot_seats == {1}
        await until(lambda: any(s["zombie"] for r in aki.rooms() for s in r["seats"]))
        room.join(RecordingSocket("p1"))
        assert runner.zombie_seats == set() and runner.bot_seats == set()
        assert [s["zombie"] for s in room.summary()["seats"]] == [False, False]
        runner.stop()
        room.close()

    asyncio.run(scenario())
