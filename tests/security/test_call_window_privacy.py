"""Three Magic's call window tells nobody who can call or who has answered (issue 48, point 5).

The attack: the discarder (or a spectator) watches the window after its discard. A seat with
nothing to call passes at once (a person's click, a bot's or a zombie's automatic answer); if the
window then stays open past its minimum time, the seat still listed in ``awaiting`` is the one that
can call. So every view must list both other seats (and SYSTEM while the minimum runs) with one
deadline until the window closes, whoever answered; and after the minimum nobody answers for a seat
with nothing to call (the server passes for it in secret), so no later answer points at the seat
still deciding.
"""

from __future__ import annotations

import engines
from app.errors import seat_name
from engines.three_magic.data import NEXT_MATCH_DELAY
from tests.support.clients import Socket
from tests.support.driver import setup_room, wait_for_version

E = engines.get("three_magic")
PASS = {"type": "pass"}


def _window_fields(message: dict, discarder: int) -> tuple:
    """What a message says of the window, with seats named relative to the discarder (1: the seat
    after it, 2: the one after that) and deadlines as they are."""
    rel = lambda s: s if s < 0 else (s - discarder) % 3  # noqa: E731
    return (message["view"]["phase"], sorted(rel(s) for s in message["awaiting"]),
            sorted((rel(int(s)), t) for s, t in message["deadlines"].items()))


def test_the_discarders_view_is_the_same_whichever_seat_answered_or_can_call(fake_clock_server):
    """At discards where exactly one other seat can call, the seat with nothing to call passes
    at once. What the discarder and a spectator then see, before and after the minimum time, is
    exactly what they see when nobody answered: both seats awaited, one deadline, the same for
    either seat as the one that can call."""
    server = fake_clock_server
    room_id, apis = setup_room(server.base_url, "three_magic", ["Aki", "Ben", "Cho"], {"short_game": True})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    spectator = Socket(server.ws_url, room_id)
    seen: dict[int, list] = {1: [], 2: []}  # the chooser's seat relative to the discarder -> what the discarder saw
    for _ in range(60):
        if len(seen[1]) + len(seen[2]) >= 3 and all(seen.values()):
            break
        message = apis[0].get(f"/api/rooms/{room_id}/view").json()
        if message["view"]["phase"] == "match_end":  # the pile ran out: the next match is dealt
            server.clock.advance(NEXT_MATCH_DELAY + 0.1)
            wait_for_version(apis[0], room_id, message["version"] + 1)
            continue
        assert message["view"]["phase"] == "insert", message["view"]["phase"]
        turn, version = message["view"]["turn"], message["version"]
        api = apis[turn]
        assert api.post(f"/api/rooms/{room_id}/actions", {"action": {"type": "insert", "pos": 8}, "version": version}).status_code == 200
        assert api.post(f"/api/rooms/{room_id}/actions",
                        {"action": {"type": "discard", "index": 8, "riichi": False}, "version": version + 1}).status_code == 200
        version += 2
        others = sorted({0, 1, 2} - {turn})
        opened = api.get(f"/api/rooms/{room_id}/view").json()
        assert opened["version"] == version
        legal = {s: apis[s].get(f"/api/rooms/{room_id}/view").json()["legal_actions"] for s in others}
        choosers = [s for s in others if legal[s] != [PASS]]
        if len(choosers) != 1:  # nobody or both can call: let the window run its course
            for s in choosers:
                assert apis[s].post(f"/api/rooms/{room_id}/actions", {"action": PASS, "version": version}).status_code == 200
                version += 1
            server.clock.advance(1.1)
            wait_for_version(apis[0], room_id, version + 1)
            continue
        chooser, idle = choosers[0], next(s for s in others if s != choosers[0])
        untouched = _window_fields(opened, turn)
        assert apis[idle].post(f"/api/rooms/{room_id}/actions", {"action": PASS, "version": version}).status_code == 200
        answered = api.get(f"/api/rooms/{room_id}/view").json()
        assert answered["version"] == version + 1
        watched = spectator.latest_view(version=version + 1)
        assert _window_fields(answered, turn) == _window_fields(watched, turn) == untouched
        server.clock.advance(1.1)  # the minimum time is over: the window stays open for the chooser
        closed = wait_for_version(api, room_id, version + 2)
        after = _window_fields(closed, turn)
        assert after == _window_fields(spectator.latest_view(version=version + 2), turn)
        assert after == ("calls", [1, 2], untouched[2]), after  # both seats, the window's one deadline
        # the discarder's refused move names both seats too, not the one still deciding
        refused = api.post(f"/api/rooms/{room_id}/actions", {"action": PASS, "version": version + 2})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_your_turn"
        assert all(seat_name(s) in refused.json()["error"]["message"] for s in others), refused.json()
        start = untouched[2][0][1]  # what the discarder saw, deadlines counted from the window's
        seen[(chooser - turn) % 3].append([(phase, awaited, [(s, t - start) for s, t in deadlines])
                                           for phase, awaited, deadlines in (untouched, after)])
        # the chooser answers; nothing else answered for anyone meanwhile
        assert apis[chooser].post(f"/api/rooms/{room_id}/actions", {"action": PASS, "version": version + 2}).status_code == 200
        assert wait_for_version(apis[0], room_id, version + 3)["view"]["phase"] in ("insert", "match_end")  # (the pile ran out)
    assert seen[1] or seen[2], seen
    if seen[1] and seen[2]:
        assert {str(x) for x in seen[1]} == {str(x) for x in seen[2]}


def test_after_the_minimum_nobody_answers_for_a_seat_with_nothing_to_call():
    """The reported deal (``new_game(3, 3)``: only seat 2 can pon the dealer's first discard). Once
    the minimum time is over the seat with nothing to call is no longer awaited: no bot, zombie or
    clock answers for it (an answer the others would see while seat 2 decides), yet every view
    still shows both seats until seat 2 decides."""
    state = E.new_game(3, 3)
    dealer = state["turn"]
    state = E.apply(E.apply(state, dealer, {"type": "insert", "pos": 8}), dealer, {"type": "discard", "index": 8, "riichi": False})
    idle = next(s for s in range(3) if s not in (dealer, 2))
    assert E.legal_actions(state, idle) == [PASS] and E.legal_actions(state, 2) != [PASS]
    closed = E.apply(state, engines.SYSTEM, {"type": "close_window"})
    assert closed["phase"] == "calls"
    assert E.awaiting(closed) == {2}  # nobody is asked to answer for the idle seat
    assert E.legal_actions(closed, idle) == [] and E.clock_seconds(closed, idle) is None
    assert E.shown_awaiting(closed) == {idle, 2}
    done = E.apply(closed, 2, PASS)
    assert done["phase"] == "insert" and E.shown_awaiting(done) == E.awaiting(done)


def test_my_tables_does_not_name_a_seat_that_answered_in_the_window():
    """"My tables" named the last mover: after a call-window answer (secret until the window
    closes) the discarder read which seat had answered (found by review). A seat the table still
    shows as deciding is not named as the last mover."""
    from app.correspondence.tables import TableRow, entry
    players = [{"seat": s, "name": n, "bot": False, "vacation_until": None} for s, n in enumerate(["Aki", "Ben", "Cho"])]
    row = TableRow("r1", "three_magic", "running", "live", "pass", 0, "m1", players, last_move_at=1.0, last_move_seat=1)
    in_window = entry(row, [1, 2], {"1": 5000, "2": 5000}, now=0.0)
    assert in_window["last_move_by"] is None and in_window["last_move_at"] == 1000
    after = entry(row, [2], {"2": 5000}, now=0.0)
    assert after["last_move_by"] == {"seat": 1, "name": "Ben"}
