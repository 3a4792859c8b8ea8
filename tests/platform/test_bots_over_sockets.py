"""Every game end to end: each seat is a WebSocket client that plays with the game's bot policy
on the view the server pushed it, until the outcome. Every pushed view must be exactly the
engine's view for that seat at that version (so the server adds and leaks nothing), and the
stored log must replay to the stored state. Automatic steps run on a fake clock."""

from __future__ import annotations

import random

import pytest

import engines
from engines.bots import get as get_bot
from tests.support.clients import Socket
from tests.support.driver import SHORT_MATCH, check_pushed_views, play_over_sockets, setup_room

CASES = [(game, engines.get(game).min_players) for game in engines.ids()]
CASES += [("makelandia", 8)] if "makelandia" in engines.ids() else []


@pytest.mark.parametrize("game, players", CASES)
def test_bots_play_a_whole_match_over_websockets(fake_clock_server, database_url, game, players):
    server = fake_clock_server
    room_id, apis = setup_room(server.base_url, game, [f"P{i}" for i in range(players)], SHORT_MATCH.get(game))
    sockets = {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}
    spectator = Socket(server.ws_url, room_id)
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    bot = get_bot(game)

    def policy(message, rng):
        return bot(message["view"], message["legal_actions"], rng)

    final = play_over_sockets(apis[0], room_id, sockets, random.Random(players), policy=policy,
                              on_idle=lambda: server.clock.advance(30))
    assert final["outcome"]["reason"]
    room = apis[0].get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "finished"
    match, _ = check_pushed_views(database_url, room["match_id"], {**sockets, None: spectator})
    assert match.outcome == final["outcome"]
