"""Three Magic no-leak properties: what a seat may not know never shows in its view.

Hidden from a seat: the other hands and their drawn card, the pile and the spare (their order and
content), other seats' pending call choices, and who can call at all (the rules never ask a seat
with nothing to call, so the set of asked seats must not leak through the view either).
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines import playout

E = engines.get("three_magic")


def random_state(seed: int, steps: int):
    return playout.random_point(E, 3, seed, steps)


def perturb(state, viewer, rng: random.Random):
    """Redistribute every card ``viewer`` cannot see and rewrite what others decided in secret."""
    j = E.state_to_json(state)
    others = [s for s in range(3) if s != viewer]
    pool = list(j["pile"]) + list(j["spare"])
    for s in others:
        pool += j["hands"][s]
    holder_drawn = j["phase"] == "insert" and j["turn"] != viewer and j["drawn"] is not None
    if holder_drawn:
        pool.append(j["drawn"])
    rng.shuffle(pool)
    take = 0

    def grab(n):
        nonlocal take
        out = pool[take:take + n]
        take += n
        return out

    j["pile"] = grab(len(j["pile"]))
    j["spare"] = grab(len(j["spare"]))
    for s in others:
        j["hands"][s] = grab(len(j["hands"][s]))
    if holder_drawn:
        j["drawn"] = grab(1)[0]
    assert take == len(pool)
    if j["call"] is not None:
        call = j["call"]
        choices = [rng.choice([None, {"type": "pass"}, {"type": "ron", "pos": 0}, {"type": "pon", "cards": [0, 1]}])
                   for _ in range(3)]
        call["callers"] = sorted(set(rng.sample(others, rng.randint(0, 2))) | ({viewer} & set(call["callers"])))
        for s in others:
            call["choices"][s] = choices[s]
    return E.state_from_json(j)


def vjson(state, seat):
    return json.dumps(E.view(state, seat), sort_keys=True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 700), viewer=st.sampled_from([0, 1, 2, None]),
       salt=st.integers(0, 1000))
def test_view_ignores_what_the_seat_may_not_know(seed, steps, viewer, salt):
    state = random_state(seed, steps)
    before = vjson(state, viewer)
    rng = random.Random(salt)
    for _ in range(3):
        changed = perturb(state, viewer if viewer is not None else -1, rng)
        assert vjson(changed, viewer) == before


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 700))
def test_spectator_view_has_no_private_data(seed, steps):
    state = random_state(seed, steps)
    v = E.view(state, None)
    assert v["hand"] is None and v["drawn"] is None and v["inserted"] is None and v["waits"] is None
    assert v["prices"] is None
    if v["call"] is not None:
        assert v["call"]["my_choice"] is None
    text = json.dumps(v)
    # no hidden card shows anywhere: count every visible card occurrence against public places
    public = len(state["discards"][0]) + len(state["discards"][1]) + len(state["discards"][2]) + \
        3 * sum(len(m) for m in state["melds"]) + 2 * len(state["indicators"])
    assert text.count('"el"') >= public  # all public cards are shown...
    # ...and the spectator view equals every seat's view minus the seat's private fields
    for seat in range(3):
        own = E.view(state, seat)
        for key in ("hand", "drawn", "inserted", "waits", "prices", "seat"):
            own[key] = v[key]
        if own["call"] is not None:
            own["call"]["my_choice"] = None
        assert json.dumps(own, sort_keys=True) == json.dumps(v, sort_keys=True)


def test_perturbation_reaches_what_the_seat_sees_when_it_should():
    """The leak test can fail: moving the viewer's own cards, or others' cards into the viewer's
    hand, changes the viewer's view."""
    state = random_state(3, 40)
    viewer = 0
    j = E.state_to_json(state)
    k = next(i for i, c in enumerate(j["hands"][1]) if c // 4 != j["hands"][0][0] // 4)
    j["hands"][0][0], j["hands"][1][k] = j["hands"][1][k], j["hands"][0][0]
    swapped = E.state_from_json(j)
    assert vjson(swapped, viewer) != vjson(state, viewer)
    assert vjson(swapped, None) == vjson(state, None)
