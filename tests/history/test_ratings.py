"""Ratings are updated in the transaction that finishes a match, follow the rules (ranks, ties,
teams, no bots, no aborted matches), and a re-rating from scratch gives exactly the same numbers."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from app import cli, history, ratings
from app.models import Match, MatchResult, PlayerRating
from app.settings import get_settings
from tests.history.helpers import make_players, play, play_match, rating_snapshot, session_factory_for, start

pytestmark = pytest.mark.every_database  # tests/conftest.py


@pytest.fixture
def factory(database_url):
    engine, factory = session_factory_for(database_url)
    yield factory
    engine.dispose()


def results_of(factory, match_id):
    with factory() as session:
        match = session.get(Match, match_id)
        rows = list(session.scalars(select(MatchResult).where(MatchResult.match_id == match_id).order_by(MatchResult.seat)))
        session.expunge_all()
    return match, rows


def test_ranks_ties_and_teams(factory):
    rng = random.Random(3)
    humans = make_players(factory, [f"P{i}" for i in range(6)])
    # Free-for-all: the better rank gains, a shared rank (draw) moves nobody's mu apart.
    seen_win = False
    for _ in range(5):
        match, rows = results_of(factory, play_match(factory, "synomilia", humans[:2], rng, {"reveal_delay": 0}))
        assert [r.rank for r in rows] == match.outcome["ranks"] and all(r.rated for r in rows)
        deltas = [r.mu_after - r.mu_before for r in rows]
        if rows[0].rank == rows[1].rank:  # rare in Synomilia; test_draw_is_a_draw covers it directly
            if rows[0].mu_before == rows[1].mu_before and rows[0].sigma_before == rows[1].sigma_before:
                assert deltas[0] == pytest.approx(0, abs=1e-9) and deltas[1] == pytest.approx(0, abs=1e-9)
        else:
            seen_win = True
            winner = 0 if rows[0].rank < rows[1].rank else 1
            assert deltas[winner] > 0 > deltas[1 - winner]
        assert all(r.sigma_after < r.sigma_before + 0.2 for r in rows)
    assert seen_win
    # Three players: ranks 0 < 1 < 2 order the changes.
    match, rows = results_of(factory, play_match(factory, "three_magic", humans[2:5], rng, {"short_game": True}))
    by_rank = sorted(rows, key=lambda r: r.rank)
    if len({r.rank for r in rows}) == 3:
        assert by_rank[0].mu_after - by_rank[0].mu_before > by_rank[2].mu_after - by_rank[2].mu_before
    # Teams: every member of the winning team gains, every loser loses, with fresh equal ratings.
    fresh = make_players(factory, [f"T{i}" for i in range(4)])
    match, rows = results_of(factory, play_match(factory, "makelandia", fresh, rng))
    assert match.outcome["teams"]
    for r in rows:
        delta = r.mu_after - r.mu_before
        if len(set(match.outcome["ranks"])) == 1:
            assert delta == pytest.approx(0, abs=1e-9)
        elif r.rank == 0:
            assert delta > 0
        else:
            assert delta < 0
    with factory() as session:
        rating = session.get(PlayerRating, (fresh[0], "makelandia"))
        assert rating.games == 1 and rating.sigma >= ratings.PROVISIONAL_SIGMA


def test_draw_is_a_draw():
    a, b = ratings.MODEL.rating(), ratings.MODEL.rating()
    (na,), (nb,) = ratings.MODEL.rate([[a], [b]], ranks=[0, 0])
    assert na.mu == nb.mu == ratings.MODEL.mu


def test_bots_and_aborted_matches_are_not_rated(factory):
    rng = random.Random(4)
    humans = make_players(factory, ["Aki", "Ben"])
    [bot] = make_players(factory, ["Bot"], bot=True)
    with_bot = play_match(factory, "synomilia", [humans[0], bot], rng, {"reveal_delay": 0})
    match, rows = results_of(factory, with_bot)
    assert match.status == "finished" and rows and not any(r.rated for r in rows)
    with factory() as session:
        assert ratings.unrated_reason(session, session.get(Match, with_bot)) == "a bot played"
        assert session.scalar(select(PlayerRating).where(PlayerRating.player_id.in_([humans[0], bot]))) is None
    running = start(factory, "synomilia", humans, {"reveal_delay": 0})
    play(factory, running, rng, max_steps=3)
    history.abort_match(factory, running)
    match, rows = results_of(factory, running)
    assert match.status == "aborted" and [r.status for r in rows] == ["aborted", "aborted"]
    with factory() as session:
        assert ratings.unrated_reason(session, session.get(Match, running)) == "the match was aborted"
    assert not any(r.rated for r in rows) and all(r.rank is None for r in rows)
    with factory() as session:
        assert session.scalar(select(PlayerRating).where(PlayerRating.player_id == humans[1])) is None


def test_rerate_from_scratch_equals_incremental(factory, database_url, monkeypatch, capsys):
    rng = random.Random(7)
    humans = make_players(factory, [f"H{i}" for i in range(6)])
    [bot] = make_players(factory, ["Bot"], bot=True)
    for i in range(3):
        play_match(factory, "synomilia", rng.sample(humans, 2), rng, {"reveal_delay": 0})
    play_match(factory, "mipolin", humans[1:4], rng)
    play_match(factory, "makelandia", humans[:4], rng)
    play_match(factory, "makelandia", humans[2:6], rng)
    play_match(factory, "synomilia", [humans[0], bot], rng, {"reveal_delay": 0})
    aborted = start(factory, "synomilia", humans[4:6], {"reveal_delay": 0})
    history.abort_match(factory, aborted)
    incremental = rating_snapshot(factory)
    assert len(incremental[0]) >= 10 and any(row[5] for row in incremental[1])

    # The command itself (in-process: a subprocess would mostly measure imports).
    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    try:
        assert cli.main(["rerate"]) == 0
    finally:
        get_settings.cache_clear()
    assert "re-rated 8 matches" in capsys.readouterr().out
    assert rating_snapshot(factory) == incremental
