"""The night's scoreboard arithmetic (app/nights/scoring.py) and seating rules (seating.py)."""

from __future__ import annotations

import engines
from app.nights import scoring, seating


def test_points_by_place_and_by_wins():
    assert [scoring.points("places", r) for r in (0, 1, 2, 3, None)] == [3, 2, 1, 0, 0]
    assert [scoring.points("wins", r) for r in (0, 0, 1, None)] == [1, 1, 0, 0]


def test_totals_standings_and_running_totals():
    board = scoring.board("places", ["a", "b"], [scoring.Played("m1", {"a": 0, "b": 1, "c": 2}),
                                                 scoring.Played("m2", {"a": 1, "b": 0, "c": None})])
    assert board.totals == {"a": 5, "b": 5, "c": 1}
    assert board.standings() == [(1, "a", 5), (1, "b", 5), (3, "c", 1)]
    assert board.cumulative("c") == [1, 1]


def test_best_of_n_ends_when_the_leader_cannot_be_caught():
    assert scoring.decided("wins", 3, {"a": 2, "b": 0}, 2) == "decided"
    assert scoring.decided("wins", 3, {"a": 1, "b": 0}, 1) is None
    assert scoring.decided("places", 3, {"a": 6, "b": 3}, 2) is None  # 3 + 3 ties 6: still catchable
    assert scoring.decided("places", 3, {"a": 5, "b": 4}, 3) == "played"
    assert scoring.decided("places", None, {"a": 60, "b": 0}, 20) is None


def test_people_sit_before_bots_and_the_fewest_played_sit_in():
    present = [seating.Present("a", False, 0, 2), seating.Present("bot", True, 1, 0, "easy"),
               seating.Present("b", False, 2, 1), seating.Present("c", False, 3, 0)]
    count, seated = seating.seat_order(present, 2, 2, 0)
    assert count == 2 and {p.player_id for p in seated} == {"b", "c"}
    count, seated = seating.seat_order(present, 3, 8, 0)
    assert count == 4 and [p.player_id for p in seated] == ["a", "bot", "b", "c"]


def test_the_first_move_goes_to_whoever_had_it_least():
    assert seating.first_mover(["a", "b", "c"], set(), {"a": 0, "b": 1, "c": 2}, ["a", "b"]) == "c"
    assert seating.first_mover(["a", "b", "c"], set(), {"a": 0, "b": 1, "c": 2}, ["a", "b", "c", "b"]) == "a"
    assert seating.first_mover(["bot", "a"], {"bot"}, {"a": 0, "bot": 1}, ["a"]) == "a"  # bots never take a person's turn


def test_the_chosen_seed_gives_the_first_move_and_fresh_teams():
    engine = engines.get("three_magic")
    for want in range(3):
        _seed, state = seating.choose_seed(engine, 3, {}, ["a", "b", "c"], want, {})
        assert engine.first_player(state) == want
    makelandia = engines.get("makelandia")
    together = {frozenset(("a", "b")): 2, frozenset(("c", "d")): 2}
    _seed, state = seating.choose_seed(makelandia, 4, {}, ["a", "b", "c", "d"], None, together)
    teams = [{["a", "b", "c", "d"][s] for s in team} for team in makelandia.teams(state)]
    assert {"a", "b"} not in teams and {"c", "d"} not in teams
