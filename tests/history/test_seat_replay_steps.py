"""A seat's replay tells each step as the table showed it then (app/history.py ``replay_step``):
the seat's own moves whole, the other seat's by their public part (a prediction made, its card
face down; a stack with its face), the server's own steps (the second prediction revealed) whole;
``seat=all`` everything."""

from __future__ import annotations

import random

from app import history
from app.models import Match
from engines.protocol import SYSTEM
from tests.history.helpers import make_players, play, session_factory_for, start


def test_a_seats_replay_tells_the_others_moves_by_what_the_table_showed(tmp_path):
    db, factory = session_factory_for(f"sqlite:///{tmp_path / 'steps.db'}")
    match_id = start(factory, "synomilia", make_players(factory, ["Aki", "Ben"]), {"reveal_delay": 0})
    play(factory, match_id, random.Random(2))
    seen: dict[str, set] = {"own": set(), "other": set(), "server": set()}
    with factory() as session:
        match = session.get(Match, match_id)
        for step in range(1, match.version + 1):
            everything = history.replay_step(session, match, "all", step)["last_action"]
            mine = history.replay_step(session, match, 0, step)["last_action"]
            action = everything["action"]
            if everything["seat"] == 0:
                assert mine["action"] == action
                seen["own"].add(action["type"])
            elif everything["seat"] == SYSTEM:
                assert mine["action"] == action
                seen["server"].add(action["type"])
            else:
                shown = mine["action"]
                if action["type"] in ("predict", "change"):
                    assert shown == {"type": action["type"]} and mine["public_part"] is True
                else:
                    assert shown == action and mine["public_part"] is False
                seen["other"].add(action["type"])
    db.dispose()
    assert {"predict", "stack"} <= seen["other"] and "reveal" in seen["server"] and "predict" in seen["own"]


def test_a_simultaneous_choice_shows_once_both_are_made(tmp_path):
    """Peribit: both players choose at once. Ben's choice made while Aki's was still awaited says
    nothing in Aki's replay; the one that completes the pair (Aki had chosen, or could not
    exchange) shows: a placement whole, an exchange only as made."""
    db, factory = session_factory_for(f"sqlite:///{tmp_path / 'together.db'}")
    match_id = start(factory, "peribit", make_players(factory, ["Aki", "Ben"]))
    play(factory, match_id, random.Random(5))
    first, second = 0, 0
    with factory() as session:
        match = session.get(Match, match_id)
        for step in range(1, match.version + 1):
            everything = history.replay_step(session, match, "all", step)["last_action"]
            if everything["seat"] != 1:
                continue
            action = everything["action"]
            mine = history.replay_step(session, match, 0, step)["last_action"]
            awaited_before = history.replay_step(session, match, "all", step - 1)["awaiting"]
            if awaited_before == [1]:  # Ben completed the pair
                second += 1
                expected = {"type": action["type"]} if "exchange" in action["type"] else \
                    {key: value for key, value in action.items() if key != "mark" or action["type"] == "new_lane"}
                assert mine["action"] == expected, (step, action, mine)
            else:  # Aki had not chosen yet
                assert awaited_before == [0, 1] and "action" not in mine, (step, awaited_before, mine)
                first += 1
    db.dispose()
    assert first > 5 and second > 5, (first, second)
