"""Synomilia no-leak properties: what a seat may not know (the opponent's face-down card, whether
the opponent's change was a swap or a bluff, the second card before the SYSTEM reveal) never
changes what that seat observes (view, awaiting, its legal actions, clocks, the reveal step and its
delay, outcome), up to and after the end; the spectator view holds no face-down card at all; the
log of plays says only who did what kind of play (rules: a change is public, its card is not)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

import engines
from engines import SYSTEM, playout
from tests.engines.observe import LogRule, log_leaks, observed

E = engines.get("synomilia")
SETTINGS = settings(max_examples=60, deadline=None)


def observed_by(state, seat):
    return observed(E, state, seat, 2)


PLAY_RULES = {kind: LogRule({"seat"} | ({"face"} if kind == "stack" else set()))
              for kind in ("stack", "change", "pass")}


def random_point(seed: int, steps: int):
    """The state after up to ``steps`` uniformly random steps of the game with ``seed``."""
    return playout.random_point(E, 2, seed, steps)


def with_prediction(state, seat, card):
    data = E.state_to_json(state)
    data["predictions"][seat] = card
    return E.state_from_json(data)


def hidden_from(state, viewer):
    """Seats whose face-down card ``viewer`` (None = spectator) may not know in ``state``."""
    if state.phase not in ("predict", "play", "reveal"):
        return []
    return [s for s in (0, 1) if s != viewer and state.predictions[s] is not None
            and not (state.phase == "reveal" and s == state.first_revealer)]


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), pick=st.randoms(use_true_random=False))
def test_other_face_down_cards_do_not_change_what_is_observed(seed, steps, pick):
    state = random_point(seed, steps)
    for viewer in (0, 1, None):
        hidden = hidden_from(state, viewer)
        if not hidden:
            continue
        reference = observed_by(state, viewer)
        for seat in hidden:
            for card in state.available[seat]:
                assert observed_by(with_prediction(state, seat, card), viewer) == reference
        if len(hidden) == 2:  # spectator: both cards at once
            a, b = (pick.choice(state.available[s]) for s in (0, 1))
            other = with_prediction(with_prediction(state, 0, a), 1, b)
            assert observed_by(other, None) == reference


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), alt=st.randoms(use_true_random=False))
def test_swap_or_bluff_is_invisible_to_the_opponent_until_reveal(seed, steps, alt):
    """Play on from a random point twice: the chosen actions, and the same actions with the
    opponent's secret card choices (predict/change cards) replaced. The watcher's views agree at
    every step until the opponent's card is revealed."""
    state = random_point(seed, steps)
    if not E.awaiting(state):
        return
    rng = random.Random(seed + 1)
    for watcher in (0, 1):
        a = b = state
        secret = 1 - watcher
        for _ in range(40):
            awaited = E.awaiting(a)
            if not awaited or SYSTEM in awaited:
                break
            seat = rng.choice(sorted(awaited))
            action = rng.choice(E.legal_actions(a, seat))
            other = action
            if seat == secret and action["type"] in ("predict", "change"):
                other = dict(action, card=alt.choice(a.available[seat]))
            a = E.apply(a, seat, action)
            b = E.apply(b, seat, other)
            if a.phase == "reveal" and a.first_revealer == secret:
                break  # the opponent's card is now public, legitimately
            assert observed_by(a, watcher) == observed_by(b, watcher)
            assert E.legal_actions(a, watcher) == E.legal_actions(b, watcher)
            assert observed_by(a, None) == observed_by(b, None)


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200))
def test_spectator_view_has_no_private_data(seed, steps):
    state = random_point(seed, steps)
    v = E.view(state, None)
    assert v["viewer"] is None and v["my_prediction"] is None
    if state.phase == "reveal":
        second = 1 - state.first_revealer
        assert v["reveal"]["cards"][second] is None
        assert v["reveal"]["cards"][state.first_revealer] == state.predictions[state.first_revealer]
    # the spectator view is exactly a player's view minus the player's own card
    for seat in (0, 1):
        pv = E.view(state, seat)
        pv["viewer"] = None
        pv["my_prediction"] = None
        assert json.dumps(pv, sort_keys=True) == json.dumps(v, sort_keys=True)


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200))
def test_the_plays_log_says_only_who_played_what_kind(seed, steps):
    state = random_point(seed, steps)
    for viewer in (None, 0, 1):
        view = E.view(state, viewer)
        bouts = [view["plays"]] + [b["plays"] for b in ([view["last_bout"]] if view["last_bout"] else [])]
        for plays in bouts:
            assert log_leaks(plays, viewer, PLAY_RULES, "type") == []


def test_a_change_shows_no_card_in_the_public_log():
    state = E.new_game(2, 1)
    state = E.apply(state, 0, {"type": "predict", "card": 3})
    state = E.apply(state, 1, {"type": "predict", "card": 6})
    turn = state.turn
    swapped = E.apply(state, turn, {"type": "change", "card": 8})
    bluffed = E.apply(state, turn, {"type": "change", "card": state.predictions[turn]})
    for viewer in (1 - turn, None):
        assert observed_by(swapped, viewer) == observed_by(bluffed, viewer)
        plays = E.view(swapped, viewer)["plays"]
        assert plays[-1]["type"] == "change" and "card" not in plays[-1]
