"""Every game's default clock on the real server (fake clock, SQLite and PostgreSQL): the views
carry a deadline for each awaited seat at the engine's default length; nothing happens before it;
when it passes the server applies exactly the engine's ``on_timeout`` for each late seat (logged
like any action), so a table of absent players moves on. Makelandia's promise in particular: a
defender whose clock runs out plays their weakest single card."""

from __future__ import annotations

import time

import pytest

import engines
from engines import SYSTEM
from tests.support.clients import Socket
from tests.support.driver import setup_room, states_by_version, stored_match, wait_for_version

NAMES = ["Aki", "Ben", "Cho", "Dai"]


def default_clock(engine) -> int:
    return next(o["default"] for o in engine.options if o["name"] in ("turn_seconds", "placement_clock"))


def expected_timeouts(engine, state) -> set:
    """(seat the runner acts as, action) for every awaited seat of ``state``."""
    out = set()
    for seat in engine.awaiting(state):
        action = engine.on_timeout(state, seat)
        actor = seat if action in engine.legal_actions(state, seat) else SYSTEM
        out.add((actor, repr(sorted(action.items()))))
    return out


@pytest.mark.parametrize("game", engines.ids())
def test_nobody_moves_and_the_server_plays_on(fake_clock_server, database_url, game):
    server = fake_clock_server
    engine = engines.get(game)
    seconds = default_clock(engine)
    room_id, apis = setup_room(server.base_url, game, NAMES[:engine.min_players])
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    first = Socket(server.ws_url, room_id, apis[0].token).latest_view(version=0)
    awaited = [s for s in first["awaiting"] if s >= 0]
    now_ms = int(server.clock.now() * 1000)
    assert awaited and first["deadlines"] == {str(s): now_ms + seconds * 1000 for s in awaited}
    assert server.clock.advance(seconds - 1) == 0  # no deadline due yet
    assert apis[0].get(f"/api/rooms/{room_id}/view").json()["version"] == 0  # not yet
    server.clock.advance(1.5)
    wait_for_version(apis[0], room_id, len(awaited))
    match, log = stored_match(database_url, first["match_id"])
    state = states_by_version(match, log)[0]
    taken = {(seat, repr(sorted(action.items()))) for seat, action in log[:len(awaited)]}
    assert taken == expected_timeouts(engine, state)


def test_makelandia_defender_clock_plays_the_weakest_single_card(fake_clock_server, database_url):
    server = fake_clock_server
    engine = engines.get("makelandia")
    room_id, apis = setup_room(server.base_url, "makelandia", NAMES)
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    # Everyone stays connected: the defender is late, nobody is away (no zombie seat after 60 s).
    sockets = [Socket(server.ws_url, room_id, api.token) for api in apis]
    message = sockets[0].latest_view(version=0)
    turn = message["view"]["turn"]
    own = apis[turn].get(f"/api/rooms/{room_id}/view").json()
    attack = next(a for a in own["legal_actions"] if a["type"] == "attack" and len(a["cards"]) == 1)
    assert apis[turn].post(f"/api/rooms/{room_id}/actions", {"action": attack, "version": 0}).status_code == 200
    defender = attack["target"]
    defending = apis[defender].get(f"/api/rooms/{room_id}/view").json()
    assert defending["awaiting"] == [defender] and defending["view"]["phase"] == "defend"
    hand = defending["view"]["hand"]
    weakest = min(hand, key=lambda c: (0, int(c)) if c.isdigit() else (1, ["boost", "kill"].index(c)))
    server.clock.advance(60.5)
    after = wait_for_version(apis[0], room_id, 2)
    battle = after["view"]["last_battle"]
    assert battle["defender"] == defender and battle["defense"] == [weakest]
    match, log = stored_match(database_url, message["match_id"])
    assert log[1] == (defender, {"type": "defend", "cards": [weakest]})
    assert log[1][1] == engine.on_timeout(states_by_version(match, log)[1], defender)
