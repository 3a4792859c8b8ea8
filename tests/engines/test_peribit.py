"""Scenario tests for Peribit: every rule and ruling of static/rules/peribit.html from
hand-built positions, with exact results."""

from __future__ import annotations

import json
import random

import pytest

import engines
from engines import SYSTEM, IllegalAction, InvalidAction
from engines.peribit import data
from engines.peribit.engine import BETWEEN, EXCHANGE, OVER, PLACE
from engines.peribit.scoring import best_role
from engines.playout import play

E = engines.get("peribit")
B, N, S = 0, 1, 2  # bellum, natura, societas
NAME = {B: "bellum", N: "natura", S: "societas"}


def make(*, lanes=((B, 1), (N, 1), (S, 1), (B, 1), (N, 1)), hands=((B, N, S), (B, N, S)),
         deck_top=(), multas=((0, 0, 0), (0, 0, 0)), metus=0, placement=1, round_=1,
         step=PLACE, rounds=(), stella=None, clock=30, fill=True):
    """A hand-built position. The deck is ``deck_top`` followed (if ``fill``) by every stone not
    elsewhere, in mark order, so the 36 stones are conserved."""
    state = E.new_game(2, 0, {"placement_clock": clock})
    s = state.copy()
    s.lanes = tuple(tuple(x) for x in lanes)
    s.hands = tuple(tuple(h) for h in hands)
    s.multas = tuple(tuple(m) for m in multas)
    deck = list(deck_top)
    if fill:
        used = [0, 0, 0]
        for m, n in s.lanes:
            used[m] += n
        for h in s.hands:
            for m in h:
                used[m] += 1
        for mu in s.multas:
            for m in range(3):
                used[m] += mu[m]
        for m in deck:
            used[m] += 1
        for m in range(3):
            assert used[m] <= 12, f"too many {NAME[m]} stones in the scenario"
            deck += [m] * (12 - used[m])
    s.deck = tuple(deck)
    s.metus = metus
    s.metus_start = 0
    s.placement = placement
    s.round = round_
    s.rounds = tuple(rounds)
    s.stella = sum(r["surplus"] for r in rounds) if stella is None else stella
    s.step = step
    s.pending_ex = (None, None)
    s.pending_pl = (None, None)
    s.eligible = (step == EXCHANGE, step == EXCHANGE)
    s.drawn = (None, None)
    s.last_exchange = None
    s.last = None
    s.log = ()
    s.final = None
    if fill:
        E.check_invariants(s)
    return s


def place(state, seat, lane):
    return E.apply(state, seat, {"type": "place", "lane": lane})


def new_lane(state, seat, mark):
    return E.apply(state, seat, {"type": "new_lane", "mark": NAME[mark]})


def both(state, a0, a1):
    state = E.apply(state, 0, a0)
    return E.apply(state, 1, a1)


def skip(state):
    """Both decline the exchange if the exchange step is open."""
    while state.step == EXCHANGE:
        state = E.apply(state, min(E.awaiting(state)), {"type": "no_exchange"})
    return state


def P(lane):
    return {"type": "place", "lane": lane}


def NL(mark):
    return {"type": "new_lane", "mark": NAME[mark]}


def round_record(n, scores, winner, surplus=0):
    return {"round": n, "reason": "metus", "metus": 12 + surplus, "surplus": surplus,
            "multas": [[0, 0, 0], [0, 0, 0]], "scores": list(scores), "roles": ["nihil", "nihil"],
            "winner": winner}


# ------------------------------------------------------------------------------------- setup

def test_setup_deals_five_lanes_three_stones_each_and_opens_the_exchange():
    state = E.new_game(2, 11)
    assert len(state.lanes) == 5 and all(n == 1 for _, n in state.lanes)
    assert [len(h) for h in state.hands] == [3, 3]
    assert len(state.deck) == 36 - 5 - 6
    assert state.metus == 0 and state.round == 1 and state.placement == 1
    assert state.step == EXCHANGE and E.awaiting(state) == frozenset({0, 1})
    E.check_invariants(state)
    v = E.view(state, 0)
    assert v["time"] == "mane" and v["metus_limit"] == 12 and v["deck_count"] == 25


def test_only_two_players_and_options_are_validated():
    with pytest.raises(InvalidAction):
        E.new_game(3, 0)
    with pytest.raises(InvalidAction):
        E.new_game(2, 0, {"placement_clock": -1})
    with pytest.raises(InvalidAction):
        E.new_game(2, 0, {"no_such": 1})
    assert E.new_game(2, 0).options == {"placement_clock": 30}


def test_same_seed_same_game_other_seed_other_deal():
    a, b, c = E.new_game(2, 5), E.new_game(2, 5), E.new_game(2, 6)
    assert E.state_to_json(a) == E.state_to_json(b)
    assert E.state_to_json(a) != E.state_to_json(c)


# ---------------------------------------------------------------------------- placement rules

def test_legal_placements_lanes_in_order_then_new_lanes_in_hand_order():
    s = make(lanes=((B, 1), (N, 2), (B, 1)), hands=((S, B, S), (N, N, N)))
    assert E.legal_actions(s, 0) == [
        {"type": "place", "lane": 0, "mark": "bellum"},
        {"type": "place", "lane": 2, "mark": "bellum"},
        {"type": "new_lane", "mark": "societas"},  # allowed although a bellum stone matches lanes
    ]
    assert E.legal_actions(s, 1) == [{"type": "place", "lane": 1, "mark": "natura"}]


def test_without_a_matching_stone_a_new_lane_is_forced_and_passing_is_impossible():
    s = make(lanes=((B, 1), (B, 1)), hands=((N, S, N), (B, B, B)))
    assert E.legal_actions(s, 0) == [{"type": "new_lane", "mark": "natura"},
                                     {"type": "new_lane", "mark": "societas"}]
    with pytest.raises(InvalidAction):
        E.apply(s, 0, {"type": "pass"})
    with pytest.raises(IllegalAction, match="lane 0 is a bellum lane"):
        E.apply(s, 0, {"type": "place", "lane": 0, "mark": "natura"})
    with pytest.raises(IllegalAction, match="holds no bellum"):
        E.apply(s, 0, {"type": "place", "lane": 0})


def test_new_lane_refused_for_a_mark_a_lane_has_or_a_stone_not_held():
    s = make(lanes=((B, 1), (N, 1)), hands=((B, N, S), (B, B, B)))
    with pytest.raises(IllegalAction, match="a bellum lane exists"):
        E.apply(s, 0, NL(B))
    with pytest.raises(IllegalAction, match="no societas"):
        E.apply(s, 1, NL(S))
    with pytest.raises(IllegalAction, match="no lane 7"):
        E.apply(s, 0, P(7))


def test_different_lanes_each_capture_their_whole_lane():
    s = make(lanes=((B, 1), (N, 3), (S, 1), (B, 1), (N, 1)), hands=((N, B, B), (S, S, S)))
    s = both(s, P(1), P(2))
    assert s.multas == ((0, 4, 0), (0, 0, 2))
    assert s.lanes == ((B, 1), (B, 1), (N, 1))
    assert s.metus == 4 + 1  # 4 stones: +4; 2 stones: +1
    assert s.hands == ((B, B), (S, S))
    last = E.view(s, None)["last_result"]
    assert last["collision"] is None
    assert [(c["seat"], c["stones"], c["metus"]) for c in last["captures"]] == [(0, 4, 4), (1, 2, 1)]
    E.check_invariants(s)


def test_metus_two_or_three_stones_add_one_four_or_more_add_their_number():
    s = make(lanes=((B, 2), (N, 2), (S, 1)), hands=((B, B, B), (N, N, N)))
    assert both(s, P(0), P(1)).metus == 2  # two captures of 3 stones: +1 each
    s = make(lanes=((B, 3), (N, 4), (S, 1)), hands=((B, B, B), (N, N, N)))
    assert both(s, P(0), P(1)).metus == 4 + 5


def test_collision_keeps_both_stones_on_the_lane_and_stacks_until_a_capture():
    s = make(lanes=((B, 1), (N, 1), (S, 1), (N, 1), (S, 1)), hands=((B, B, B), (B, B, B)),
             placement=1)
    s = both(s, P(0), P(0))
    assert s.lanes[0] == (B, 3) and s.multas == ((0, 0, 0), (0, 0, 0)) and s.metus == 0
    assert E.view(s, 1)["last_result"]["collision"] == 0
    s = both(skip(s), P(0), P(0))  # Nox: a second collision on the same lane
    assert s.lanes[0] == (B, 5) and s.metus == 0
    # Mane refill happened before placement 3; hands are bellum-rich from the filled deck order
    s = make(lanes=s.lanes, hands=((B, N, S), (N, S, S)), placement=3)
    s = both(s, P(0), P(1))
    assert s.multas == ((6, 0, 0), (0, 2, 0))
    assert s.metus == 6 + 1
    E.check_invariants(s)


def test_two_new_lanes_are_added_after_the_lanes_seat_0_first():
    s = make(lanes=((B, 1), (B, 2)), hands=((N, N, B), (S, S, B)))
    s = both(s, NL(N), NL(S))
    assert s.lanes == ((B, 1), (B, 2), (N, 1), (S, 1))
    s2 = make(lanes=((B, 1), (B, 2)), hands=((N, N, B), (S, S, B)))
    s2 = E.apply(s2, 1, NL(S))  # submission order does not matter
    s2 = E.apply(s2, 0, NL(N))
    assert s2.lanes == s.lanes


def test_same_mark_new_lanes_both_start_and_a_capture_plus_new_lane_resolve_together():
    s = make(lanes=((B, 1), (B, 2)), hands=((N, N, B), (N, S, S)))
    assert both(s, NL(N), NL(N)).lanes == ((B, 1), (B, 2), (N, 1), (N, 1))
    s = make(lanes=((B, 1), (B, 2), (S, 1)), hands=((N, N, B), (N, S, S)))
    s = both(s, NL(N), P(2))
    assert s.lanes == ((B, 1), (B, 2), (N, 1))
    assert s.multas == ((0, 0, 0), (0, 0, 2))


def test_a_placement_is_final_and_secret_until_both_are_in():
    s = make(lanes=((B, 1), (N, 1)), hands=((B, N, S), (B, N, S)))
    s = E.apply(s, 0, P(1))
    assert E.awaiting(s) == frozenset({1})
    assert E.legal_actions(s, 0) == []
    with pytest.raises(IllegalAction, match="not awaited"):
        E.apply(s, 0, P(0))
    other = E.view(s, 1)
    assert other["placed"] == [True, False] and other["my_placement"] is None
    assert other["hand_counts"] == [3, 3]  # the stone has not visibly left the hand
    mine = E.view(s, 0)
    assert mine["my_placement"] == {"lane": 1, "mark": "natura", "new_lane": False, "late": False}
    s2 = make(lanes=((B, 1), (N, 1)), hands=((B, N, S), (B, N, S)))
    s2 = E.apply(s2, 0, P(0))
    assert json.dumps(E.view(s2, 1), sort_keys=True) == json.dumps(other, sort_keys=True)


# ----------------------------------------------------------------------- Mane refill / Nox

def test_nox_has_no_refill_and_the_next_mane_refills_hands_alternately_then_lanes():
    s = make(lanes=((B, 1), (N, 1), (S, 1), (B, 1), (N, 1)), hands=((B, N, S), (S, N, B)),
             deck_top=(S, N, B, B, S, N, N, S))
    s = both(s, P(0), P(1))  # placement 1 (Mane): two captures
    assert s.placement == 2 and E.view(s, 0)["time"] == "nox"
    assert s.hands == ((N, S), (S, B)) and len(s.lanes) == 3  # no refill before a Nox
    assert s.lanes == ((S, 1), (B, 1), (N, 1))
    s = skip(s)
    top = s.deck[:8]
    s = both(s, P(0), P(1))  # placement 2 (Nox): seat 0 takes the societas lane, seat 1 the bellum
    assert s.multas == ((2, 0, 2), (2, 2, 0))
    assert s.placement == 3 and E.view(s, 0)["time"] == "mane"
    # hands refill first, one stone at a time from seat 0: seat0 gets top[0], seat1 top[1], ...
    assert top == (S, N, B, B, S, N, N, S)
    assert s.hands == ((N, S, B), (S, N, B))  # seat 0: N + top[0], top[2]; seat 1: S + top[1], top[3]
    assert s.lanes == ((N, 1), (S, 1), (N, 1), (N, 1), (S, 1))  # the old lane, then top[4:8]
    assert len(s.deck) == 36 - 8 - 5 - 6
    E.check_invariants(s)


def test_round_ends_when_the_deck_cannot_supply_the_whole_refill():
    # placement 2 (Nox) about to resolve; the deck holds 3 stones but the refill needs 2+2+2
    s = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, N), (N, S)), placement=2,
             multas=((10, 0, 0), (0, 8, 10)), deck_top=(), fill=False)
    s.deck = (S, S, N)
    s = both(s, P(0), P(2))
    assert s.step == BETWEEN and s.round == 1
    rec = s.rounds[-1]
    assert rec["reason"] == "deck" and rec["surplus"] == 0 and s.stella == 0
    assert s.deck == (S, S, N) and s.hands == ((N,), (N,))  # nothing was drawn
    assert E.view(s, None)["last_result"]["round_end"] == "deck"


def test_round_ends_when_the_refill_would_use_the_deck_up():
    # The original: 「メトゥスが12点以上になる、あるいは山札がなくなった場合にラウンド終了」. A Mane
    # refill that takes the deck's last stone means the deck has run out: Ruina, nothing dealt
    # (no Mane and Nox played on with an empty deck and no exchange).
    # placement 2 (Nox) about to resolve; after two captures the refill needs 2 + 2 + 4 lanes = 8
    s = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, N), (N, S)), placement=2,
             multas=((10, 0, 0), (0, 8, 10)), fill=False)
    s.deck = (S, S, N, B, S, N, B, N)
    s = both(s, P(0), P(2))
    assert s.step == BETWEEN and s.round == 1
    rec = s.rounds[-1]
    assert rec["reason"] == "deck" and rec["surplus"] == 0 and s.stella == 0
    assert s.deck == (S, S, N, B, S, N, B, N) and s.hands == ((N,), (N,))  # nothing was dealt
    assert E.view(s, None)["last_result"]["round_end"] == "deck"
    assert [e for e in s.log if e["kind"] == "deck_short"][-1]["need"] == 8


def test_a_refill_leaving_a_stone_in_the_deck_lets_the_round_go_on():
    s = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, N), (N, S)), placement=2,
             multas=((10, 0, 0), (0, 8, 10)), fill=False)
    s.deck = (S, S, N, B, S, N, B, N, B)
    s = both(s, P(0), P(2))
    assert s.round == 1 and s.placement == 3 and s.rounds == ()
    assert s.deck == (B,) and [len(h) for h in s.hands] == [3, 3] and len(s.lanes) == 5
    assert s.step == PLACE  # one stone left: no exchange can be served


def test_round_ends_at_twelve_metus_with_the_surplus_carried_and_added_to_stella():
    s = make(lanes=((B, 5), (N, 1), (S, 1)), hands=((B, N, S), (N, S, S)), metus=9)
    s = both(s, P(0), P(1))  # +6 and +1 → 16
    assert s.step == BETWEEN and E.awaiting(s) == frozenset({SYSTEM})
    rec = s.rounds[0]
    assert rec["metus"] == 16 and rec["surplus"] == 4 and rec["reason"] == "metus"
    assert s.stella == 4
    assert E.legal_actions(s, SYSTEM) == [{"type": "next_round"}]
    assert E.delay(s) == data.BETWEEN_ROUNDS_DELAY
    assert E.legal_actions(s, 0) == [] and E.awaiting(s) == frozenset({SYSTEM})
    s = E.apply(s, SYSTEM, {"type": "next_round"})
    assert s.round == 2 and s.metus == 4 and s.metus_start == 4 and s.placement == 1
    assert s.multas == ((0, 0, 0), (0, 0, 0)) and len(s.lanes) == 5 and len(s.deck) == 25
    E.check_invariants(s)


def test_below_twelve_the_round_goes_on():
    s = make(lanes=((B, 9), (N, 1), (S, 1)), hands=((B, N, S), (N, S, S)), metus=1)
    s = both(s, P(0), P(1))  # +10 and +1 → 12 exactly: ends, surplus 0
    assert s.step == BETWEEN and s.rounds[0]["surplus"] == 0
    s = make(lanes=((B, 8), (N, 1), (S, 1)), hands=((B, N, S), (N, S, S)), metus=1)
    s = both(s, P(0), P(1))  # → 11
    assert s.step != BETWEEN and s.metus == 11 and s.placement == 2


def test_round_one_surplus_does_not_reach_round_three():
    s = make(lanes=((B, 5), (N, 1)), hands=((B, N, S), (N, S, S)), metus=10, round_=2,
             rounds=[round_record(1, (3, 1), 0, surplus=5)])
    s = both(s, P(0), P(1))  # +6 +1 → 17, surplus 5
    assert s.stella == 10
    s = E.apply(s, SYSTEM, {"type": "next_round"})
    assert s.round == 3 and s.metus == 5  # round 2's surplus only
    assert E.view(s, None)["stella_metus"] == 10


def test_a_round_starting_at_or_above_twelve_plays_one_placement():
    s = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, N, S), (N, S, S)), metus=14, round_=2,
             rounds=[round_record(1, (3, 1), 0, surplus=14)])
    assert s.step == PLACE and E.awaiting(s) == frozenset({0, 1})
    s = both(s, P(0), P(1))
    assert s.step == BETWEEN and s.rounds[-1]["metus"] == 16 and s.rounds[-1]["surplus"] == 4


# --------------------------------------------------------------------------------- exchange

def test_exchange_gives_two_for_the_top_deck_stone_and_shuffles_them_in():
    s = make(step=EXCHANGE, hands=((B, B, N), (S, S, S)), deck_top=(S, N))
    assert E.legal_actions(s, 0) == [
        {"type": "no_exchange"},
        {"type": "exchange", "give": ["bellum", "bellum"]},
        {"type": "exchange", "give": ["bellum", "natura"]},
    ]
    deck_before = len(s.deck)
    s1 = E.apply(s, 0, {"type": "exchange", "give": ["natura", "bellum"]})
    assert s1.hands == s.hands and E.view(s1, 1)["exchange"]["decided"] == [True, False]
    assert E.view(s1, 1)["exchange"]["mine"] is None
    assert E.view(s1, 0)["exchange"]["mine"] == ["bellum", "natura"]
    s2 = E.apply(s1, 1, {"type": "exchange", "give": ["societas", "societas"]})
    assert s2.step == PLACE
    assert s2.hands == ((B, S), (S, N))  # seat 0 drew first
    assert len(s2.deck) == deck_before - 2 + 4
    assert E.view(s2, 0)["drawn"] == "societas" and E.view(s2, 1)["drawn"] == "natura"
    assert E.view(s2, None)["drawn"] is None
    assert E.view(s2, None)["exchange"]["last"] == [True, True]  # decisions public, stones not
    assert E.view(s2, 0)["hand_counts"] == [2, 2]
    E.check_invariants(s2)


def test_no_exchange_decisions_leave_hands_and_deck_alone():
    s = make(step=EXCHANGE)
    t = both(s, {"type": "no_exchange"}, {"type": "no_exchange"})
    assert t.step == PLACE and t.hands == s.hands and t.deck == s.deck
    assert E.view(t, 1)["exchange"]["last"] == [False, False]


def test_exchange_needs_two_hand_stones_and_two_deck_stones():
    s = make(step=EXCHANGE, hands=((B, N, S), (N,)))
    s.eligible = (True, False)
    assert E.awaiting(s) == frozenset({0}) and E.legal_actions(s, 1) == []
    t = E.apply(s, 0, {"type": "no_exchange"})
    assert t.step == PLACE
    # via the engine: nobody is offered an exchange at a Nox where hands hold 1 stone
    u = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, B), (N, N)))
    u = both(u, P(0), P(1))
    assert u.step == PLACE and u.placement == 2 and E.awaiting(u) == frozenset({0, 1})
    # one stone each: only the seat with 2 stones is offered the exchange
    u = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, B, B), (N, N)))
    u = both(u, P(0), P(1))
    assert u.step == EXCHANGE and u.eligible == (True, False) and E.awaiting(u) == frozenset({0})
    # and nobody is offered one when the deck is down to 1 stone before the next placement
    v = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, B, B), (N, N, N)), fill=False)
    v.deck = (S,)
    v.multas = ((8, 8, 10), (0, 0, 0))
    E.check_invariants(v)
    w = both(v, P(0), P(1))
    assert w.placement == 2 and w.step == PLACE and E.view(w, 0)["exchange"]["can"] == [False, False]


def test_exchange_refuses_stones_not_held_and_malformed_gives():
    s = make(step=EXCHANGE, hands=((B, B, N), (S, S, S)))
    with pytest.raises(IllegalAction, match="cannot give"):
        E.apply(s, 0, {"type": "exchange", "give": ["societas", "bellum"]})
    for bad in (["bellum"], ["bellum", "x"], "bellum", None, ["bellum", "bellum", "natura"]):
        with pytest.raises(InvalidAction):
            E.apply(s, 0, {"type": "exchange", "give": bad})
    with pytest.raises(IllegalAction, match="only in the placement step"):
        E.apply(s, 0, P(0))
    p = make()
    with pytest.raises(IllegalAction, match="only in the exchange step"):
        E.apply(p, 0, {"type": "no_exchange"})


# ------------------------------------------------------------------------------- the clock

def test_clock_seconds_runs_for_awaited_seats_only_and_not_without_the_option():
    s = make(lanes=((B, 1), (N, 1)), hands=((B, N, S), (B, N, S)), clock=45)
    assert E.clock_seconds(s, 0) == 45.0 and E.clock_seconds(s, 1) == 45.0
    s1 = E.apply(s, 0, P(0))
    assert E.clock_seconds(s1, 0) is None and E.clock_seconds(s1, 1) == 45.0
    assert E.clock_seconds(s, SYSTEM) is None
    assert E.clock_seconds(make(clock=0), 0) is None
    assert E.on_timeout(s, 1) == {"type": "timeout", "seat": 1}


def test_timeout_makes_the_first_legal_placement_and_adds_one_metus():
    s = make(lanes=((S, 1), (N, 1), (B, 2)), hands=((B, N, S), (B, N, B)), metus=3)
    s = E.apply(s, 0, P(0))
    timeout = E.on_timeout(s, 1)
    assert timeout not in E.legal_actions(s, 1) and SYSTEM not in E.awaiting(s)
    t = E.apply(s, SYSTEM, timeout)
    # seat 1's first legal placement: lane 1 (natura), the first lane it can play onto
    assert t.multas == ((0, 0, 2), (0, 2, 0))
    assert t.metus == 3 + 1 + 1 + 1  # penalty + two 2-stone captures
    last = E.view(t, 0)["last_result"]
    assert last["late"] == [1] and last["placements"][1]["late"] is True
    assert any(e["kind"] == "late" and e["seat"] == 1 for e in E.view(t, None)["log"])


def test_timeout_before_the_other_placed_waits_and_uses_new_lanes_in_hand_order():
    s = make(lanes=((B, 1), (B, 1)), hands=((S, N, S), (B, N, S)), metus=0)
    t = E.apply(s, SYSTEM, {"type": "timeout", "seat": 0})
    assert t.metus == 1 and E.awaiting(t) == frozenset({1})
    assert t.pending_pl[0] == (-1, S, True)  # new societas lane: first hand stone's mark
    assert E.view(t, 1)["placed"] == [True, False]
    u = E.apply(t, 1, P(1))
    assert u.lanes == ((B, 1), (S, 1)) and u.metus == 2


def test_timeout_is_refused_without_a_clock_or_a_pending_seat_and_from_players():
    s = make(clock=0)
    with pytest.raises(IllegalAction, match="no placement clock"):
        E.apply(s, SYSTEM, {"type": "timeout", "seat": 0})
    s = make()
    s1 = E.apply(s, 0, P(0))
    with pytest.raises(IllegalAction, match="no running clock"):
        E.apply(s1, SYSTEM, {"type": "timeout", "seat": 0})
    with pytest.raises(IllegalAction, match="only the server"):
        E.apply(s, 0, {"type": "timeout", "seat": 0})
    with pytest.raises(IllegalAction):
        E.apply(s, SYSTEM, {"type": "timeout", "seat": 5})
    with pytest.raises(InvalidAction):
        E.apply(s, SYSTEM, {"type": "timeout", "seat": "0"})
    with pytest.raises(IllegalAction, match="only between rounds"):
        E.apply(s, SYSTEM, {"type": "next_round"})
    with pytest.raises(IllegalAction):
        E.apply(s, SYSTEM, P(0))


def test_timeout_in_the_exchange_step_means_no_exchange_and_no_penalty():
    s = make(step=EXCHANGE, metus=2)
    s = E.apply(s, 0, {"type": "exchange", "give": ["bellum", "natura"]})
    assert E.clock_seconds(s, 1) == 30.0
    t = E.apply(s, SYSTEM, {"type": "timeout", "seat": 1})
    assert t.step == PLACE and t.metus == 2
    assert E.view(t, 0)["exchange"]["last"] == [True, False]
    assert any(e["kind"] == "late_exchange" for e in E.view(t, 0)["log"])


# --------------------------------------------------------------------------------- scoring

@pytest.mark.parametrize("counts, role, pts", [
    ((0, 0, 0), "nihil", 0), ((1, 0, 0), "nihil", 0), ((2, 0, 0), "par", 1),
    ((1, 1, 1), "trias", 3), ((3, 1, 1), "trias", 3), ((0, 4, 0), "unus", 4),
    ((4, 1, 1), "unus", 4), ((3, 3, 0), "duo", 6), ((3, 3, 1), "duo", 6), ((5, 0, 3), "duo", 8),
    ((3, 3, 3), "tria_plena", 12), ((5, 4, 3), "tria_plena", 15), ((8, 0, 0), "monas", 16),
    ((10, 2, 0), "monas", 20), ((0, 8, 8), "monas", 16),  # Duo 16 = Monas 16: the lower row is named
    ((8, 8, 3), "tria_plena", 22),
])
def test_house_table_best_single_role(counts, role, pts):
    got_role, got_points = best_role(counts)
    assert (got_role["id"], got_points) == (role, pts)


def test_view_labels_house_scoring_and_gives_both_best_roles():
    s = make(multas=((3, 3, 0), (1, 1, 1)))
    v = E.view(s, None)
    assert v["scoring"]["name_en"] == "house scoring"
    assert [r["id"] for r in v["scoring"]["roles"]] == [r["id"] for r in data.ROLES]
    assert (v["multas"][0]["role"], v["multas"][0]["points"]) == ("duo", 6)
    assert (v["multas"][1]["role"], v["multas"][1]["points"]) == ("trias", 3)
    assert v["multas"][0]["counts"] == {"bellum": 3, "natura": 3, "societas": 0}


def test_round_winner_by_points_and_equal_points_draw_the_round():
    s = make(lanes=((B, 9), (N, 1), (S, 1)), hands=((B, N, S), (N, S, S)), metus=1,
             multas=((0, 0, 0), (2, 0, 0)))
    s = both(s, P(0), P(1))
    assert s.rounds[0]["scores"] == [20, 1] and s.rounds[0]["winner"] == 0  # Monas 2×10, Par
    assert s.rounds[0]["roles"] == ["monas", "par"]
    s = make(lanes=((B, 9), (N, 9)), hands=((B, N, S), (N, S, S)), metus=0)
    s = both(s, P(0), P(1))
    assert s.rounds[0]["scores"] == [20, 20] and s.rounds[0]["winner"] is None


# ------------------------------------------------------------------------ after round three

def test_stella_metus_goes_to_the_player_with_fewer_round_wins_and_round_three_is_rescored():
    rounds = [round_record(1, (5, 3), 0, surplus=2), round_record(2, (4, 6), 1, surplus=3)]
    s = make(lanes=((B, 5), (N, 1), (S, 1)), hands=((B, N, S), (N, S, S)), metus=9, round_=3,
             rounds=rounds, multas=((0, 0, 0), (1, 1, 0)), deck_top=(S, S, B, N, N, N, N, N, N))
    s = both(s, P(0), P(1))  # seat 0 takes 6 bellum (+6), seat 1 takes 2 natura (+1) → 16
    assert s.step == OVER and s.stella == 2 + 3 + 4
    final = s.final
    assert s.rounds[2]["scores"] == [6, 1] and final["round_wins"] == [2, 1]
    assert final["receiver"] == 1
    assert final["drawn"] == [[], ["societas", "societas", "bellum", "natura", "natura", "natura",
                                   "natura", "natura", "natura"]]
    assert s.multas[1] == (2, 9, 2)  # 1+1 bellum, 1+2+6 natura, 2 societas → Monas 18
    assert final["round3_rescored"] == [6, 18] and final["round3_roles"] == ["unus", "monas"]
    assert final["totals"] == [5 + 4 + 6, 3 + 6 + 18] and final["winner"] == 1
    o = E.outcome(s)
    assert o["ranks"] == [1, 0] and o["scores"] == [15, 27] and "house scoring" in o["reason"]
    assert E.awaiting(s) == frozenset() and E.legal_actions(s, 0) == []
    E.check_invariants(s)


def test_stella_metus_is_limited_by_the_remaining_deck():
    rounds = [round_record(1, (1, 3), 1, surplus=10), round_record(2, (1, 6), 1, surplus=0)]
    s = make(lanes=((B, 1), (N, 1), (S, 1)), hands=((B, N), (N, S)), placement=2, round_=3,
             rounds=rounds, multas=((0, 0, 0), (0, 0, 0)), fill=False)
    s.deck = (S, B, N)  # refill would need 6: the round ends for lack of stones
    s = both(s, P(0), P(2))
    assert s.rounds[2]["reason"] == "deck" and s.final["receiver"] == 0
    assert s.final["drawn"] == [["societas", "bellum", "natura"], []] and s.deck == ()
    assert s.multas[0] == (3, 1, 1)  # 2 bellum captured + the 3 drawn


def test_equal_round_wins_split_stella_floor_half_alternately_from_seat_0():
    rounds = [round_record(1, (5, 3), 0, surplus=3), round_record(2, (4, 6), 1, surplus=2)]
    s = make(lanes=((B, 9), (N, 9), (S, 1)), hands=((B, N, S), (N, S, S)), metus=0, round_=3,
             rounds=rounds, deck_top=(S, N, B, B, S, S))
    s = both(s, P(0), P(1))  # 10 vs 10: drawn round; metus 20 → surplus 8; stella 13
    assert s.rounds[2]["winner"] is None and s.stella == 13
    f = s.final
    assert f["receiver"] is None and f["round_wins"] == [1, 1]
    assert s.deck == () and E.check_invariants(s) is None
    # share 6 each, alternately from seat 0, but the 11 remaining stones run out first
    assert f["drawn"] == [["societas", "bellum", "societas", "societas", "societas", "societas"],
                          ["natura", "bellum", "societas", "societas", "societas"]]
    assert s.multas == ((11, 0, 5), (1, 11, 3))
    assert f["round3_rescored"] == [22, 22] and f["round3_roles"] == ["monas", "monas"]


def test_equal_totals_are_a_draw_with_shared_first_place():
    rounds = [round_record(1, (5, 3), 0), round_record(2, (3, 5), 1)]
    s = make(lanes=((B, 5), (N, 5), (S, 1)), hands=((B, N, S), (N, S, S)), round_=3, rounds=rounds)
    s = both(s, P(0), P(1))  # 6 + 6 metus: exactly 12, no surplus, Stella Metus 0
    assert s.final["stella_metus"] == 0 and s.final["drawn"] == [[], []]
    assert s.final["totals"] == [14, 14] and s.final["winner"] is None
    o = E.outcome(s)
    assert o["ranks"] == [0, 0] and "draw" in o["reason"]


# ------------------------------------------------------------------------- protocol details

def test_malformed_actions_and_seats_are_invalid_and_idle_seats_illegal():
    s = make()
    for bad in (None, 3, "place", [], {}, {"type": "nope"}, {"type": "place"},
                {"type": "place", "lane": "0"}, {"type": "place", "lane": True},
                {"type": "place", "lane": -1}, {"type": "place", "lane": 0, "mark": "red"},
                {"type": "new_lane"}, {"type": "new_lane", "mark": 1}):
        with pytest.raises(InvalidAction):
            E.apply(s, 0, bad)
    for seat in (2, 7, True, None, "0"):  # not a seat of this game at all: malformed
        with pytest.raises(InvalidAction, match="seat"):
            E.apply(s, seat, P(0))
    done = E.apply(s, 0, P(0))  # seat 0 has placed: a real seat that is not awaited is illegal
    try:
        E.apply(done, 0, P(0))
    except InvalidAction:  # pragma: no cover - must be the other tier
        pytest.fail("a seat that is not awaited is illegal, not malformed")
    except IllegalAction as err:
        assert "seat" in str(err)
    else:
        pytest.fail("seat 0 placed twice")


def test_apply_never_mutates_its_input_and_json_round_trips():
    s = make(step=EXCHANGE)
    before = E.state_to_json(s)
    t = both(s, {"type": "exchange", "give": ["bellum", "natura"]}, {"type": "no_exchange"})
    t = both(t, P(0), P(1))
    assert E.state_to_json(s) == before
    data_ = E.state_to_json(t)
    assert E.state_to_json(E.state_from_json(json.loads(json.dumps(data_)))) == data_


def test_check_invariants_catches_a_lost_stone():
    s = make()
    s.deck = s.deck[1:]
    with pytest.raises(AssertionError, match="not conserved"):
        E.check_invariants(s)


def test_36_stones_are_conserved_at_every_step_of_full_games():
    seen_rounds = set()
    for seed in range(30):
        def check(before, seat, action, after):
            E.check_invariants(after)
            seen_rounds.add(after.round)
        result = play(E, 2, seed, on_step=check, rng=random.Random(seed))
        assert E.outcome(result.state) is not None
        assert len(result.state.rounds) == 3
    assert seen_rounds == {1, 2, 3}


def test_games_with_clock_timeouts_replay_exactly_and_keep_invariants():
    for seed in range(15):
        rng = random.Random(seed)
        state = E.new_game(2, seed, {"placement_clock": 10})
        log = []
        late = 0
        while E.awaiting(state):
            awaited = E.awaiting(state)
            if SYSTEM in awaited:
                seat, action = SYSTEM, E.legal_actions(state, SYSTEM)[0]
            else:
                seat = rng.choice(sorted(awaited))
                if rng.random() < 0.3:
                    seat, action = SYSTEM, E.on_timeout(state, seat)
                    late += state.step == PLACE
                else:
                    action = rng.choice(E.legal_actions(state, seat))
            state = E.apply(state, seat, action)
            log.append((seat, action))
            E.check_invariants(state)
            assert E.state_to_json(E.state_from_json(E.state_to_json(state))) == E.state_to_json(state)
        assert late > 0
        again = E.new_game(2, seed, {"placement_clock": 10})
        for seat, action in log:
            again = E.apply(again, seat, action)
        assert E.state_to_json(again) == E.state_to_json(state)
        assert E.outcome(state) is not None and E.delay(state) == 0.0
