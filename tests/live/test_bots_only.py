"""A room of bots plays to the end by itself, for every game and every player count (on a server
that lets tables of bots alone play: ``UNATTENDED_TABLES_PLAY``).

Bots think for 0 s, but some engines wait between rounds (Peribit, Three Magic: 6 s SYSTEM
delays), so the server runs on a ``FakeClock`` that a ticker thread moves forward quickly; every
action still goes through the real apply path, database and HTTP API. One server per database
kind serves all the games (a fresh server per case would cost more than the games themselves).
On PostgreSQL only a subset runs (see ``CASES``)."""

from __future__ import annotations

import threading
from contextlib import ExitStack

import pytest
from sqlalchemy import create_engine, func, select

import engines
from app.clock import FakeClock
from app.models import Match, MatchAction
from tests.live.helpers import bots_only_room, wait_for_status
from tests.support.databases import KINDS, migrated_database
from tests.support.driver import SHORT_MATCH
from tests.support.server import start_in_thread

# Three Magic's short game (SHORT_MATCH): every action is a committed transaction, and the full
# game alone took ~10 s on a busy machine.
OPTIONS = {"synomilia": {"reveal_delay": 0}, "peribit": {"placement_clock": 0}, **SHORT_MATCH}
CASES = [("sqlite", game, n) for game in engines.ids()
         for n in range(engines.get(game).min_players, engines.get(game).max_players + 1)]
# PostgreSQL: each game once, at its largest table. The games' rules do not touch the database;
# what PostgreSQL adds (JSON state, one transaction per action) is the same for every count, and
# every extra case costs a few hundred committed transactions.
if "postgresql" in KINDS:
    CASES += [("postgresql", game, engines.get(game).max_players) for game in engines.ids()]


@pytest.fixture(scope="module")
def fast_servers(tmp_path_factory):
    """``get(kind)``: a server on a fresh database of that kind, on a FakeClock that a ticker
    thread keeps moving (so engine delays pass at once); started on first use, one per kind."""
    with ExitStack() as stack:
        servers = {}

        def get(kind: str):
            if kind not in servers:
                url = stack.enter_context(migrated_database(kind, tmp_path_factory.mktemp("bots")))
                clock = FakeClock()
                running = start_in_thread(url, clock=clock, unattended_tables_play=True)
                running.database_url = url
                stop = threading.Event()

                def tick():
                    while not stop.wait(0.01):
                        clock.advance(2.0)

                ticker = threading.Thread(target=tick, daemon=True)
                ticker.start()

                def shutdown():
                    stop.set()
                    ticker.join()
                    running.stop()

                stack.callback(shutdown)
                servers[kind] = running
            return servers[kind]

        yield get


@pytest.mark.parametrize(("kind", "game", "seats"), CASES, ids=[f"{k}-{g}-{n}" for k, g, n in CASES])
def test_bots_play_to_the_end(fast_servers, kind, game, seats):
    fast_server = fast_servers(kind)
    host, room_id = bots_only_room(fast_server.base_url, game, seats, OPTIONS.get(game))
    room = host.get(f"/api/rooms/{room_id}").json()
    assert all(s["bot"] for s in room["seats"]) and len({s["player_id"] for s in room["seats"]}) == seats
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    room = wait_for_status(host, room_id, "finished", timeout=60)
    final = host.get(f"/api/rooms/{room_id}/view").json()
    assert final["outcome"] is not None and final["awaiting"] == []

    db = create_engine(fast_server.database_url)
    with db.connect() as connection:
        match = connection.execute(select(Match.status, Match.version, Match.seats)
                                   .where(Match.id == room["match_id"])).one()
        actions = connection.scalar(select(func.count()).select_from(MatchAction)
                                    .where(MatchAction.match_id == room["match_id"]))
    db.dispose()
    assert match.status == "finished" and match.version == actions == final["version"] > 0
    assert all(seat["bot"] for seat in match.seats)
