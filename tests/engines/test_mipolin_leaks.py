"""No-leak property tests for Mipolin: for every seat, at random points of random games (finished
ones included), changing what that seat may not know leaves everything it observes (view,
awaiting, its legal actions, clocks, outcome) byte-identical; the spectator view holds no secrets;
every private log detail reaches exactly the seats the rules name ("Hidden information": an
exchanged card the two players of the exchange, a shown card the shower and the turn player, the
solution the accuser during their check, everyone at the end); a player who is out sees the public
log."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.mipolin import data
from engines.mipolin import ENGINE as E
from tests.engines.observe import LogRule, log_leaks, observed, view_json
from tests.engines.test_mipolin import act, make

OPTION_SETS = [{}, {"suggestions": True}, {"character_choice": True},
               {"suggestions": True, "character_choice": True}]


def _cautious(rng, legal):
    """Random play that seldom accuses, so the games reach exchanges, suggestions and late rounds."""
    calm = [a for a in legal if a["type"] != "accuse"]
    return rng.choice(calm if calm and rng.random() < 0.97 else legal)


def _random_point(seed, steps, opts):
    rng = random.Random(seed)
    s = E.new_game(3, seed, opts)
    for _ in range(steps):
        awaited = E.awaiting(s)
        if not awaited:
            break
        seat = next(iter(awaited))
        s = E.apply(s, seat, _cautious(rng, E.legal_actions(s, seat)))
    return s


# Who may see what in each log entry, from the rules (not from the engine's "seen_by" lists).
_SEAT = {"seat"}
LOG_RULES = {
    "start": LogRule({"pd", "variant"}), "deal": LogRule({"missing", "chars"}),
    "pick": LogRule(_SEAT | {"character"}), "bid": LogRule(_SEAT | {"level"}), "pass": LogRule(_SEAT),
    "no_auction": LogRule({"dealer"}), "dealer": LogRule(_SEAT | {"day"}), "turn": LogRule(_SEAT | {"round"}),
    "reveal": LogRule(_SEAT | {"card", "day_from", "day_to", "time_up"}),  # revealed face up
    "gather": LogRule({"area"}), "move": LogRule(_SEAT | {"from", "to", "by_card"}),
    "order": LogRule(_SEAT | {"pairs"}), "exchange_skipped": LogRule({"a", "b"}),
    "exchange": LogRule({"a", "b"}, {"a_got": lambda e: {e["a"], e["b"]}, "b_got": lambda e: {e["a"], e["b"]}}),
    "suggest": LogRule(_SEAT | {"character", "place"}), "no_card": LogRule(_SEAT), "none_shown": LogRule(_SEAT),
    "show": LogRule(_SEAT | {"to"}, {"card": lambda e: {e["seat"], e["to"]}}),
    "accuse": LogRule(_SEAT | {"character", "place", "correct"},
                      {"culprit": lambda e: {e["seat"]}, "location": lambda e: {e["seat"]}}),
    "end_turn": LogRule(_SEAT), "leave": LogRule(_SEAT | {"why", "hand"}),  # a leaver's hand is revealed
    "game_over": LogRule({"winner", "reason", "culprit", "location"}),  # everything at the end
}


def _observed(s, seat):
    return observed(E, s, seat, 3)


def _kind(card):
    return "d" if card in data.DAY_CARDS else card[0]


def perturb(s, seat, rng):
    """A copy of ``s`` where everything ``seat`` may not know is reshuffled: other players' hands,
    the culprit and location (until the game is over), secrets of log entries it was not part
    of, and the seed (future exchange draws). Type-preserving, so the state stays consistent.
    Public facts of a pending suggestion (who showed, who passed) are kept by resampling."""
    for _ in range(50):
        t = E.state_from_json(E.state_to_json(s))
        t["seed"] = rng.randrange(10**9)
        slots = []  # (container, index)
        for p in range(3):
            if p != seat and t["active"][p]:
                slots += [(t["hands"][p], i) for i in range(len(t["hands"][p]))]
        solution = t["phase"] != "over" and t["culprit"] is not None
        if solution:
            holder = [f"c{t['culprit']}", f"p{t['location']}"]
            slots += [(holder, 0), (holder, 1)]
        by_kind = {}
        for slot in slots:
            by_kind.setdefault(_kind(slot[0][slot[1]]), []).append(slot)
        for group in by_kind.values():
            values = [c[i] for c, i in group]
            rng.shuffle(values)
            for (c, i), v in zip(group, values):
                c[i] = v
        if solution:
            t["culprit"], t["location"] = int(holder[0][1:]), int(holder[1][1:])
        t["hands"] = [sorted(h, key=data.CARD_ORDER.__getitem__) for h in t["hands"]]
        new_log = []
        for e in t["log"]:
            if "secret" in e and seat not in e["seen_by"]:
                e = dict(e, secret={k: _random_like(v, rng) for k, v in e["secret"].items()})
            new_log.append(e)
        t["log"] = new_log
        if t["phase"] == "show":
            from engines.mipolin.engine import _matching
            if not _matching(t, t["shower"]) or any(_matching(t, p) for p in t["pending"]["passed"]):
                continue
        E.check_invariants(t)
        return t
    return None


def _random_like(value, rng):
    if isinstance(value, int):
        return rng.randint(1, 9)
    return rng.choice([c for c in data.ALL_CARDS if _kind(c) == _kind(value)])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), opt=st.sampled_from(OPTION_SETS),
       viewer=st.sampled_from([None, 0, 1, 2]), salt=st.integers(0, 10**6))
def test_nothing_observed_depends_on_hidden_information(seed, steps, opt, viewer, salt):
    s = _random_point(seed, steps, opt)
    rng = random.Random(salt)
    for _ in range(3):
        t = perturb(s, viewer, rng)
        if t is not None:
            assert _observed(t, viewer) == _observed(s, viewer)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), opt=st.sampled_from(OPTION_SETS))
def test_private_log_details_reach_only_the_seats_the_rules_name(seed, steps, opt):
    s = _random_point(seed, steps, opt)
    for viewer in (None, 0, 1, 2):
        assert log_leaks(E.view(s, viewer)["log"], viewer, LOG_RULES, "kind", marker={"private"}) == []
    for viewer in (0, 1, 2):  # a player who is out gets the public view (but for their own check)
        if s["phase"] != "over" and not s["active"][viewer]:
            public = E.view(s, None)["log"]
            differing = [e for e, p in zip(E.view(s, viewer)["log"], public) if e != p]
            assert all(e["kind"] == "accuse" and e["seat"] == viewer for e in differing), differing


def test_the_log_check_catches_a_secret_shown_to_the_wrong_seat():
    s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 3))
    s = act(s, 0, type="reveal", card="p4")  # seat 0 moves onto seat 1's area: they exchange
    assert s["log"][-1]["kind"] == "exchange"
    widened = E.state_from_json(E.state_to_json(s))
    widened["log"][-1]["seen_by"] = [0, 1, 2]
    assert log_leaks(E.view(widened, 2)["log"], 2, LOG_RULES, "kind", marker={"private"})
    public = E.state_from_json(E.state_to_json(s))
    public["log"][-1]["got"] = public["log"][-1]["secret"]["a_got"]
    assert log_leaks(E.view(public, None)["log"], None, LOG_RULES, "kind", marker={"private"})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 90), opt=st.sampled_from(OPTION_SETS))
def test_spectator_view_holds_no_private_data(seed, steps, opt):
    s = _random_point(seed, steps, opt)
    v = E.view(s, None)
    assert v["hand"] is None
    if s["phase"] != "over":
        assert v["solution"] is None
    for e in v["log"]:
        assert "private" not in e and "seen_by" not in e and "secret" not in e
        assert not {"a_got", "b_got", "card", "culprit", "location"} & set(e) or e["kind"] in ("reveal", "game_over")


def test_perturbation_really_changes_hidden_information():
    """Guard against a test that cannot fail: the perturbation moves hidden cards, so a view that
    leaked another hand or the solution would differ."""
    s = make(dealer=2)
    rng = random.Random(1)
    changed_hands = changed_solution = False
    for _ in range(30):
        t = perturb(s, 0, rng)
        changed_hands |= t["hands"][1:] != s["hands"][1:]
        changed_solution |= (t["culprit"], t["location"]) != (s["culprit"], s["location"])
        assert t["hands"][0] == s["hands"][0]
    assert changed_hands and changed_solution
    leaky = lambda state: json.dumps(state["hands"])  # noqa: E731
    assert any(leaky(perturb(s, 0, rng)) != leaky(s) for _ in range(5))


def test_exchange_cards_hidden_from_the_third_player():
    s = make(hands={0: ["p4"]}, dealer=2, areas=(1, 4, 3))
    s = act(s, 0, type="reveal", card="p4")
    rng = random.Random(3)
    for viewer in (2, None):
        for _ in range(10):
            assert view_json(E, perturb(s, viewer, rng), viewer) == view_json(E, s, viewer)
    # the two players of the exchange do see a difference when their exchange's cards change
    ex = s["log"][-1]
    t = E.state_from_json(E.state_to_json(s))
    t["log"][-1] = dict(ex, secret={"a_got": ex["secret"]["b_got"], "b_got": ex["secret"]["a_got"]})
    for viewer in (0, 1):
        assert view_json(E, t, viewer) != view_json(E, s, viewer)
    assert view_json(E, t, 2) == view_json(E, s, 2)


def test_shown_card_hidden_from_the_third_player():
    s = make(hands={0: ["p1"], 1: ["c6", "p3"]}, dealer=2, opts={"suggestions": True}, areas=(5, 2, 3))
    s = act(s, 0, type="reveal", card="p1")
    s = act(s, 0, type="suggest", character=6, place=3)
    shown_c6 = act(s, 1, type="show", card="c6")
    shown_p3 = act(s, 1, type="show", card="p3")
    assert view_json(E, shown_c6, 2) == view_json(E, shown_p3, 2)
    assert view_json(E, shown_c6, None) == view_json(E, shown_p3, None)
    for viewer in (0, 1):
        assert view_json(E, shown_c6, viewer) != view_json(E, shown_p3, viewer)
    # while the shower chooses, the asker and the third see nothing of the shower's options
    rng = random.Random(5)
    for viewer in (0, 2, None):
        t = perturb(s, viewer, rng)
        if t is not None:
            assert view_json(E, t, viewer) == view_json(E, s, viewer)


def test_accusation_check_hidden_from_others():
    a = make(dealer=2, phase="accuse", culprit=5, location=9, hands={2: ["c6", "p8"]})
    b = E.state_from_json(E.state_to_json(a))
    b["culprit"], b["location"] = 6, 8
    b["hands"][2] = sorted(["c5", "p9", *[c for c in a["hands"][2] if c not in ("c6", "p8")]],
                           key=data.CARD_ORDER.__getitem__)
    E.check_invariants(b)
    # same public position except the solution and seat 2's hand; seat 0 accuses wrongly in both
    a2 = act(a, 0, type="accuse", character=7, place=7)
    b2 = act(b, 0, type="accuse", character=7, place=7)
    assert view_json(E, a2, 1) == view_json(E, b2, 1)
    assert view_json(E, a2, None) == view_json(E, b2, None)
    assert view_json(E, a2, 0) != view_json(E, b2, 0)
