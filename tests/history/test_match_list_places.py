"""A player's match list says the place a game night counts (app/places.py, on the recorded ranks):
in a team game where a member of the winning team abandoned, the whole team is last, as for the
ratings and the night, not first as the other members' own ranks in the outcome would say."""

from __future__ import annotations

import random

from sqlalchemy import select

import engines
from app.live.zombies import record_abandonment
from app.models import Match, MatchResult
from app.places import places
from app.routers.leaderboard import _matches
from tests.history.helpers import make_players, play, random_steps, session_factory_for, start


def _winner_of_the_playout(factory, match_id: str, seed: int) -> int:
    """A seat of the winning team of the match ``play(factory, match_id, Random(seed))`` would play
    (the same choices, made on the engine alone)."""
    with factory() as session:
        match = session.get(Match, match_id)
        engine = engines.get(match.game)
        state = engine.state_from_json(match.state)
    for _seat, _action, state in random_steps(engine, state, random.Random(seed)):
        pass
    return engine.outcome(state)["ranks"].index(0)


def test_a_team_that_abandoned_is_last_in_its_players_match_lists(tmp_path):
    db, factory = session_factory_for(f"sqlite:///{tmp_path / 'places.db'}")
    players = make_players(factory, ["Aki", "Ben", "Cho", "Dai"])
    match_id = start(factory, "makelandia", players)
    leaver = _winner_of_the_playout(factory, match_id, seed=3)
    with factory() as session:
        record_abandonment(session, match_id, players[leaver], leaver)  # a bot finished it for them
    play(factory, match_id, random.Random(3))
    with factory() as session:
        match = session.get(Match, match_id)
        teams = match.outcome["teams"]
        assert match.outcome["ranks"][leaver] == 0  # the game: the leaver's team won
        recorded = {r.seat: r.rank for r in session.scalars(select(MatchResult).where(MatchResult.match_id == match_id))}
        expected = places(recorded, teams)
        team = next(t for t in teams if leaver in t)
        assert {expected[s] for s in team} == {len(teams)}  # counted last, the whole team
        for seat, player_id in enumerate(players):
            assert _matches(session, player_id, None, 10, 0)[0]["place"] == expected[seat], seat
    db.dispose()
