"""Three server processes behind HAProxy on one PostgreSQL and Redis: every game played to the end
with each player's socket on a different process (and a spectator on yet another), all games at
once. Every socket receives exactly its own seat's views (the pushed views are the engine's view
for that seat at that version, whichever process delivered them), the log replays to the stored
state, and every acknowledged action is in the log."""

from __future__ import annotations

import random
import threading

import engines
from engines.bots import get as get_bot
from tests.cluster.players import Seat, check_log, finished_room, play, unbroken
from tests.support.cluster import LocalCluster
from tests.support.driver import SHORT_MATCH, check_pushed_views, setup_room, stored_match

# Short options, so automatic steps do not make the test slow (they still happen, on the owner).
OPTIONS = {"synomilia": {"reveal_delay": 0.2}, "three_magic": {**SHORT_MATCH["three_magic"], "call_window": 0.5},
           "peribit": {"placement_clock": 0}}


# A whole match per game, all at once on a loaded machine: this took 73-184 s in CI, and once a
# Three Magic match of 1,200 versions (with its fixed 6 s between hands) was still going at 300 s.
MATCH_SECONDS = 480.0


def bot_policy(game: str):
    bot = get_bot(game)
    return lambda message, rng: bot(message["view"], message["legal_actions"], rng)


def test_every_game_with_players_on_different_processes(postgres_url, tmp_path):
    with LocalCluster(postgres_url, tmp_path) as cluster:
        results, failures = {}, []

        def run(game: str, index: int):
            try:
                players = engines.get(game).min_players
                room_id, apis = setup_room(cluster.base_url, game, [f"P{i}" for i in range(players)],
                                           OPTIONS.get(game))
                servers = cluster.servers
                seats = {seat: Seat(servers[(seat + index) % len(servers)].ws_url, room_id, api.token)
                         for seat, api in enumerate(apis)}
                spectator = Seat(servers[(players + index) % len(servers)].ws_url, room_id, None)
                started = apis[0].post(f"/api/rooms/{room_id}/start")
                assert started.status_code == 200, started.text
                final, acked, lost = play(seats, bot_policy(game), random.Random(index), timeout=MATCH_SECONDS)
                spectator.pump(1.0)
                room = finished_room(apis[1], room_id)
                results[game] = (room, final, acked, lost, seats, spectator)
            except BaseException as exc:  # reported by the main thread
                failures.append((game, exc))

        threads = [threading.Thread(target=run, args=(game, i)) for i, game in enumerate(engines.ids())]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(MATCH_SECONDS + 60)
        assert not failures, failures

        for game, (room, final, acked, lost, seats, spectator) in results.items():
            assert room["status"] == "finished", (game, room)
            assert all(seat.reconnects == 0 for seat in seats.values())  # no socket broke
            match, log = stored_match(postgres_url, room["match_id"])
            assert match.outcome == final["outcome"]
            check_log(log, acked, lost)
            sockets = {seat: s.socket for seat, s in seats.items()}
            check_pushed_views(postgres_url, room["match_id"], {**sockets, None: spectator.socket})
            for seat in seats.values():
                unbroken(seat)


