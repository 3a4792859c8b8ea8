"""Makelandia scenario tests: every rule and ruling from hand-built positions, exact results."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engines
from engines.makelandia import data
from engines.playout import play

E = engines.get("makelandia")
L, D = 0, 1


def build(n, factions, hands, turn=None, exped=None, set_aside=None, alive=None, quiet=0):
    """A position with the given factions [(team, role)], hands and expeditions [(card, src)].

    Cards of each team not placed anywhere go to that team's discard pile (so cards are conserved).
    """
    d = E.state_to_json(E.new_game(n, 0))
    d["team"] = [t for t, _ in factions]
    d["role"] = [r for _, r in factions]
    d["hands"] = [sorted(h, key=data.ORDER.__getitem__) for h in hands]
    d["exped"] = [[list(x) for x in e] for e in (exped or [[] for _ in range(n)])]
    d["alive"] = alive if alive is not None else [True] * n
    d["set_aside"] = set_aside or [[], []]
    for team in (L, D):
        rest = Counter(data.deck(n))
        for p in range(n):
            if d["team"][p] == team:
                rest.subtract(d["hands"][p])
                rest.subtract(c for c, _ in d["exped"][p])
        rest.subtract(d["set_aside"][team])
        assert all(v >= 0 for v in rest.values()), f"too many cards for team {team}: {rest}"
        d["discards"][team] = sorted(rest.elements(), key=data.ORDER.__getitem__)
    if turn is None:
        turn = next(p for p in range(n) if d["team"][p] == D and d["role"][p] == "castle")
    d["turn"] = turn
    d["quiet"] = quiet
    d["log"] = []
    s = E.state_from_json(d)
    E.check_invariants(s)
    return s


# 4 players on 6 territories: seats on 0, 1, 3, 4 -> adjacent pairs 0-1 and 2-3.
FOUR = [(L, "castle"), (D, "castle"), (L, "fort"), (D, "fort")]


def four(h0, h1, h2, h3, **kw):
    return build(4, FOUR, [h0, h1, h2, h3], **kw)


def act(state, seat, action):
    after = E.apply(state, seat, action)
    E.check_invariants(after)
    return after


def battle(state, attacker, target, attack, defense):
    s = act(state, attacker, {"type": "attack", "target": target, "cards": attack})
    assert E.awaiting(s) == frozenset({target})
    return act(s, target, {"type": "defend", "cards": defense})


# ---- setup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,light_forts,dark_forts,terr,light_sizes,dark_size,aside", [
    (4, 1, 1, [0, 1, 3, 4], {"castle": 6, "fort": 6}, 6, 1),
    (5, 1, 2, [0, 1, 2, 3, 4], {"castle": 6, "fort": 6}, 4, 1),
    (6, 2, 2, [0, 1, 2, 3, 4, 5], {"castle": 4, "fort": 4}, 4, 1),
    (7, 2, 3, [0, 1, 2, 3, 4, 5, 6], {"castle": 6, "fort": 5}, 4, 0),
    (8, 3, 3, [0, 1, 2, 3, 4, 5, 6, 7], {"castle": 4, "fort": 4}, 4, 0),
])
def test_setup_per_player_count(n, light_forts, dark_forts, terr, light_sizes, dark_size, aside):
    for seed in range(5):
        s = E.new_game(n, seed)
        E.check_invariants(s)
        v = E.view(s, None)
        roles = Counter((p["team"], p["role"]) for p in v["players"])
        assert roles == Counter({("light", "castle"): 1, ("light", "fort"): light_forts,
                                 ("dark", "castle"): 1, ("dark", "fort"): dark_forts})
        assert [p["territory"] for p in v["players"]] == terr
        assert v["territories"] == (6 if n <= 6 else 8)
        for p in v["players"]:
            want = light_sizes[p["role"]] if p["team"] == "light" else dark_size
            assert p["hand_size"] == want and p["alive"] and p["expedition_size"] == 0
        assert v["set_aside"] == {"light": aside, "dark": aside}
        assert v["discards"] == {"light": [], "dark": []}
        dark_castle = next(p["seat"] for p in v["players"] if p["team"] == "dark" and p["role"] == "castle")
        assert v["turn"] == dark_castle and E.awaiting(s) == frozenset({dark_castle})
        assert v["teams"] == [[p["seat"] for p in v["players"] if p["team"] == t] for t in ("light", "dark")]
        # each team's own cards only
        for p in range(n):
            team = s.team[p]
            held = Counter(c for q in range(n) if s.team[q] == team for c in s.hands[q])
            held.update(s.set_aside[team])
            assert held == Counter(data.deck(n))
    size = 16 if n >= 7 else 13
    assert len(data.deck(n)) == size
    if n >= 7:
        assert Counter(data.deck(n))["3"] == 2 and Counter(data.deck(n))["6"] == 2
        assert Counter(data.deck(n))["boost"] == 2


def test_factions_are_random_from_seed_and_reproducible():
    layouts = {tuple(E.new_game(6, seed).role) + tuple(E.new_game(6, seed).team) for seed in range(30)}
    assert len(layouts) > 5
    assert E.state_to_json(E.new_game(6, 11)) == E.state_to_json(E.new_game(6, 11))


@pytest.mark.parametrize("n,adjacent", [
    (4, [[1], [0], [3], [2]]),
    (5, [[1], [0, 2], [1, 3], [2, 4], [3]]),
    (6, [[1, 5], [0, 2], [1, 3], [2, 4], [3, 5], [0, 4]]),
    (7, [[1], [0, 2], [1, 3], [2, 4], [3, 5], [4, 6], [5]]),
    (8, [[1, 7], [0, 2], [1, 3], [2, 4], [3, 5], [4, 6], [5, 7], [0, 6]]),
])
def test_ring_adjacency_with_empty_territories(n, adjacent):
    v = E.view(E.new_game(n, 1), 0)
    assert [p["adjacent"] for p in v["players"]] == adjacent
    ring = v["ring"]
    assert [ring.index(p) for p in range(n)] == [p["territory"] for p in v["players"]]
    assert ring.count(None) == v["territories"] - n


# ---- plays --------------------------------------------------------------------------------------
def test_every_legal_play_shape():
    s = four(["1", "3"], ["3", "6", "9", "boost", "kill"], ["2"], ["5"], turn=1)
    attacks = [a["cards"] for a in E.legal_actions(s, 1) if a["type"] == "attack" and a["target"] == 0]
    assert attacks == [["3"], ["6"], ["9"], ["boost"], ["kill"], ["3", "boost"], ["6", "boost"],
                       ["9", "boost"], ["3", "6"], ["3", "6", "boost"]]
    targets = {a["target"] for a in E.legal_actions(s, 1) if a["type"] == "attack"}
    assert targets == {0, 2}
    gifts = [(a["to"], a["card"]) for a in E.legal_actions(s, 1) if a["type"] == "reinforce"]
    assert gifts == [(3, c) for c in ["3", "6", "9", "boost", "kill"]]
    assert {"type": "wait"} in E.legal_actions(s, 1)
    assert E.legal_actions(s, 0) == []


@pytest.mark.parametrize("cards", [["5", "7"], ["boost", "kill"], ["3", "6", "9"], ["1", "boost", "boost"],
                                   ["kill", "3"]])
def test_combinations_outside_the_rules_are_illegal(cards):
    s = four(["1"], ["1", "3", "5", "6", "7", "9", "boost", "kill"], ["2"], ["4"], turn=1)
    with pytest.raises(engines.IllegalAction) as err:
        E.apply(s, 1, {"type": "attack", "target": 0, "cards": cards})
    assert not isinstance(err.value, engines.InvalidAction)


def test_malformed_and_illegal_inputs():
    s = four(["1", "4"], ["3", "6"], ["2"], ["5"], turn=1)
    for bad in [{"type": "attack", "target": 0}, {"type": "attack", "target": "0", "cards": ["3"]},
                {"type": "attack", "target": 9, "cards": ["3"]}, {"type": "attack", "target": 0, "cards": "3"},
                {"type": "attack", "target": 0, "cards": ["twelve"]}, {"type": "attack", "target": 0, "cards": []},
                {"type": "reinforce", "to": 3, "card": 3}, {"type": "wait", "extra": 1}, {"type": "fly"}]:
        with pytest.raises(engines.InvalidAction):
            E.apply(s, 1, bad)
    for illegal, seat in [({"type": "attack", "target": 3, "cards": ["3"]}, 1),   # ally
                          ({"type": "attack", "target": 0, "cards": ["9"]}, 1),   # not held
                          ({"type": "reinforce", "to": 0, "card": "3"}, 1),        # enemy
                          ({"type": "reinforce", "to": 1, "card": "3"}, 1),        # self
                          ({"type": "defend", "cards": ["3"]}, 1),                 # nothing pending
                          ({"type": "wait"}, 0)]:                                  # not your turn
        with pytest.raises(engines.IllegalAction) as err:
            E.apply(s, seat, illegal)
        assert not isinstance(err.value, engines.InvalidAction)
    s = act(s, 1, {"type": "attack", "target": 0, "cards": ["3"]})
    with pytest.raises(engines.IllegalAction):
        E.apply(s, 1, {"type": "wait"})
    with pytest.raises(engines.IllegalAction):
        E.apply(s, 0, {"type": "wait"})  # defending is mandatory
    assert [a["type"] for a in E.legal_actions(s, 0)] == ["defend"] * 2
    # attacking or reinforcing a player who is out
    six = [(L, "castle"), (L, "fort"), (D, "castle"), (D, "fort"), (L, "fort"), (D, "fort")]
    s = build(6, six, [["1"], [], ["3"], ["4"], ["6"], ["7"]], turn=0, alive=[True, False, True, True, True, True])
    for illegal in [{"type": "reinforce", "to": 1, "card": "1"}]:
        with pytest.raises(engines.IllegalAction):
            E.apply(s, 0, illegal)
    s = build(6, six, [["1"], ["2"], ["3"], [], ["6"], ["7"]], turn=0, alive=[True, True, True, False, True, True])
    with pytest.raises(engines.IllegalAction):
        E.apply(s, 0, {"type": "attack", "target": 3, "cards": ["1"]})
    assert {a.get("target") for a in E.legal_actions(s, 0) if a["type"] == "attack"} == {2, 5}


def test_play_order_in_the_action_does_not_matter():
    s = four(["1", "4"], ["3", "6", "boost"], ["2"], ["5"], turn=1)
    after = act(s, 1, {"type": "attack", "target": 0, "cards": ["boost", "6", "3"]})
    assert after.pending == (1, 0, ("3", "6", "boost"))


# ---- battles ------------------------------------------------------------------------------------
def test_adjacent_attack_win_returns_characters_and_discards_boost_and_loser():
    s = four(["4", "10"], ["7", "9", "boost"], ["2"], ["5"], turn=1)
    s = battle(s, 1, 0, ["7", "boost"], ["4"])
    b = s.last_battle
    assert (b["winner"], b["why"], b["attack_strength"], b["defense_strength"]) == ("attacker", "strength", 10, 4)
    assert (b["attack_to"], b["defense_to"], b["distant"]) == ("hand", "discard", False)
    assert s.hands[1] == ("7", "9") and s.hands[0] == ("10",)
    assert s.discards[D][-1:] == ("boost",) and s.discards[L][-1:] == ("4",)
    assert s.turn == 2 and s.quiet == 0


def test_distant_attack_win_goes_on_expedition_and_returns_next_turn():
    s = four(["4", "10"], ["8", "9"], ["2", "3"], ["5"], turn=1)
    s = battle(s, 1, 2, ["9"], ["3"])
    assert s.last_battle["distant"] and s.last_battle["attack_to"] == "expedition"
    assert s.hands[1] == ("8",) and s.exped[1] == (("9", -1),)
    assert E.view(s, 0)["players"][1]["expedition"] == ["9"]  # revealed in battle: public
    s = act(s, 2, {"type": "wait"})
    s = act(s, 3, {"type": "wait"})
    s = act(s, 0, {"type": "wait"})
    assert s.turn == 1 and s.hands[1] == ("8", "9") and s.exped[1] == ()


def test_expedition_cards_cannot_be_used_in_battle():
    s = four(["4", "10"], ["8", "9"], ["2", "3"], ["5"], turn=1)
    s = battle(s, 1, 2, ["9"], ["3"])
    s = act(s, 2, {"type": "attack", "target": 1, "cards": ["2"]})
    assert E.legal_actions(s, 1) == [{"type": "defend", "cards": ["8"]}]
    with pytest.raises(engines.IllegalAction):
        E.apply(s, 1, {"type": "defend", "cards": ["9"]})


def test_defender_win_keeps_characters_attacker_discards():
    s = four(["4", "10"], ["7", "9", "boost"], ["2"], ["5"], turn=1)
    s = battle(s, 1, 0, ["9"], ["10"])
    assert s.last_battle["winner"] == "defender" and s.last_battle["defense_to"] == "hand"
    assert s.hands[0] == ("4", "10") and s.hands[1] == ("7", "boost")
    assert s.discards[D][-1] == "9"


def test_defender_far_away_winning_keeps_cards_in_hand():
    s = four(["4", "10"], ["7", "9"], ["2", "11"], ["5"], turn=1)
    s = battle(s, 1, 2, ["9"], ["11"])
    assert s.hands[2] == ("2", "11") and s.exped[2] == ()


def test_tie_discards_both():
    s = four(["4", "10"], ["7", "9", "boost"], ["2"], ["5"], turn=1)
    s = battle(s, 1, 0, ["7", "boost"], ["10"])
    assert s.last_battle["winner"] == "tie" and s.last_battle["why"] == "equal"
    assert s.hands[0] == ("4",) and s.hands[1] == ("9",)
    assert s.discards[L][-1] == "10" and s.discards[D][-2:] == ("7", "boost")


def test_pair_three_six_adds_and_takes_boost():
    s = four(["11", "1"], ["3", "6", "boost", "2"], ["2"], ["5"], turn=1)
    after = battle(s, 1, 0, ["3", "6", "boost"], ["11"])
    assert after.last_battle["attack_strength"] == 12 and after.last_battle["winner"] == "attacker"
    assert after.hands[1] == ("2", "3", "6")
    after = battle(s, 1, 0, ["3", "6"], ["11"])
    assert after.last_battle["attack_strength"] == 9 and after.last_battle["winner"] == "defender"


def test_lone_boost_is_zero_and_discarded():
    s = four(["1", "boost"], ["boost", "2"], ["2"], ["5"], turn=1)
    after = battle(s, 1, 0, ["boost"], ["1"])
    assert after.last_battle["attack_strength"] == 0 and after.last_battle["winner"] == "defender"
    assert after.hands[0] == ("1", "boost") and after.hands[1] == ("2",)
    after = battle(s, 1, 0, ["boost"], ["boost"])
    assert after.last_battle["winner"] == "tie"


@pytest.mark.parametrize("attack,defense,winner,why", [
    (["kill"], ["11", "boost"], "attacker", "kill"),
    (["kill"], ["1"], "attacker", "kill"),
    (["kill"], ["3", "6", "boost"], "attacker", "kill"),
    (["9"], ["kill"], "defender", "kill"),
    (["kill"], ["kill"], "tie", "kill_vs_kill"),
    (["kill"], ["boost"], "tie", "kill_vs_boost"),
    (["boost"], ["kill"], "tie", "kill_vs_boost"),
    (["1"], ["11"], "attacker", "assassin"),
    (["1", "boost"], ["11", "boost"], "attacker", "assassin"),
    (["11"], ["1"], "defender", "assassin"),
    (["1"], ["10"], "defender", "strength"),
    (["1"], ["1"], "tie", "equal"),
    (["10", "boost"], ["3", "6", "boost"], "attacker", "strength"),
])
def test_resolution_table(attack, defense, winner, why):
    light = ["1", "3", "6", "10", "11", "boost", "kill"]
    dark = ["1", "3", "6", "9", "10", "11", "boost", "kill"]
    s = four(light, dark, ["2"], ["5"], turn=1)
    after = battle(s, 1, 0, attack, defense)
    assert (after.last_battle["winner"], after.last_battle["why"]) == (winner, why)


def test_kill_discards_opposing_characters_and_itself():
    s = four(["11", "boost", "2"], ["kill", "4"], ["3"], ["5"], turn=1)
    s = battle(s, 1, 0, ["kill"], ["11", "boost"])
    assert s.hands[1] == ("4",) and s.hands[0] == ("2",)
    assert s.discards[D][-1] == "kill" and s.discards[L][-2:] == ("11", "boost")


def test_scout_sees_opposing_hand_privately_win_or_lose():
    s = four(["2", "5", "8"], ["9", "10", "kill"], ["3"], ["4"], turn=1)
    s = battle(s, 1, 0, ["9"], ["2"])  # the Scout loses
    scout = [e for e in E.view(s, 0)["log"] if e["event"] == "scout"]
    assert scout and scout[-1]["seat"] == 0 and scout[-1]["target"] == 1
    assert scout[-1]["hand"] == ["9", "10", "kill"]  # after the battle (the 9 came back)
    for viewer in [None, 1, 2, 3]:
        entry = [e for e in E.view(s, viewer)["log"] if e["event"] == "scout"][-1]
        assert "hand" not in entry and entry["seat"] == 0
    # a winning Scout (defender side) also looks
    s = four(["2", "5"], ["1", "10"], ["3"], ["4"], turn=1)
    s = battle(s, 1, 0, ["1"], ["2", ])
    assert s.last_battle["winner"] == "defender" and s.last_battle["scouts"] == [0]
    assert [e for e in E.view(s, 0)["log"] if e["event"] == "scout"][-1]["hand"] == ["10"]


# ---- reinforcement ------------------------------------------------------------------------------
def test_reinforce_distant_goes_on_expedition_and_only_giver_and_receiver_know():
    s2 = four(["1", "4"], ["3"], ["2"], ["5"], turn=0)
    s2 = act(s2, 0, {"type": "reinforce", "to": 2, "card": "4"})  # 0 -> 2 distant
    assert s2.exped[2] == (("4", 0),) and s2.hands[0] == ("1",) and s2.hands[2] == ("2",)
    for viewer, known in [(0, True), (2, True), (1, False), (3, False), (None, False)]:
        v = E.view(s2, viewer)
        assert v["players"][2]["expedition"] == (["4"] if known else [None])
        entry = [e for e in v["log"] if e["event"] == "reinforce"][-1]
        assert entry["distant"] and (entry.get("card") == "4") == known
    # it returns at seat 2's next turn
    s2 = act(s2, 1, {"type": "wait"})
    assert s2.turn == 2 and s2.hands[2] == ("2", "4") and s2.exped[2] == ()


def test_reinforce_adjacent_goes_straight_into_hand():
    six = [(L, "castle"), (L, "fort"), (D, "castle"), (D, "fort"), (L, "fort"), (D, "fort")]
    s = build(6, six, [["1", "4"], ["2"], ["3"], ["5"], ["6"], ["7"]], turn=0)
    s = act(s, 0, {"type": "reinforce", "to": 1, "card": "4"})
    assert s.hands[1] == ("2", "4") and s.exped[1] == ()
    entry = [e for e in E.view(s, 1)["log"] if e["event"] == "reinforce"][-1]
    assert entry["card"] == "4" and not entry["distant"]
    assert "card" not in [e for e in E.view(s, 4)["log"] if e["event"] == "reinforce"][-1]


# ---- elimination and end ------------------------------------------------------------------------
def test_last_card_distant_attack_puts_attacker_out_even_on_win():
    # 6 players: seat 4 (dark fort) attacks seat 1 (light fort, distant) with its last card and wins.
    six = [(L, "castle"), (L, "fort"), (D, "castle"), (L, "fort"), (D, "fort"), (D, "fort")]
    s = build(6, six, [["1"], ["2", "3"], ["4"], ["5"], ["11"], ["7"]], turn=4)
    s = battle(s, 4, 1, ["11"], ["2"])
    assert s.last_battle["winner"] == "attacker" and s.last_battle["attack_to"] == "expedition"
    assert not s.alive[4] and s.exped[4] == () and s.discards[D][-1] == "11"
    out = [e for e in E.view(s, None)["log"] if e["event"] == "out"]
    assert out[-1]["seat"] == 4 and out[-1]["discarded"] == ["11"]
    assert s.turn == 5 and E.outcome(s) is None


def test_last_card_adjacent_attack_win_keeps_player_in():
    s = four(["1", "4"], ["9"], ["2"], ["5"], turn=1)
    s = battle(s, 1, 0, ["9"], ["4"])
    assert s.alive[1] and s.hands[1] == ("9",)


def test_out_with_expedition_cards_left_discards_them():
    s = four(["4"], ["9", "8"], ["2"], ["5"], turn=1,
             exped=[[["10", -1]], [], [], []])
    s = battle(s, 1, 0, ["9"], ["4"])  # seat 0 (light castle) loses its last hand card
    assert not s.alive[0] and s.exped[0] == () and "10" in s.discards[L]
    assert E.outcome(s)["reason"].startswith("dark wins")


def test_reinforcing_with_last_card_puts_the_giver_out():
    six = [(L, "castle"), (L, "fort"), (D, "castle"), (D, "fort"), (L, "fort"), (D, "fort")]
    s = build(6, six, [["1"], ["2"], ["3"], ["5"], ["6"], ["7"]], turn=1)
    s = act(s, 1, {"type": "reinforce", "to": 0, "card": "2"})
    assert not s.alive[1] and s.hands[0] == ("1", "2") and s.alive[4] and E.outcome(s) is None
    assert s.turn == 2


@pytest.mark.parametrize("winner_team,reason", [(D, "dark wins: the light castle is out")])
def test_castle_out_wins(winner_team, reason):
    s = four(["4"], ["9"], ["2", "3"], ["5"], turn=1)
    s = battle(s, 1, 0, ["9"], ["4"])
    o = E.outcome(s)
    assert E.awaiting(s) == frozenset() and o["reason"] == reason and o["winner"] == "dark"
    assert o["ranks"] == [2, 0, 2, 0] and o["teams"] == [[0, 2], [1, 3]] and o["scores"] is None
    assert E.legal_actions(s, 2) == []


def test_all_forts_out_wins():
    six = [(L, "castle"), (L, "fort"), (D, "castle"), (D, "fort"), (L, "fort"), (D, "fort")]
    s = build(6, six, [["1"], ["2"], ["3"], [], ["6", "9"], ["7"]], turn=4,
              alive=[True, True, True, False, True, True])
    s = battle(s, 4, 5, ["9"], ["7"])  # 4 (terr 4) and 5 (terr 5) are adjacent
    o = E.outcome(s)
    assert o["winner"] == "light" and o["reason"] == "light wins: the dark forts are all out"
    assert o["ranks"] == [0, 0, 3, 3, 0, 3]


def test_both_teams_beaten_at_once_is_a_draw():
    s = four(["4"], ["4"], ["2"], ["5"], turn=1)
    s = battle(s, 1, 0, ["4"], ["4"])  # tie: both castles lose their last card
    o = E.outcome(s)
    assert o["ranks"] == [0, 0, 0, 0] and o["winner"] is None and "draw" in o["reason"]


def test_three_quiet_rounds_draw():
    s = four(["1"], ["2"], ["3"], ["4"], turn=1)
    for i in range(11):
        s = act(s, s.turn, {"type": "wait"})
        assert E.outcome(s) is None and s.quiet == i + 1
    s = act(s, s.turn, {"type": "wait"})
    assert E.outcome(s)["ranks"] == [0, 0, 0, 0] and "without a battle" in E.outcome(s)["reason"]


def test_a_battle_resets_the_quiet_count():
    s = four(["1", "5"], ["2", "9"], ["3"], ["4"], turn=1, quiet=11)
    s = battle(s, 1, 0, ["9"], ["1"])
    assert s.quiet == 0 and E.outcome(s) is None


def test_turn_order_skips_players_who_are_out():
    six = [(L, "castle"), (L, "fort"), (D, "castle"), (D, "fort"), (L, "fort"), (D, "fort")]
    s = build(6, six, [["1"], ["2"], ["3"], [], ["6"], ["7"]], turn=2,
              alive=[True, True, True, False, True, True])
    s = act(s, 2, {"type": "wait"})
    assert s.turn == 4
    s = act(s, 4, {"type": "wait"})
    s = act(s, 5, {"type": "wait"})
    assert s.turn == 0


# ---- invariants, views, serialisation -----------------------------------------------------------
def test_check_invariants_catches_a_lost_card():
    s = four(["1", "4"], ["9"], ["2"], ["5"], turn=1)
    d = E.state_to_json(s)
    d["hands"][0] = ["1"]
    with pytest.raises(AssertionError):
        E.check_invariants(E.state_from_json(d))
    d = E.state_to_json(s)
    d["discards"][0] = d["discards"][0] + ["4"]
    with pytest.raises(AssertionError):
        E.check_invariants(E.state_from_json(d))


def test_pending_play_conserved_and_hidden():
    """Rules, hidden information: "A face-down play: nobody until both plays are revealed (the
    defender sees only that a play was made against them)": not even how many cards, so to
    everyone but the attacker those cards still count in the attacker's hand size."""
    s = four(["1", "4"], ["9", "3", "6"], ["2"], ["5"], turn=1)
    s = act(s, 1, {"type": "attack", "target": 0, "cards": ["3", "6"]})
    assert E.view(s, 1)["pending"]["cards"] == ["3", "6"]
    assert E.view(s, 1)["players"][1]["hand_size"] == 1  # the attacker knows
    for viewer in [0, 2, 3, None]:
        v = E.view(s, viewer)
        assert v["pending"] == {"attacker": 1, "defender": 0, "distant": False, "cards": None}
        assert v["players"][1]["hand_size"] == 3
        assert "count" not in [e for e in v["log"] if e["event"] == "attack"][-1]
    single = act(four(["1", "4"], ["9", "3", "6"], ["2"], ["5"], turn=1), 1, {"type": "attack", "target": 0, "cards": ["9"]})
    for viewer in [0, 2, 3, None]:  # a one-card play looks the same as a two-card one
        assert E.view(single, viewer)["pending"] == E.view(s, viewer)["pending"]
        assert E.view(single, viewer)["players"] == E.view(s, viewer)["players"]


def test_views_are_json_and_spectator_has_no_hand():
    s = E.new_game(7, 5)
    for viewer in [None, *range(7)]:
        v = E.view(s, viewer)
        assert json.loads(json.dumps(v)) == v
        assert v["teams"] and v["house_abilities"]
    assert E.view(s, None)["hand"] is None
    assert E.view(s, 3)["hand"] == list(s.hands[3])


def test_clock_runs_for_the_turn_player_then_the_defender_only():
    s = four(["1", "4"], ["9", "3"], ["2"], ["5"], turn=1)
    assert [E.clock_seconds(s, p) for p in range(4)] == [None, 60.0, None, None]
    s = act(s, 1, {"type": "attack", "target": 0, "cards": ["9"]})
    assert [E.clock_seconds(s, p) for p in range(4)] == [60.0, None, None, None]
    off = E.state_from_json({**E.state_to_json(s), "options": {"turn_seconds": 0}})
    assert [E.clock_seconds(off, p) for p in range(4)] == [None] * 4


def test_defender_clock_running_out_plays_the_weakest_single_card():
    """The rules page's promise: a defender who lets the clock run out plays their weakest single
    card (lowest character; Boost and Kill only when no character is left, Boost first)."""
    for hand, weakest in [(["boost", "3", "9", "kill"], "3"), (["kill", "boost"], "boost"), (["kill"], "kill"),
                          (["11", "6", "3"], "3")]:
        s = four(hand, ["9", "4"], ["2"], ["5"], turn=1)
        s = act(s, 1, {"type": "attack", "target": 0, "cards": ["4"]})
        timeout = E.on_timeout(s, 0)
        assert timeout == {"type": "defend", "cards": [weakest]} and timeout in E.legal_actions(s, 0)
        after = act(s, 0, timeout)
        assert after.last_battle["defense"] == [weakest] and after.last_battle["attack"] == ["4"]


def test_turn_clock_running_out_waits_and_counts_as_a_quiet_turn():
    s = four(["1", "4"], ["9", "3"], ["2"], ["5"], turn=1, quiet=3)
    timeout = E.on_timeout(s, 1)
    assert timeout == {"type": "wait"} and timeout in E.legal_actions(s, 1)
    after = act(s, 1, timeout)
    assert after.quiet == 4 and after.hands == s.hands and after.turn != 1


def test_on_timeout_gives_a_legal_action():
    s = four(["1", "4"], ["9", "3"], ["2"], ["5"], turn=1)
    assert E.on_timeout(s, 1) == {"type": "wait"}
    s = act(s, 1, {"type": "attack", "target": 0, "cards": ["9"]})
    assert E.on_timeout(s, 0) == {"type": "defend", "cards": ["1"]}
    assert E.on_timeout(s, 0) in E.legal_actions(s, 0)


def test_random_games_conserve_cards_and_end():
    for n in range(4, 9):
        for seed in range(30):
            result = play(E, n, seed, rng=random.Random(seed),
                          on_step=lambda before, seat, action, after: E.check_invariants(after))
            o = E.outcome(result.state)
            assert o is not None and sorted(sum(o["teams"], [])) == list(range(n))


def test_both_scouts_see_each_other():
    s = four(["2", "7"], ["2", "9"], ["3"], ["4"], turn=1)
    s = battle(s, 1, 0, ["2"], ["2"])
    assert s.last_battle["winner"] == "tie" and s.last_battle["scouts"] == [1, 0]
    assert [e["hand"] for e in E.view(s, 1)["log"] if e["event"] == "scout" and e["seat"] == 1] == [["7"]]
    assert [e["hand"] for e in E.view(s, 0)["log"] if e["event"] == "scout" and e["seat"] == 0] == [["9"]]


def test_the_only_room_option_is_the_clock():
    assert [o["name"] for o in E.options] == ["turn_seconds"]
    assert E.new_game(4, 1, {}).options == {"turn_seconds": 60}
    assert E.state_from_json(E.state_to_json(E.new_game(4, 1, {"turn_seconds": 15}))).options == {"turn_seconds": 15}
    with pytest.raises(engines.InvalidAction):
        E.new_game(4, 1, {"turn_seconds": -1})
    with pytest.raises(engines.InvalidAction):
        E.new_game(4, 1, {"speed": 2})
    with pytest.raises(engines.InvalidAction):
        E.new_game(3, 1)
