"""Scenario tests for Mipolin the Game: every rule and ruling from hand-built positions."""

from __future__ import annotations

import json
import random

import pytest

import engines
from engines.mipolin import data
from engines.mipolin import ENGINE as E
from engines.playout import play

ALL = list(data.ALL_CARDS)


# ---------------------------------------------------------------- helpers
def make(hands=None, rows=None, chars=(1, 2, 3), missing=4, culprit=5, location=9, day=1, dealer=2,
         turn=None, round_=1, areas=None, opts=None, active=(True, True, True), phase="reveal"):
    """A consistent mid-game state: seats' hands start with the given cards, the rest is filled
    from the unused cards in canonical order; each seat holds 6 - len(row) cards."""
    s = E.new_game(3, 0, opts)
    hands = {k: list(v) for k, v in (hands or {}).items()}
    rows = {k: list(v) for k, v in (rows or {}).items()}
    used = {f"c{missing}", f"c{culprit}", f"p{location}", *(f"c{c}" for c in chars)}
    for cards in list(hands.values()) + list(rows.values()):
        used.update(cards)
    pool = [c for c in ALL if c not in used]
    out_hands, out_rows = [], []
    for p in range(3):
        row = rows.get(p, [])
        hand = hands.get(p, [])
        while len(hand) + len(row) < 6:
            hand.append(pool.pop(0))
        assert len(hand) + len(row) == 6
        out_hands.append(sorted(hand, key=data.CARD_ORDER.__getitem__))
        out_rows.append(row)
    assert not pool, pool
    order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    s.update({
        "chars": list(chars), "missing": missing, "culprit": culprit, "location": location,
        "hands": out_hands, "rows": out_rows, "exposed": [None] * 3,
        "area": list(areas) if areas else list(chars), "active": list(active), "day": day,
        "dealer": dealer, "order": order, "turn": order[0] if turn is None else turn, "round": round_,
        "phase": phase, "auction": None, "bidder": None, "pending": None, "log": [],
    })
    for p in range(3):
        if not active[p]:
            s["exposed"][p] = s["hands"][p]
            s["hands"][p] = []
            s["area"][p] = None
    E.check_invariants(s)
    return s


def act(s, seat, **action):
    return E.apply(s, seat, action)


def kinds(s):
    return [e["kind"] for e in s["log"]]


def events(s, kind):
    return [e for e in s["log"] if e["kind"] == kind]


# ---------------------------------------------------------------- setup (1A)
def test_registered_with_metadata():
    assert engines.get("mipolin") is E
    assert (E.id, E.min_players, E.max_players, E.version) == ("mipolin", 3, 3, "1")
    names = {o["name"]: o["default"] for o in E.options}
    assert names == {"suggestions": False, "character_choice": False, "provisional_dealer": -1, "turn_seconds": 60}


def test_only_three_players():
    for n in (1, 2, 4):
        with pytest.raises(engines.InvalidAction):
            E.new_game(n, 1)


def test_setup_deals_everything_once():
    for seed in range(30):
        s = E.new_game(3, seed)
        E.check_invariants(s)
        assert [len(h) for h in s["hands"]] == [6, 6, 6]
        chars = s["chars"]
        assert len({*chars, s["missing"], s["culprit"]}) == 5
        assert s["area"] == chars  # pieces start on their characters' home areas
        hand_cards = [c for h in s["hands"] for c in h]
        assert sum(c[0] == "c" for c in hand_cards) == 4 and sum(c[0] == "p" for c in hand_cards) == 8
        assert sum(c in data.DAY_CARDS for c in hand_cards) == 6
        assert f"p{s['location']}" not in hand_cards
        assert s["phase"] == "bid" and s["bidder"] == s["pd"] and s["day"] == 1


def test_provisional_dealer_option_and_random_default():
    for pd in range(3):
        s = E.new_game(3, 5, {"provisional_dealer": pd})
        assert s["pd"] == pd and E.awaiting(s) == {pd}
    seen = {E.new_game(3, seed)["pd"] for seed in range(40)}
    assert seen == {0, 1, 2}
    assert E.new_game(3, 11)["pd"] == E.new_game(3, 11)["pd"]
    with pytest.raises(engines.InvalidAction):
        E.new_game(3, 1, {"provisional_dealer": 3})
    with pytest.raises(engines.InvalidAction):
        E.new_game(3, 1, {"no_such_option": True})


# ---------------------------------------------------------------- auction (1B)
def test_opening_bid_is_mandatory():
    s = E.new_game(3, 2, {"provisional_dealer": 0})
    legal = E.legal_actions(s, 0)
    assert {"type": "pass"} not in legal
    assert legal == [{"type": "bid", "level": lv} for lv in range(1, 6)]
    with pytest.raises(engines.IllegalAction, match="mandatory"):
        act(s, 0, type="pass")


def test_two_passes_end_the_auction_and_set_order_and_day():
    s = E.new_game(3, 2, {"provisional_dealer": 1})
    s = act(s, 1, type="bid", level=2)
    assert E.awaiting(s) == {2}
    assert E.legal_actions(s, 2) == [{"type": "bid", "level": 3}, {"type": "bid", "level": 4},
                                     {"type": "bid", "level": 5}, {"type": "pass"}]
    with pytest.raises(engines.IllegalAction):
        act(s, 2, type="bid", level=2)
    s = act(s, 2, type="pass")
    s = act(s, 0, type="pass")
    assert s["dealer"] == 1 and s["day"] == 2
    assert s["order"] == [2, 0, 1]  # X = dealer's left, Y = dealer's right, Z = dealer
    assert s["phase"] == "reveal" and E.awaiting(s) == {2} and s["round"] == 1


def test_passed_player_may_raise_again_until_two_passes_in_a_row():
    s = E.new_game(3, 3, {"provisional_dealer": 0})
    s = act(s, 0, type="bid", level=1)
    s = act(s, 1, type="pass")
    s = act(s, 2, type="bid", level=3)
    s = act(s, 0, type="pass")
    assert E.awaiting(s) == {1}  # one pass after the raise: not over yet
    s = act(s, 1, type="bid", level=4)
    s = act(s, 2, type="pass")
    s = act(s, 0, type="pass")
    assert s["dealer"] == 1 and s["day"] == 4 and s["order"] == [2, 0, 1]


def test_bid_of_five_ends_at_once():
    s = E.new_game(3, 3, {"provisional_dealer": 2})
    s = act(s, 2, type="bid", level=1)
    s = act(s, 0, type="bid", level=5)
    assert s["phase"] == "reveal" and s["dealer"] == 0 and s["day"] == 5
    assert s["order"] == [1, 2, 0] and E.awaiting(s) == {1}


# ---------------------------------------------------------------- phase 1: reveal
def test_revealing_a_day_card_advances_the_marker_and_is_public():
    s = make(hands={0: ["d1", "c6"]}, day=2, dealer=2)  # X = 0
    s = act(s, 0, type="reveal", card="d1")
    assert s["day"] == 3 and s["rows"][0] == ["d1"] and "d1" not in s["hands"][0]
    assert s["phase"] == "move"  # an ordinary Day card: adjacent move
    for viewer in (None, 1, 2):
        assert E.view(s, viewer)["players"][0]["row"] == ["d1"]


def test_day_how_to_move_is_an_ordinary_day_card():
    s = make(hands={0: ["dm"]}, day=1, dealer=2)
    s = act(s, 0, type="reveal", card="dm")
    assert s["day"] == 2 and s["phase"] == "move" and s["area"] == [1, 2, 3]


def test_reaching_day_six_puts_the_revealer_out_and_resets_the_day():
    s = make(hands={0: ["d1", "c6", "p2"]}, day=5, dealer=2, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="d1")
    assert s["active"] == [False, True, True]
    assert s["day"] == 1  # not advanced; reset for the others
    assert s["area"][0] is None and s["hands"][0] == []
    assert {"c6", "p2"} <= set(s["exposed"][0]) and len(s["exposed"][0]) == 5
    assert s["phase"] == "reveal" and s["turn"] == 1  # no move, next player's turn
    leave = events(s, "leave")[0]
    assert leave["why"] == "time_up" and leave["hand"] == s["exposed"][0]
    v = E.view(s, 2)
    assert v["players"][0]["exposed"] == s["exposed"][0] and v["players"][0]["left"] == "time_up"
    assert E.outcome(s) is None


def test_time_up_with_one_player_left_makes_them_win():
    s = make(hands={0: ["d2"]}, day=5, dealer=2, active=(True, True, False))
    s = act(s, 0, type="reveal", card="d2")
    assert s["phase"] == "over" and E.awaiting(s) == frozenset()
    out = E.outcome(s)
    assert out["ranks"] == [1, 0, 1] and out["reason"] == "last_standing" and out["winner"] == 1


def test_gather_card_at_day_five_times_out_without_gathering():
    s = make(hands={0: ["dg"]}, day=5, dealer=2, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="dg")
    assert not s["active"][0] and s["area"] == [None, 2, 3] and "gather" not in kinds(s)


# ---------------------------------------------------------------- phase 2: move
def test_place_card_moves_there_without_a_choice():
    s = make(hands={0: ["p7"]}, dealer=2, areas=(1, 2, 3))
    s = act(s, 0, type="reveal", card="p7")
    assert s["area"][0] == 7 and s["phase"] == "accuse"
    mv = events(s, "move")[0]
    assert (mv["from"], mv["to"], mv["by_card"]) == (1, 7, True)


def test_place_card_of_current_area_stays_put():
    s = make(hands={0: ["p5"]}, dealer=2, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="p5")
    assert s["area"][0] == 5 and s["phase"] == "accuse"


def test_other_cards_move_to_an_adjacent_area_and_must_move():
    s = make(hands={0: ["c6"]}, dealer=2, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="c6")
    assert s["phase"] == "move"
    assert E.legal_actions(s, 0) == [{"type": "move", "area": a} for a in (2, 4, 6, 8)]
    with pytest.raises(engines.IllegalAction, match="not adjacent"):
        act(s, 0, type="move", area=5)
    with pytest.raises(engines.IllegalAction):
        act(s, 0, type="move", area=9)
    s2 = act(s, 0, type="move", area=4)
    assert s2["area"][0] == 4 and s2["phase"] == "accuse"


def test_map_adjacency_is_the_3x3_grid():
    for a, nbrs in data.ADJACENCY.items():
        r, c = divmod(a - 1, 3)
        expected = sorted(3 * rr + cc + 1 for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                          if 0 <= rr < 3 and 0 <= cc < 3)
        assert sorted(nbrs) == expected


def test_gather_moves_everyone_to_the_lodge_and_orders_three_exchanges():
    s = make(hands={1: ["dg"]}, dealer=2, turn=1, areas=(5, 9, 3))  # order X=0, Y=1, Z=2
    s = act(s, 1, type="reveal", card="dg")
    assert s["area"] == [1, 1, 1] and s["day"] == 2
    assert s["phase"] == "order" and E.awaiting(s) == {1}
    legal = E.legal_actions(s, 1)
    assert len(legal) == 6
    assert {tuple(map(tuple, a["pairs"])) for a in legal} >= {((0, 1), (1, 2), (2, 0))}
    hands_before = [list(h) for h in s["hands"]]
    s2 = act(s, 1, type="order", pairs=[[2, 0], [0, 1], [1, 2]])
    ex = events(s2, "exchange")
    assert [(e["a"], e["b"]) for e in ex] == [(2, 0), (0, 1), (1, 2)]
    assert [len(h) for h in s2["hands"]] == [len(h) for h in hands_before]
    assert s2["phase"] == "accuse"
    E.check_invariants(s2)


def test_gather_with_two_left_is_a_single_exchange():
    s = make(hands={0: ["dg"]}, dealer=2, areas=(5, 9, 3), active=(True, False, True))
    s = act(s, 0, type="reveal", card="dg")
    assert s["area"] == [1, None, 1] and s["phase"] == "accuse"
    assert [(e["a"], e["b"]) for e in events(s, "exchange")] == [(2, 0)]


# ---------------------------------------------------------------- phase 3: exchange
def test_exchange_swaps_one_random_card_each_way():
    for seed in range(25):
        s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 3))
        s["seed"] = seed
        a_before, b_before = set(s["hands"][0]) - {"p4"}, set(s["hands"][1])
        s = act(s, 0, type="reveal", card="p4")
        (ex,) = events(s, "exchange")
        assert (ex["a"], ex["b"]) == (0, 1) and ex["seen_by"] == [0, 1]
        got0, got1 = ex["secret"]["a_got"], ex["secret"]["b_got"]
        assert got0 in b_before and got1 in a_before
        # no bounce: each keeps what they drew; the given card stays with the other
        assert set(s["hands"][0]) == a_before - {got1} | {got0}
        assert set(s["hands"][1]) == b_before - {got0} | {got1}
        assert s["draws"] == 1
        E.check_invariants(s)


def test_exchange_draws_come_from_the_seed_and_counter():
    s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 3))
    results = set()
    for seed in range(40):
        s["seed"] = seed
        after = act(s, 0, type="reveal", card="p4")
        results.add(tuple(after["hands"][0]))
        assert act(s, 0, type="reveal", card="p4")["hands"] == after["hands"]
    assert len(results) > 5  # really random across seeds


def test_exchanged_cards_are_seen_by_the_two_players_only():
    s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 3))
    s = act(s, 0, type="reveal", card="p4")
    (ex,) = events(s, "exchange")
    for viewer in (0, 1):
        (e,) = [e for e in E.view(s, viewer)["log"] if e["kind"] == "exchange"]
        assert e["a_got"] == ex["secret"]["a_got"] and e["b_got"] == ex["secret"]["b_got"] and e["private"]
    for viewer in (2, None):
        (e,) = [e for e in E.view(s, viewer)["log"] if e["kind"] == "exchange"]
        assert e == {"kind": "exchange", "a": 0, "b": 1}


def test_two_others_on_the_destination_turn_player_orders_the_exchanges():
    s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 4))
    s = act(s, 0, type="reveal", card="p4")
    assert s["phase"] == "order"
    assert E.legal_actions(s, 0) == [{"type": "order", "pairs": [[0, 1], [0, 2]]},
                                     {"type": "order", "pairs": [[0, 2], [0, 1]]}]
    with pytest.raises(engines.IllegalAction):
        act(s, 0, type="order", pairs=[[1, 2], [0, 1]])
    with pytest.raises(engines.IllegalAction):
        act(s, 0, type="order", pairs=[[0, 1]])
    s2 = act(s, 0, type="order", pairs=[[2, 0], [0, 1]])  # either orientation of a pair is accepted
    assert [(e["a"], e["b"]) for e in events(s2, "exchange")] == [(0, 2), (0, 1)]
    assert [e["pairs"] for e in events(s2, "order")] == [[[0, 2], [0, 1]]]
    assert s2["draws"] == 2


def test_order_matters_a_card_received_first_may_travel_on():
    """The first exchange's card joins the hand before the second exchange (after a shuffle)."""
    travelled = False
    for seed in range(200):
        s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 4))
        s["seed"] = seed
        s = act(s, 0, type="reveal", card="p4")
        s = act(s, 0, type="order", pairs=[[0, 1], [0, 2]])
        first, second = events(s, "exchange")
        if second["secret"]["b_got"] == first["secret"]["a_got"]:
            travelled = True
            assert first["secret"]["a_got"] in s["hands"][2]
    assert travelled


ROUND6_ROWS = {0: ["c6", "c7", "c8", "c9", "p1"], 1: ["p2", "p3", "p5", "p6", "p7"],
               2: ["d1", "d2", "d3", "d4", "dm"]}


def test_empty_hand_skips_the_exchange():
    # round 6, X (seat 0) reveals its last card and lands on Y: X has no card left to exchange
    s = make(hands={0: ["p4"], 1: ["p8"], 2: ["dg"]}, rows=ROUND6_ROWS, dealer=2, turn=0, round_=6,
             areas=(1, 4, 3))
    s = act(s, 0, type="reveal", card="p4")
    assert events(s, "exchange") == []
    assert [(e["a"], e["b"]) for e in events(s, "exchange_skipped")] == [(0, 1)]
    assert s["phase"] == "accuse" and s["hands"][1] == ["p8"]


def test_gather_skips_pairs_with_an_empty_hand_and_needs_no_order_for_one():
    # round 6, X gathers with its last card: X-Y and Z-X are skipped, Y-Z still exchange
    s = make(hands={0: ["dg"], 1: ["p8"], 2: ["p4"]}, rows=ROUND6_ROWS, dealer=2, turn=0, round_=6,
             areas=(5, 9, 3))
    s = act(s, 0, type="reveal", card="dg")
    assert [(e["a"], e["b"]) for e in events(s, "exchange_skipped")] == [(0, 1), (2, 0)]
    assert [(e["a"], e["b"]) for e in events(s, "exchange")] == [(1, 2)]
    assert s["phase"] == "accuse" and s["hands"] == [[], ["p4"], ["p8"]]


# ---------------------------------------------------------------- phase 4: accusation
def test_correct_accusation_wins():
    s = make(dealer=2, phase="accuse", culprit=5, location=9)
    s = act(s, 0, type="accuse", character=5, place=9)
    assert s["phase"] == "over"
    out = E.outcome(s)
    assert out["ranks"] == [0, 1, 1] and out["reason"] == "accusation" and out["winner"] == 0
    for viewer in (None, 0, 1, 2):
        assert E.view(s, viewer)["solution"] == {"culprit": 5, "location": 9}


def test_wrong_accusation_puts_the_accuser_out_and_only_they_see_the_check():
    s = make(dealer=2, phase="accuse", culprit=5, location=9, day=3)
    s = act(s, 0, type="accuse", character=5, place=8)
    assert s["active"] == [False, True, True] and s["area"][0] is None
    assert s["day"] == 3 and len(s["exposed"][0]) == 6
    assert s["turn"] == 1 and s["phase"] == "reveal"
    own = [e for e in E.view(s, 0)["log"] if e["kind"] == "accuse"][0]
    assert (own["culprit"], own["location"], own["correct"]) == (5, 9, False)
    for viewer in (None, 1, 2):
        e = [e for e in E.view(s, viewer)["log"] if e["kind"] == "accuse"][0]
        assert e == {"kind": "accuse", "seat": 0, "character": 5, "place": 8, "correct": False}
        assert E.view(s, viewer)["solution"] is None
    assert E.view(s, 0)["solution"] is None


def test_a_wrong_accuser_sees_the_check_during_the_next_turn_then_only_the_public_view():
    """Rules: the culprit and location are seen by "nobody, except the accuser during their
    check"; players who left get the public view, "the solution stays hidden from them". The
    check lasts until the next player's turn is over (time to read it, even against bots)."""
    s = make(dealer=2, phase="accuse", culprit=5, location=9)
    s = act(s, 0, type="accuse", character=5, place=8)

    def accusation_seen_by(seat):
        return [e for e in E.view(s, seat)["log"] if e["kind"] == "accuse"][0]

    s = act(s, 1, **E.legal_actions(s, 1)[0])  # seat 1's turn goes on
    assert s["turn"] == 1 and accusation_seen_by(0)["culprit"] == 5
    while s["turn"] == 1:
        seat = next(iter(E.awaiting(s)))
        s = act(s, seat, **E.legal_actions(s, seat)[0])  # (in the accusation step: end the turn)
    assert s["phase"] != "over"
    assert "culprit" not in accusation_seen_by(0)
    assert E.view(s, 0)["log"] == E.view(s, None)["log"]  # a spectator's log, nothing private
    assert E.view(s, 0)["solution"] is None


def test_wrong_accusation_leaving_one_player_makes_them_win():
    s = make(dealer=2, phase="accuse", active=(True, True, False))
    s = act(s, 0, type="accuse", character=1, place=1)
    assert E.outcome(s)["ranks"] == [1, 0, 1] and E.outcome(s)["reason"] == "last_standing"


def test_accusation_is_optional():
    s = make(dealer=2, phase="accuse")
    assert E.legal_actions(s, 0)[0] == {"type": "end_turn"}
    assert len(E.legal_actions(s, 0)) == 1 + 81
    s = act(s, 0, type="end_turn")
    assert s["turn"] == 1 and s["phase"] == "reveal" and s["round"] == 1


# ---------------------------------------------------------------- turns and the end
def test_turn_order_skips_players_who_left_and_counts_rounds():
    s = make(dealer=0, phase="accuse", turn=1, active=(True, True, False))  # order 1, 2, 0
    s = act(s, 1, type="end_turn")
    assert s["turn"] == 0 and s["round"] == 1
    s = act(dict(s, phase="accuse"), 0, type="end_turn")
    assert s["turn"] == 1 and s["round"] == 2


def test_game_ends_without_winner_after_z_sixth_turn():
    rows = {0: ["c6", "c7", "c8", "c9", "p1", "p2"], 1: ["p3", "p5", "p6", "p7", "p8", "d1"],
            2: ["d2", "d3", "d4", "dm", "dg"]}
    s = make(hands={2: ["p4"]}, rows=rows, dealer=2, turn=2, round_=6, areas=(1, 2, 3))
    s = act(s, 2, type="reveal", card="p4")
    s = act(s, 2, type="end_turn")
    assert s["phase"] == "over"
    out = E.outcome(s)
    assert out["ranks"] == [0, 0, 0] and out["winner"] is None and out["reason"] == "no_winner"
    assert E.view(s, None)["solution"] == {"culprit": 5, "location": 9}


def test_no_winner_end_ranks_players_out_below_the_draw():
    rows = {0: ["c6", "c7", "c8", "c9", "p1", "p2"], 1: ["p3", "p5", "p6", "p7", "p8", "d1"],
            2: ["d2", "d3", "d4", "dm", "dg"]}
    s = make(rows=rows, dealer=1, turn=1, round_=6, areas=(1, 2, 3), phase="accuse",
             active=(True, True, False))  # order 2, 0, 1: seat 1 is Z; seat 2 left earlier
    s = act(s, 1, type="end_turn")
    assert E.outcome(s)["ranks"] == [0, 0, 2]


def test_full_games_without_accusations_run_18_turns_or_end_by_time_up():
    reasons = set()
    for seed in range(12):
        s = E.new_game(3, seed, {"provisional_dealer": 0})
        s = act(s, 0, type="bid", level=1)
        s = act(s, 1, type="pass")
        s = act(s, 2, type="pass")
        turns = 0
        while s["phase"] != "over":
            seat = next(iter(E.awaiting(s)))
            legal = E.legal_actions(s, seat)
            if s["phase"] == "reveal":
                non_day = [a for a in legal if a["card"] not in data.DAY_CARDS]
                choice = non_day[0] if non_day and s["day"] >= 4 else legal[0]
                turns += 1
            elif s["phase"] == "accuse":
                choice = {"type": "end_turn"}
            else:
                choice = legal[0]
            s = E.apply(s, seat, choice)
            E.check_invariants(s)
        reason = E.outcome(s)["reason"]
        reasons.add(reason)
        if reason == "no_winner":
            assert turns == 18 and all(not h for h in s["hands"]) and s["round"] == 6
        else:
            assert reason == "last_standing" and sum(s["active"]) == 1
    assert "no_winner" in reasons


# ---------------------------------------------------------------- variant: suggestions
def test_suggestions_variant_has_no_auction_and_starts_on_day_one():
    s = E.new_game(3, 4, {"suggestions": True, "provisional_dealer": 1})
    assert s["phase"] == "reveal" and s["dealer"] == 1 and s["day"] == 1
    assert s["order"] == [2, 0, 1] and E.awaiting(s) == {2}


def test_suggestion_first_clockwise_holder_shows_privately():
    opts = {"suggestions": True}
    # turn player 0; seat 1 holds neither, seat 2 holds both c6 and p3
    s = make(hands={0: ["p1"], 1: ["c7"], 2: ["c6", "p3"]}, dealer=2, opts=opts, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="p1")
    assert s["phase"] == "suggest"
    s = act(s, 0, type="suggest", character=6, place=3)
    assert s["phase"] == "show" and E.awaiting(s) == {2}
    assert E.legal_actions(s, 2) == [{"type": "show", "card": "c6"}, {"type": "show", "card": "p3"}]
    with pytest.raises(engines.IllegalAction):
        act(s, 2, type="show", card="c7")
    assert [e["seat"] for e in events(s, "no_card")] == [1]
    assert E.view(s, 1)["pending"] == {"character": 6, "place": 3, "passed": [1], "shower": 2, "asker": 0}
    s = act(s, 2, type="show", card="p3")
    assert s["phase"] == "accuse" and E.awaiting(s) == {0}
    for viewer in (0, 2):
        e = [e for e in E.view(s, viewer)["log"] if e["kind"] == "show"][0]
        assert e["card"] == "p3" and e["private"]
    for viewer in (1, None):
        e = [e for e in E.view(s, viewer)["log"] if e["kind"] == "show"][0]
        assert e == {"kind": "show", "seat": 2, "to": 0}


def test_suggestion_first_show_ends_it_and_own_cards_may_be_named():
    s = make(hands={0: ["p1", "c6"], 1: ["p3"], 2: ["c7"]}, dealer=2, opts={"suggestions": True}, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="p1")
    s = act(s, 0, type="suggest", character=7, place=3)
    assert E.awaiting(s) == {1}  # seat 1 is first clockwise; seat 2 is never asked
    assert E.legal_actions(s, 1) == [{"type": "show", "card": "p3"}]
    s = act(s, 1, type="show", card="p3")
    assert events(s, "no_card") == []


def test_suggestion_nobody_shows():
    s = make(hands={0: ["p1", "c6"]}, dealer=2, opts={"suggestions": True}, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="p1")
    s = act(s, 0, type="suggest", character=6, place=9)  # own card and the location
    assert s["phase"] == "accuse"
    assert kinds(s)[-3:] == ["no_card", "no_card", "none_shown"]


def test_suggestion_skips_players_who_left():
    s = make(hands={0: ["p1"], 1: ["c6"]}, dealer=2, opts={"suggestions": True}, areas=(5, 2, 3),
             active=(True, False, True))
    s = act(s, 0, type="reveal", card="p1")
    s = act(s, 0, type="suggest", character=6, place=9)
    assert s["phase"] == "accuse" and [e["seat"] for e in events(s, "no_card")] == [2]


def test_suggestion_comes_after_the_exchange():
    s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 3), opts={"suggestions": True})
    s = act(s, 0, type="reveal", card="p4")
    assert kinds(s)[-1] == "exchange" and s["phase"] == "suggest"


# ---------------------------------------------------------------- variant: character choice
def test_character_choice_picks_before_the_shuffle():
    s = E.new_game(3, 9, {"character_choice": True, "provisional_dealer": 2})
    assert s["phase"] == "pick" and E.awaiting(s) == {0} and s["hands"] == [[], [], []]
    assert E.view(s, None)["missing"] is None
    s = act(s, 0, type="pick", character=1)
    assert E.awaiting(s) == {1}
    assert {"type": "pick", "character": 1} not in E.legal_actions(s, 1)
    with pytest.raises(engines.IllegalAction, match="already picked"):
        act(s, 1, type="pick", character=1)
    s = act(s, 1, type="pick", character=9)
    s = act(s, 2, type="pick", character=5)
    assert s["chars"] == [1, 9, 5] and s["area"] == [1, 9, 5]
    assert s["missing"] not in (1, 9, 5) and s["culprit"] not in (1, 9, 5)
    assert s["phase"] == "bid" and E.awaiting(s) == {2}
    E.check_invariants(s)


def test_character_choice_with_suggestions_goes_straight_to_turns():
    s = E.new_game(3, 9, {"character_choice": True, "suggestions": True, "provisional_dealer": 0})
    for seat, c in ((1, 2), (2, 3), (0, 4)):
        s = act(s, seat, type="pick", character=c)
    assert s["phase"] == "reveal" and s["day"] == 1 and s["order"] == [1, 2, 0]


# ---------------------------------------------------------------- errors, views, misc
def test_malformed_and_illegal_inputs_are_told_apart():
    s = make(hands={0: ["c6"]}, dealer=2)
    for bad in (None, [], {"type": "reveal"}, {"type": "reveal", "card": "zz"},
                {"type": "reveal", "card": "c6", "extra": 1}, {"type": "move", "area": True},
                {"type": "accuse", "character": 0, "place": 1}, {"type": "order", "pairs": [[0, 0]]}):
        with pytest.raises(engines.InvalidAction):
            E.apply(s, 0, bad)
    with pytest.raises(engines.IllegalAction, match="not in seat 0's hand"):
        act(s, 0, type="reveal", card="p8")
    with pytest.raises(engines.IllegalAction, match="may not act now"):
        act(s, 1, type="reveal", card="c9")
    with pytest.raises(engines.IllegalAction, match="takes only"):
        act(s, 0, type="end_turn")
    assert E.legal_actions(s, 1) == [] and E.legal_actions(s, -1) == []


def test_apply_does_not_mutate_its_input():
    s = make(hands={0: ["dg"]}, dealer=2, areas=(5, 9, 3))
    before = E.state_to_json(s)
    s2 = act(s, 0, type="reveal", card="dg")
    act(s2, 0, **E.legal_actions(s2, 0)[0])
    assert E.state_to_json(s) == before


def test_views_of_the_own_hand_and_spectator():
    s = make(hands={0: ["c6"]}, dealer=2)
    assert E.view(s, 0)["hand"] == s["hands"][0]
    assert E.view(s, None)["hand"] is None
    assert [p["hand_count"] for p in E.view(s, None)["players"]] == [6, 6, 6]
    assert E.view(s, 1)["missing"] == 4 and E.view(s, 1)["solution"] is None
    json.dumps(E.view(s, None))


def test_left_player_keeps_the_public_view_without_the_solution():
    s = make(hands={0: ["d1"]}, day=5, dealer=2)
    s = act(s, 0, type="reveal", card="d1")
    v = E.view(s, 0)
    assert v["hand"] == [] and v["solution"] is None
    assert "culprit" not in json.dumps(v["log"])


def test_invariants_catch_broken_conservation():
    s = make(dealer=2)
    bad = E.state_from_json(E.state_to_json(s))
    bad["hands"][0].append("c5")  # the culprit copied into a hand
    with pytest.raises(AssertionError):
        E.check_invariants(bad)
    bad = E.state_from_json(E.state_to_json(s))
    bad["day"] = 6
    with pytest.raises(AssertionError):
        E.check_invariants(bad)


def test_clock_defaults_to_a_minute_for_the_awaited_seat_only():
    s = make(dealer=2)  # seat 0 (the dealer's left) reveals first
    assert E.awaiting(s) == {0} and [E.clock_seconds(s, p) for p in range(3)] == [60.0, None, None]
    assert [E.clock_seconds(make(dealer=2, opts={"turn_seconds": 0}), p) for p in range(3)] == [None] * 3
    bidding = E.new_game(3, 1, {"provisional_dealer": 0, "turn_seconds": 20})
    assert [E.clock_seconds(bidding, p) for p in range(3)] == [20.0, None, None]
    assert E.on_timeout(bidding, 0) == {"type": "bid", "level": 1}  # the provisional dealer must bid
    after = E.apply(bidding, 0, E.on_timeout(bidding, 0))
    assert E.on_timeout(after, 1) == {"type": "pass"}


def test_on_timeout_gives_a_safe_legal_action():
    s = make(hands={0: ["d1", "c6"]}, day=5, dealer=2)
    assert E.on_timeout(s, 0) == {"type": "reveal", "card": "c6"}
    assert E.on_timeout(dict(s, phase="accuse"), 0) == {"type": "end_turn"}
    b = E.new_game(3, 1, {"provisional_dealer": 0})
    assert E.on_timeout(b, 0) in E.legal_actions(b, 0)


@pytest.mark.parametrize("opts", [{"suggestions": True}, {"character_choice": True},
                                  {"suggestions": True, "character_choice": True}])
def test_variant_random_playouts_keep_invariants(opts):
    def cautious(view, legal, rng):  # random, but rarely accuses, so games run long
        calm = [a for a in legal if a["type"] != "accuse"]
        return rng.choice(calm if calm and rng.random() < 0.97 else legal)

    for seed in range(60):
        result = play(E, 3, seed, policies=[cautious] * 3, options=opts,
                      on_step=lambda b, seat, a, after: E.check_invariants(after))
        out = E.outcome(result.state)
        assert out is not None and 0 in out["ranks"]


def test_bot_uses_deduction():
    from engines.bots.mipolin import candidates, choose
    s = make(hands={0: ["c6", "c7", "c8", "c9", "p1", "p2"]}, dealer=2, phase="accuse",
             rows={1: ["p3", "p4", "p5"], 2: ["p6", "p7", "p8"]})
    v = E.view(s, 0)
    assert candidates(v) == ([5], [9])
    legal = E.legal_actions(s, 0)
    assert choose(v, legal, random.Random(0)) == {"type": "accuse", "character": 5, "place": 9}
    v1 = E.view(s, 1)
    assert choose(v1, legal, random.Random(0)) == {"type": "end_turn"}


def test_view_last_holds_the_previous_and_current_turn():
    s = make(hands={0: ["p7"]}, dealer=2, areas=(1, 2, 3))
    s["log"] = [{"kind": "turn", "seat": 0, "round": 1}]
    s = act(s, 0, type="reveal", card="p7")
    s = act(s, 0, type="end_turn")
    last = E.view(s, 2)["last"]
    assert [e["kind"] for e in last] == ["turn", "reveal", "move", "end_turn", "turn"]
    assert last[-1] == {"kind": "turn", "seat": 1, "round": 1}
