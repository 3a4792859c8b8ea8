"""Makelandia no-leak properties: changing what a seat may not know leaves everything it observes
(view, awaiting, its legal actions, clocks, outcome) byte-identical, mid-game and after the end;
every private log detail reaches exactly the seats the rules name (rules, "Hidden information":
a face-down play nobody until the reveal, a reinforcement card the giver and the receiver, Scout's
look its owner; expedition cards their owner and, for a reinforcement, its giver)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines.makelandia import data
from engines.playout import random_point
from tests.engines.observe import LogRule, log_leaks, observed

E = engines.get("makelandia")
PUBLIC = -1


def reach(n: int, seed: int, steps: int):
    """A state after up to ``steps`` random actions; games that end sooner give their final state."""
    return random_point(E, n, seed, steps)


# Who may see what in each log entry, from the rules (not from the engine's "secret" lists).
_BASE = {"event", "id", "turn"}
LOG_RULES = {
    "start": LogRule(_BASE | {"seat"}),
    "wait": LogRule(_BASE | {"seat"}),
    "attack": LogRule(_BASE | {"seat", "target", "distant"}),  # face down: not even how many cards
    "battle": LogRule(_BASE | {"seat", "target", "attack", "defense", "winner", "why", "distant",
                               "attack_strength", "defense_strength"}),  # both plays revealed
    "scout": LogRule(_BASE | {"seat", "target"}, {"hand": lambda e: {e["seat"]}}),
    "reinforce": LogRule(_BASE | {"seat", "target", "distant"}, {"card": lambda e: {e["seat"], e["target"]}}),
    "out": LogRule(_BASE | {"seat", "discarded"}),  # discards are public
    "return": LogRule(_BASE | {"seat", "count"}),  # which cards came back: not for everyone
    "end": LogRule(_BASE | {"result", "reason"}),
}


def leaks_in_log(state, viewer):
    return log_leaks(E.view(state, viewer)["log"], viewer, LOG_RULES, "event")


def scramble(state, viewer, rng: random.Random, include_own=False):
    """Shuffle, per team, every card in a place ``viewer`` cannot see; also rewrite secret log
    details not meant for ``viewer``. Hand sizes, play sizes and expedition sizes are kept."""
    d = E.state_to_json(state)
    n = d["n"]
    slots = {0: [], 1: []}  # team -> list of (getter, setter)

    def slot(team, container, index):
        slots[team].append((container, index))

    for p in range(n):
        if p != viewer or include_own:
            for i in range(len(d["hands"][p])):
                slot(d["team"][p], d["hands"][p], i)
        for i, (card, src) in enumerate(d["exped"][p]):
            if src != PUBLIC and viewer not in (p, src):
                slot(d["team"][p], d["exped"][p][i], 0)
    for team in (0, 1):
        for i in range(len(d["set_aside"][team])):
            slot(team, d["set_aside"][team], i)
    if d["pending"] is not None and d["pending"][0] != viewer:
        attacker_team = d["team"][d["pending"][0]]
        for i in range(len(d["pending"][2])):
            slot(attacker_team, d["pending"][2], i)
    for team, places in slots.items():
        cards = [container[i] for container, i in places]
        rng.shuffle(cards)
        for (container, i), card in zip(places, cards):
            container[i] = card
    for p in range(n):
        d["hands"][p] = sorted(d["hands"][p], key=data.ORDER.__getitem__)
    for entry in d["log"]:
        secret = entry.get("secret")
        if secret is not None and viewer not in secret["for"]:
            if "hand" in secret:
                secret["hand"] = [rng.choice(data.ALL_CARDS) for _ in secret["hand"]]
            if "card" in secret:
                secret["card"] = rng.choice(data.ALL_CARDS)
    return E.state_from_json(d)


def dump(state, viewer):
    return observed(E, state, viewer, state.n)


# up to 400 steps: most random games end before that, so final states are covered too
games = st.tuples(st.integers(4, 8), st.integers(0, 10_000), st.integers(0, 400), st.integers(0, 2**32))


@settings(max_examples=60, deadline=None)
@given(games)
def test_views_do_not_depend_on_hidden_information(game):
    n, seed, steps, shuffle_seed = game
    state = reach(n, seed, steps)
    rng = random.Random(shuffle_seed)
    for viewer in [None, *range(n)]:
        before = dump(state, viewer)
        for _ in range(3):
            assert dump(scramble(state, viewer, rng), viewer) == before, f"view of {viewer} leaks"


@settings(max_examples=60, deadline=None)
@given(games)
def test_spectator_view_holds_no_private_data(game):
    n, seed, steps, _ = game
    state = reach(n, seed, steps)
    v = E.view(state, None)
    assert v["hand"] is None and v["seat"] is None
    assert v["pending"] is None or v["pending"]["cards"] is None
    for p in v["players"]:
        for card, (real, src) in zip(p["expedition"], state.exped[p["seat"]]):
            assert card == (real if src == PUBLIC else None)
    for entry in v["log"]:
        assert "secret" not in entry and "hand" not in entry
        assert not (entry["event"] == "reinforce" and "card" in entry)
    text = json.dumps(v)
    assert "set_aside" in v and all(isinstance(x, int) for x in v["set_aside"].values())
    assert '"for"' not in text


def test_the_scramble_does_change_what_others_see():
    """The property above can fail: scrambling a seat's own hand shows in that seat's view, and the
    hidden cards really move between examples (so the property is not vacuous)."""
    rng = random.Random(1)
    changed_own = changed_state = 0
    for seed in range(40):
        state = reach(6, seed, seed % 20)
        if dump(scramble(state, 0, rng, include_own=True), 0) != dump(state, 0):
            changed_own += 1
        if E.state_to_json(scramble(state, 0, rng)) != E.state_to_json(state):
            changed_state += 1
    assert changed_own >= 20 and changed_state >= 30


def test_reinforcement_card_and_scout_look_reach_only_their_seats():
    """The private log details themselves are scrambled for other viewers and kept for the owner."""
    for seed in range(200):
        state = reach(5, seed, 40)
        secrets = [e for e in state.log if "secret" in e]
        if secrets:
            break
    else:
        raise AssertionError("no game with a reinforcement or Scout look")
    entry = secrets[-1]
    owner = entry["secret"]["for"][0]
    mine = [e for e in E.view(state, owner)["log"] if e["id"] == entry["id"]][0]
    assert all(mine[k] == v for k, v in entry["secret"].items() if k != "for")
    outsiders = [s for s in range(5) if s not in entry["secret"]["for"]]
    theirs = [e for e in E.view(state, outsiders[0])["log"] if e["id"] == entry["id"]][0]
    assert not set(entry["secret"]) - {"for"} & set(theirs)


@settings(max_examples=60, deadline=None)
@given(games)
def test_private_log_details_reach_only_the_seats_the_rules_name(game):
    n, seed, steps, _ = game
    state = reach(n, seed, steps)
    for viewer in [None, *range(n)]:
        assert leaks_in_log(state, viewer) == []


def _leaky(state, edit):
    """The state with its log entries rewritten by ``edit`` (what a leaky engine would record)."""
    d = E.state_to_json(state)
    for entry in d["log"]:
        edit(d, entry)
    return E.state_from_json(d)


def test_the_log_check_catches_leaky_engines():
    """Three deliberately leaky engines that the view-scrambling property alone let through: the
    face-down cards in the "attack" entry, the returning expedition cards in the "return" entry, a
    reinforcement hint outside the private part of the entry."""

    def attack_cards(d, e):
        if e["event"] == "attack":
            e["cards"] = ["5"]

    def return_cards(d, e):
        if e["event"] == "return":
            e["cards"] = ["3"] * e["count"]

    def reinforce_hint(d, e):
        if e["event"] == "reinforce":
            e["strength"] = 7

    caught = {}
    for leak in (attack_cards, return_cards, reinforce_hint):
        for seed in range(300):
            state = reach(6, seed, 60 + seed % 60)
            leaky = _leaky(state, leak)
            if E.state_to_json(leaky) != E.state_to_json(state):
                assert any(leaks_in_log(leaky, v) for v in [None, *range(6)]), leak.__name__
                caught[leak.__name__] = caught.get(leak.__name__, 0) + 1
            if caught.get(leak.__name__, 0) >= 3:
                break
    assert set(caught) == {"attack_cards", "return_cards", "reinforce_hint"}, caught
    # and a secret shown to a seat the rules do not name is caught too
    for seed in range(300):
        state = reach(6, seed, 80)
        if any(e["event"] == "reinforce" for e in state.log):
            break
    entry = next(e for e in state.log if e["event"] == "reinforce")
    outsider = next(p for p in range(6) if p not in (entry["seat"], entry["target"]))
    widened = _leaky(state, lambda d, e: e["event"] == "reinforce" and e["secret"]["for"].append(outsider))
    assert leaks_in_log(widened, outsider)
