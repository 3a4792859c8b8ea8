"""The night's scoreboard arithmetic (app/nights/scoring.py) and seating rules (seating.py)."""

from __future__ import annotations

import re

import engines
from app.nights import scoring, seating
from app.places import places


def test_points_by_place_and_by_wins():
    assert [scoring.points("places", r) for r in (0, 1, 2, 3, None)] == [3, 2, 1, 0, 0]
    assert [scoring.points("wins", r) for r in (0, 0, 1, None)] == [1, 1, 0, 0]


def test_totals_standings_and_running_totals():
    board = scoring.board("places", ["a", "b"], [scoring.Played("m1", {"a": 0, "b": 1, "c": 2}),
                                                 scoring.Played("m2", {"a": 1, "b": 0, "c": None})])
    assert board.totals == {"a": 5, "b": 5, "c": 1}
    assert board.standings() == [(1, "a", 5), (1, "b", 5), (3, "c", 1)]
    assert board.cumulative("c") == [1, 1]
    late = scoring.board("places", ["a", "d"], [scoring.Played("m1", {"a": 0}), scoring.Played("m2", {"a": 1, "d": 0})])
    assert (late.first_played("a"), late.first_played("d"), late.first_played("nobody")) == (0, 1, None)
    assert late.cumulative("d") == [0, 3]  # (the chart draws it from the second match: app/routers/nights.py)


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


def test_a_team_game_gives_every_member_the_team_place_and_its_points():
    """The losing team of two is 2nd, as the end panel says ("Rank 2"), and gets 2nd place's points
    (its recorded rank is 2: two winning seats did better)."""
    ranks = {"a": 0, "b": 2, "c": 0, "d": 2}
    teams = [["a", "c"], ["b", "d"]]
    assert places(ranks, teams) == {"a": 1, "c": 1, "b": 2, "d": 2}
    board = scoring.board("places", ["a", "b", "c", "d"], [scoring.Played("m", ranks, teams)])
    assert board.per_match == [{"a": 3, "b": 2, "c": 3, "d": 2}]
    assert board.standings() == [(1, "a", 3), (1, "c", 3), (3, "b", 2), (3, "d", 2)]
    # a team whose player abandoned is last (its recorded rank); a draw gives all the first place
    assert places({"a": 3, "b": 2, "c": 3, "d": 2}, teams) == {"a": 2, "c": 2, "b": 1, "d": 1}
    assert places({"a": 0, "b": 0, "c": 0, "d": 0}, teams) == {p: 1 for p in "abcd"}
    # wins only: one point per member of the winning team
    assert scoring.board("wins", [], [scoring.Played("m", ranks, teams)]).per_match == [{"a": 1, "b": 0, "c": 1, "d": 0}]


def test_places_without_teams_are_the_rank_plus_one_as_the_end_panel_says():
    assert places({"a": 0, "b": 1, "c": 2}) == {"a": 1, "b": 2, "c": 3}
    assert places({"a": 0, "b": 0, "c": 2}) == {"a": 1, "b": 1, "c": 3}
    assert places({"a": 0, "b": 0, "c": 2}) == {"a": 1, "b": 1, "c": 3}  # a resign of three: "Rank 3", last
    # a team's concession ranks its members 2 (the other team's two seats better), the others 0:
    # the losing team is 2nd, as places count teams
    assert places({"a": 2, "b": 0, "c": 2, "d": 0}, [["a", "c"], ["b", "d"]]) == {"a": 2, "c": 2, "b": 1, "d": 1}
    assert places({"a": None, "b": None}) == {"a": None, "b": None}  # aborted


def test_someone_who_has_not_played_yet_is_listed_without_a_place():
    """A member (a late joiner, a bot whose first match is under way) is on the board with 0 and
    no place until a match they played is over; an aborted match gives no place either."""
    board = scoring.board("places", ["a", "b", "bot"], [scoring.Played("m1", {"a": 0, "b": 1})])
    assert board.standings() == [(1, "a", 3), (2, "b", 2), (None, "bot", 0)]
    assert board.totals == {"a": 3, "b": 2, "bot": 0}
    board = scoring.board("places", ["a", "bot"], [scoring.Played("m1", {"a": None, "bot": None})])
    assert board.standings() == [(None, "a", 0), (None, "bot", 0)]


def test_the_chart_and_the_picture_of_a_japanese_page_speak_japanese():
    """The night's chart (SVG) and standings picture on a Japanese page: a bot is ボット1 as
    everywhere else (static/i18n.js shownName), the axis says 累計得点 without English, and a
    member who has not played yet has no line and no place."""
    from app.routers.nights import night_chart, standings_lines

    night = {"played": 1, "players": [{"player_id": "a", "name": "Aki", "bot": False},
                                      {"player_id": "x", "name": "Bot 1", "bot": True},
                                      {"player_id": "c", "name": "Chika", "bot": False}],
             "standings": [{"place": 1, "player_id": "a", "name": "Aki", "total": 3, "cumulative": [3]},
                           {"place": 2, "player_id": "x", "name": "Bot 1", "total": 2, "cumulative": [2]},
                           {"place": None, "player_id": "c", "name": "Chika", "total": 0, "cumulative": [0]}]}
    svg = night_chart(night, "ja")
    assert "ボット1" in svg and "Bot 1" not in svg
    words = [w for text in re.findall(r">([^<]+)<", svg) for w in re.findall(r"[A-Za-z]+", text)]
    assert "累計得点" in svg and set(words) == {"Aki"}  # no English but a player's own name
    assert 'data-key="c"' not in svg and svg.count('<polyline class="series"') == 2
    assert "Bot 1" in night_chart(night, "en") and "points (running total)" in night_chart(night, "en")
    # each axis's title by its own axis: the points up the side, the matches under their numbers
    assert re.search(r'<text class="y-title" transform="translate\(14 [\d.]+\) rotate\(-90\)"[^>]*>累計得点<', svg)
    assert re.search(r'<text class="x-title"[^>]*>対戦<', svg)
    assert standings_lines(night, "ja") == [("1", "Aki", 3), ("2", "ボット1", 2), ("–", "Chika", 0)]
    assert standings_lines(night, "en")[1] == ("2", "Bot 1", 2)
    night["players"][0]["name"] = night["standings"][0]["name"] = '<script>alert("x")</script>'
    svg = night_chart(night, "en")  # a name is text, never markup
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_a_player_keeps_their_line_s_look_when_the_standings_change():
    """Colour, dash and marker follow the player, not their place: after a match that swaps the
    leaders, each line looks as it did (a player found themselves by their colour)."""
    from app.routers.nights import night_chart

    players = [{"player_id": "a", "name": "Aki", "bot": False}, {"player_id": "b", "name": "Ben", "bot": False}]
    after_one = {"played": 1, "players": players,
                 "standings": [{"place": 1, "player_id": "a", "name": "Aki", "total": 3, "cumulative": [3]},
                               {"place": 2, "player_id": "b", "name": "Ben", "total": 2, "cumulative": [2]}]}
    after_two = {"played": 2, "players": players,
                 "standings": [{"place": 1, "player_id": "b", "name": "Ben", "total": 5, "cumulative": [2, 5]},
                               {"place": 2, "player_id": "a", "name": "Aki", "total": 5, "cumulative": [3, 5]}]}

    def looks(svg: str) -> dict[str, str]:
        return {key: re.sub(r'points="[^"]*"', "", line)
                for key, line in re.findall(r'<polyline class="series" data-key="(\w+)"([^>]*)>', svg)}

    assert looks(night_chart(after_one, "en")) == looks(night_chart(after_two, "en"))
    assert len(set(looks(night_chart(after_two, "en")).values())) == 2
