"""No-leak property tests for Peribit: at random points of random games, changing what a seat may
not know (the other hand, the deck order and contents, the other's pending exchange or placement,
the other's drawn stone, the seed) leaves everything that seat observes (view, awaiting, its legal
actions, clocks, outcome) byte-identical, mid-game and after the end; the spectator view holds no
private data at all; the log holds only what the rules make public (field, multas, metus, round
results, exchange decisions: counts, never an exchanged-in stone)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

import engines
from engines import SYSTEM
from engines.peribit.engine import EXCHANGE, PLACE
from tests.engines.observe import LogRule, log_leaks, observed, view_json

E = engines.get("peribit")


def random_point(seed: int, steps: int):
    """A state reached by ``steps`` random actions (timeouts included now and then)."""
    rng = random.Random(seed)
    state = E.new_game(2, seed, {"placement_clock": rng.choice([0, 30])})
    for _ in range(steps):
        awaited = E.awaiting(state)
        if not awaited:
            break
        if SYSTEM in awaited:
            state = E.apply(state, SYSTEM, E.legal_actions(state, SYSTEM)[0])
            continue
        seat = rng.choice(sorted(awaited))
        if E.clock_seconds(state, seat) and rng.random() < 0.1:
            state = E.apply(state, SYSTEM, E.on_timeout(state, seat))
        else:
            state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
    return state


def perturb(state, hidden_seats, rng: random.Random):
    """Change everything about ``hidden_seats`` and the deck that the viewer may not know, keeping
    the position consistent (36 stones, legal pending choices, public counts and flags)."""
    s = state.copy()
    deck = list(s.deck)
    hands = [list(h) for h in s.hands]
    for x in hidden_seats:
        for i in range(len(hands[x])):
            if deck and rng.random() < 0.7:
                j = rng.randrange(len(deck))
                hands[x][i], deck[j] = deck[j], hands[x][i]
        rng.shuffle(hands[x])
    rng.shuffle(deck)
    s.deck = tuple(deck)
    s.hands = tuple(tuple(h) for h in hands)
    pending_pl = list(s.pending_pl)
    pending_ex = list(s.pending_ex)
    drawn = list(s.drawn)
    for x in hidden_seats:
        if s.step == PLACE and pending_pl[x] is not None:
            probe = s.copy()
            probe.pending_pl = (None, None)
            choice = rng.choice(E.legal_actions(probe, x))
            lane = choice["lane"] if choice["type"] == "place" else -1
            pending_pl[x] = (lane, ["bellum", "natura", "societas"].index(choice["mark"]), pending_pl[x][2])
        if s.step == EXCHANGE and pending_ex[x] is not None:
            probe = s.copy()
            probe.pending_ex = (None, None)
            choice = rng.choice(E.legal_actions(probe, x))
            marks = ["bellum", "natura", "societas"]
            pending_ex[x] = tuple(sorted(marks.index(m) for m in choice.get("give", [])))
        if drawn[x] is not None:
            drawn[x] = rng.randrange(3)
    s.pending_pl = tuple(pending_pl)
    s.pending_ex = tuple(pending_ex)
    s.drawn = tuple(drawn)
    s.seed = rng.randrange(10**9)
    s.shuffles = s.shuffles + rng.randrange(5)
    E.check_invariants(s)
    return s


# a game is ~70 steps: up to 160 covers finished games too
points = st.tuples(st.integers(0, 10**6), st.integers(0, 160), st.integers(0, 10**6))

# Every log entry is public by the rules; any other key fails the check.
LOG_RULES = {
    "round_start": LogRule({"round", "metus"}),
    "exchange": LogRule({"round", "placement", "exchanged", "could"}),  # who exchanged, not what came in
    "refill": LogRule({"round", "placement", "stones", "new_lanes", "deck"}),  # counts only
    "placement": LogRule({"round", "placement", "placements", "captures", "collision", "late", "metus_before",
                          "metus_after", "new_lanes", "round_end", "time"}),
    "deck_short": LogRule({"round", "placement", "deck", "need"}),
    "round_end": LogRule({"round", "reason", "scores", "surplus", "winner"}),
    "peribit": LogRule({"receiver", "drawn", "totals", "winner"}),
    "late": LogRule({"seat", "round", "placement", "metus"}),  # not where the late stone went: still pending
    "late_exchange": LogRule({"seat", "round", "placement"}),
}


def _assert_unobserved(state, viewer, hidden_seats, noise):
    """Three perturbations of ``hidden_seats``' secrets change nothing ``viewer`` observes."""
    before = observed(E, state, viewer, 2)
    for k in range(3):
        assert observed(E, perturb(state, hidden_seats, random.Random(noise + k)), viewer, 2) == before


@settings(max_examples=60, deadline=None)
@given(points)
def test_a_seat_observes_nothing_of_the_other_hand_the_deck_and_pending_secrets(point):
    seed, steps, noise = point
    state = random_point(seed, steps)
    for seat in (0, 1):
        _assert_unobserved(state, seat, [1 - seat], noise)


@settings(max_examples=60, deadline=None)
@given(points)
def test_the_log_holds_only_what_the_rules_make_public(point):
    seed, steps, _ = point
    state = random_point(seed, steps)
    for seat in (None, 0, 1):
        assert log_leaks(E.view(state, seat)["log"], seat, LOG_RULES, "kind") == []


@settings(max_examples=60, deadline=None)
@given(points)
def test_the_spectator_view_holds_no_private_data(point):
    seed, steps, noise = point
    state = random_point(seed, steps)
    view = E.view(state, None)
    assert view["hand"] is None and view["drawn"] is None and view["my_placement"] is None
    assert view["exchange"]["mine"] is None
    _assert_unobserved(state, None, [0, 1], noise)


@settings(max_examples=60, deadline=None)
@given(points)
def test_the_views_only_reveal_placements_once_both_are_in(point):
    seed, steps, noise = point
    state = random_point(seed, steps)
    if state.step != PLACE:
        return
    for seat in (0, 1):
        other = 1 - seat
        if state.pending_pl[other] is None and state.pending_pl[seat] is None:
            # whatever the other seat submits, this seat sees only "placed"
            views = set()
            for action in E.legal_actions(state, other):
                views.add(view_json(E, E.apply(state, other, action), seat))
            assert len(views) == 1


def test_the_perturbation_is_seen_by_the_seat_it_belongs_to():
    """Guards the property tests above: the same perturbation of a seat's own secrets does
    change that seat's own view, so an engine that leaked them would fail."""
    changed_own = 0
    for seed in range(40):
        state = random_point(seed, seed % 30)
        if state.step not in (PLACE, EXCHANGE):
            continue
        for seat in (0, 1):
            before = view_json(E, state, seat)
            if view_json(E, perturb(state, [seat], random.Random(seed)), seat) != before:
                changed_own += 1
    assert changed_own > 20
