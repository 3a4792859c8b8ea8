"""Synomilia scenario tests: each rule and ruling of static/rules/synomilia.html from
hand-built positions, with exact expected results."""

from __future__ import annotations

import json
import random

import pytest

import engines
from engines import SYSTEM, IllegalAction, InvalidAction
from engines.playout import play
from tests.engines.observe import view_json

E = engines.get("synomilia")


def position(**fields):
    """A state built from a fresh game's JSON with ``fields`` replaced (hand-built positions).
    If ``available`` is given without ``history``, matching past bouts are made up."""
    data = E.state_to_json(E.new_game(2, 0))
    if "available" in fields and "history" not in fields:
        fields["history"] = _history_for(fields["available"])
    data.update(fields)
    state = E.state_from_json(data)
    E.check_invariants(state)
    return state


def playing(cards=(3, 5), start=0, turn=None, chips=(15, 15), pile="", markers=(False, False),
            plays=(), last_actor=None, available=None, **extra):
    """A position in the play phase."""
    return position(phase="play", start=start, turn=start if turn is None else turn,
                    predictions=list(cards), chips=list(chips), pile=pile, markers=list(markers),
                    plays=[list(p) for p in plays], last_actor=last_actor,
                    available=available or [list(range(10)), list(range(10))], **extra)


def run(state, *steps):
    """Apply (seat, action) steps; returns the final state."""
    for seat, action in steps:
        state = E.apply(state, seat, action)
        E.check_invariants(state)
    return state


PASS = {"type": "pass"}
SUN = {"type": "stack", "face": "sun"}
MOON = {"type": "stack", "face": "moon"}
REVEAL = {"type": "reveal"}


def change(card):
    return {"type": "change", "card": card}


# ---------------------------------------------------------------- setup
def test_new_game_setup():
    state = E.new_game(2, 11)
    v = E.view(state, None)
    assert v["chips"] == [15, 15]
    assert v["pile"] == [] and v["markers"] == ["sun", "sun"]
    assert v["available"] == [list(range(10))] * 2 and v["used"] == [[], []]
    assert v["phase"] == "predict" and v["bout"] == 1
    assert E.awaiting(state) == frozenset({0, 1})
    assert E.outcome(state) is None


def test_start_player_comes_from_the_seed():
    starts = {seed: E.new_game(2, seed).start for seed in range(40)}
    assert set(starts.values()) == {0, 1}
    assert all(E.new_game(2, seed).start == s for seed, s in starts.items())
    assert starts == {seed: random.Random(seed).randrange(2) for seed in range(40)}


def test_only_two_players_and_options_are_validated():
    with pytest.raises(ValueError):
        E.new_game(3, 0)
    with pytest.raises(InvalidAction):
        E.new_game(2, 0, {"reveal_delay": -1})
    with pytest.raises(InvalidAction):
        E.new_game(2, 0, {"no_such_option": 1})
    assert E.new_game(2, 0).options == {"reveal_delay": 3, "turn_seconds": 30}


# ---------------------------------------------------------------- predictions
def test_predictions_are_simultaneous_and_secret():
    state = E.new_game(2, 0)
    assert sorted(a["card"] for a in E.legal_actions(state, 0)) == list(range(10))
    before1 = view_json(E, state, 1)
    spectator = view_json(E, state, None)
    state = E.apply(state, 0, {"type": "predict", "card": 4})
    assert E.awaiting(state) == frozenset({1})
    assert E.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        E.apply(state, 0, {"type": "predict", "card": 5})
    assert E.view(state, 0)["my_prediction"] == 4
    v1 = E.view(state, 1)
    assert v1["my_prediction"] is None and v1["predicted"] == [True, False]
    assert v1["reveal"] is None
    # the other card choice gives the same view for seat 1 and the spectator
    other = E.apply(E.new_game(2, 0), 0, {"type": "predict", "card": 7})
    assert view_json(E, other, 1) == view_json(E, state, 1)
    assert view_json(E, other, None) == view_json(E, state, None)
    assert before1 != view_json(E, state, 1)  # "has predicted" is public
    state = E.apply(state, 1, {"type": "predict", "card": 2})
    assert state.phase == "play" and E.awaiting(state) == frozenset({state.start})
    assert spectator != view_json(E, state, None)


def test_prediction_must_be_an_available_card():
    state = position(available=[[3, 4, 9], list(range(10))])
    assert [a["card"] for a in E.legal_actions(state, 0)] == [3, 4, 9]
    with pytest.raises(IllegalAction, match="not available"):
        E.apply(state, 0, {"type": "predict", "card": 0})


def test_turns_start_with_the_start_player_and_alternate():
    state = position(start=1)
    state = run(state, (1, {"type": "predict", "card": 1}), (0, {"type": "predict", "card": 2}))
    assert E.awaiting(state) == frozenset({1})
    state = E.apply(state, 1, SUN)
    assert E.awaiting(state) == frozenset({0})
    with pytest.raises(IllegalAction, match="not awaited"):
        E.apply(state, 1, SUN)


# ---------------------------------------------------------------- plays
def test_stack_moves_one_own_chip_to_the_pile_with_chosen_face():
    state = run(playing(), (0, MOON), (1, SUN))
    assert state.chips == (14, 14)
    assert E.view(state, None)["pile"] == ["moon", "sun"]
    assert state.last_actor == 1


def test_stack_needs_a_chip():
    state = playing(chips=(0, 30))
    assert E.legal_actions(state, 0) == [PASS]
    with pytest.raises(IllegalAction, match="no chips"):
        E.apply(state, 0, SUN)


def test_change_gives_a_chip_flips_marker_once_per_bout():
    state = playing(cards=(3, 5))
    legal = E.legal_actions(state, 0)
    assert [a["card"] for a in legal if a["type"] == "change"] == list(range(10))
    state = E.apply(state, 0, change(8))
    assert state.predictions == (8, 5)
    assert state.chips == (14, 16)
    assert state.markers == (True, False)
    assert E.view(state, None)["markers"] == ["moon", "sun"]
    state = E.apply(state, 1, SUN)
    assert not any(a["type"] == "change" for a in E.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="already changed"):
        E.apply(state, 0, change(2))


def test_change_to_the_same_card_is_a_bluff_and_costs_the_same():
    state = E.apply(playing(cards=(3, 5)), 0, change(3))
    assert state.predictions == (3, 5) and state.chips == (14, 16) and state.markers == (True, False)


def test_change_needs_a_chip_ruling():
    state = playing(chips=(0, 30))
    with pytest.raises(IllegalAction, match="needs a chip"):
        E.apply(state, 0, change(4))


def test_change_only_to_available_cards():
    state = playing(cards=(3, 5), available=[[3, 4, 9], list(range(10))])
    assert [a["card"] for a in E.legal_actions(state, 0) if a["type"] == "change"] == [3, 4, 9]
    with pytest.raises(IllegalAction, match="not available"):
        E.apply(state, 0, change(7))


def test_swap_and_bluff_look_identical_to_the_opponent():
    base = playing(cards=(3, 5))
    swap = E.apply(base, 0, change(6))
    bluff = E.apply(base, 0, change(3))
    assert view_json(E, swap, 1) == view_json(E, bluff, 1)
    assert view_json(E, swap, None) == view_json(E, bluff, None)
    assert view_json(E, swap, 0) != view_json(E, bluff, 0)  # the owner knows
    # and so after the bout ends, until the SYSTEM reveal
    swap = run(swap, (1, PASS), (0, PASS))
    bluff = run(bluff, (1, PASS), (0, PASS))
    assert swap.phase == "reveal"
    assert view_json(E, swap, 1) != view_json(E, bluff, 1)  # seat 0 made the last action: its card is shown first
    assert E.view(swap, 1)["reveal"]["cards"] == [6, None]
    assert E.view(bluff, 1)["reveal"]["cards"] == [3, None]


def test_pass_changes_nothing_but_the_turn():
    state = E.apply(playing(), 0, PASS)
    assert state.chips == (15, 15) and state.pile == "" and state.turn == 1 and state.phase == "play"


# ---------------------------------------------------------------- bout end
def test_bout_ends_when_pile_holds_nine():
    state = playing(pile="ssssssss", chips=(11, 11))
    state = E.apply(state, 0, SUN)
    assert state.phase == "reveal" and state.end_condition == "pile_full"
    assert E.awaiting(state) == frozenset({SYSTEM})


def test_bout_ends_after_two_passes():
    state = run(playing(), (0, SUN), (1, PASS))
    assert state.phase == "play"
    state = E.apply(state, 0, PASS)
    assert state.phase == "reveal" and state.end_condition == "two_passes"


def test_bout_ends_when_a_moon_stack_is_followed_by_a_pass():
    state = run(playing(), (0, MOON), (1, PASS))
    assert state.phase == "reveal" and state.end_condition == "moon_then_pass"


def test_sun_stack_then_pass_does_not_end():
    state = run(playing(), (0, SUN), (1, PASS))
    assert state.phase == "play" and state.turn == 0


def test_moon_stack_then_change_then_pass_does_not_end():
    state = run(playing(), (0, MOON), (1, change(4)), (0, PASS))
    assert state.phase == "play"


def test_moon_then_sun_postpones():
    state = run(playing(), (0, MOON), (1, SUN), (0, PASS))
    assert state.phase == "play"


def test_change_then_pass_does_not_end_but_two_passes_do():
    state = run(playing(), (0, change(3)), (1, PASS))
    assert state.phase == "play"
    state = E.apply(state, 0, PASS)
    assert state.phase == "reveal" and state.end_condition == "two_passes"


# ---------------------------------------------------------------- reveal order and delay
def test_last_actor_reveals_first_then_system_reveals_the_other():
    state = run(playing(cards=(3, 5), start=0), (0, SUN), (1, MOON), (0, PASS))
    assert state.first_revealer == 1
    for seat in (0, 1, None):
        v = E.view(state, seat)
        assert v["reveal"]["cards"] == [None, 5]
        assert v["reveal"]["first_revealer"] == 1
    assert E.view(state, 1)["my_prediction"] == 5
    assert E.view(state, 0)["my_prediction"] == 3  # own card, known anyway
    assert E.legal_actions(state, SYSTEM) == [REVEAL]
    assert E.legal_actions(state, 0) == [] and E.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        E.apply(state, 0, REVEAL)
    with pytest.raises(IllegalAction):
        E.apply(state, SYSTEM, PASS)
    after = E.apply(state, SYSTEM, REVEAL)
    assert E.view(after, None)["last_bout"]["cards"] == [3, 5]


def test_change_counts_as_the_last_action_for_reveal_order():
    state = run(playing(start=0), (0, SUN), (1, change(2)), (0, PASS), (1, PASS))
    assert state.first_revealer == 1


def test_no_action_means_start_player_reveals_first():
    state = run(playing(cards=(3, 5), start=1, turn=1), (1, PASS), (0, PASS))
    assert state.first_revealer == 1
    assert E.view(state, 0)["reveal"]["cards"] == [None, 5]


def test_two_passes_on_an_empty_pile_let_the_start_player_reveal_first_even_after_a_change():
    # The original: 「場にチップが積まれていない状態で連続してパスを行った場合はスタートプレイヤーが
    # 先に数字のカードを表にします」 — the pile is empty, so the changer (the last actor) does not.
    for start in (0, 1):
        other = 1 - start
        state = run(playing(cards=(3, 5), start=start), (start, PASS), (other, change(4)),
                    (start, PASS), (other, PASS))
        assert state.phase == "reveal" and state.end_condition == "two_passes" and state.pile == ""
        assert state.last_actor == other and state.first_revealer == start
        revealed = [None, None]
        revealed[start] = state.predictions[start]
        for seat in (0, 1, None):
            assert E.view(state, seat)["reveal"]["first_revealer"] == start
            assert E.view(state, seat)["reveal"]["cards"] == revealed
        # the changer's card stays hidden from the start player until the SYSTEM step
        assert E.view(state, start)["reveal"]["cards"][other] is None
        assert E.view(E.apply(state, SYSTEM, REVEAL), None)["last_bout"]["first_revealer"] == start
    # a change first, then two passes: the start player reveals first too
    state = run(playing(start=0), (0, change(2)), (1, PASS), (0, PASS))
    assert state.last_actor == 0 and state.first_revealer == 0
    state = run(playing(start=1, turn=1), (1, change(2)), (0, PASS), (1, PASS))
    assert state.last_actor == 1 and state.first_revealer == 1
    state = run(playing(start=0), (0, PASS), (1, change(2)), (0, PASS), (1, PASS))
    assert state.first_revealer == 0


def test_second_card_in_no_view_before_the_system_step():
    a = run(playing(cards=(3, 5)), (0, SUN), (1, PASS), (0, MOON), (1, PASS))
    b = run(playing(cards=(3, 8)), (0, SUN), (1, PASS), (0, MOON), (1, PASS))
    assert a.first_revealer == 0
    for seat in (0, None):
        assert view_json(E, a, seat) == view_json(E, b, seat)


def test_delay_is_the_room_option():
    state = run(playing(), (0, PASS), (1, PASS))
    assert E.delay(state) == 3.0
    for value in (0, 10, 2.5):
        opts = dict(state.options, reveal_delay=value)
        s = E.state_from_json(dict(E.state_to_json(state), options=opts))
        assert E.delay(s) == float(value)
        assert E.view(s, None)["reveal"]["delay"] == float(value)
    assert E.delay(playing()) == 0.0
    E.new_game(2, 0, {"reveal_delay": 0})  # 0 allowed


# ---------------------------------------------------------------- who wins
def resolve(cards, pile="", start=0, chips=None, last_actor=None, plays=None):
    """A position in the reveal phase after a bout; returns the state after the SYSTEM reveal."""
    n = len(pile)
    chips = chips or (15 - n // 2, 15 - (n - n // 2))
    if plays is None:
        plays = [[start, "pass"], [1 - start, "pass"]]
    state = position(phase="reveal", start=start, turn=None, predictions=list(cards), chips=list(chips),
                     pile=pile, plays=plays, last_actor=last_actor, end_condition="two_passes",
                     first_revealer=start if not pile or last_actor is None else last_actor)
    return E.apply(state, SYSTEM, REVEAL)


def test_closer_prediction_wins():
    after = resolve((2, 7), pile="sssss", last_actor=1)
    lb = E.view(after, None)["last_bout"]
    assert lb["winner"] == 1 and lb["reason"] == "closer" and lb["count"] == 5


def test_exact_hit_wins():
    after = resolve((4, 9), pile="ssss", last_actor=1)
    lb = E.view(after, None)["last_bout"]
    assert lb["winner"] == 0 and lb["reason"] == "exact"


def test_tie_with_empty_pile_start_player_wins():
    after = resolve((2, 2), pile="", start=1)
    lb = E.view(after, None)["last_bout"]
    assert lb["winner"] == 1 and lb["reason"] == "tie_zero_start"
    # even when the other made the last action (a change)
    after = resolve((1, 1), pile="", start=1, last_actor=0, chips=(14, 16),
                    plays=[[1, "pass"], [0, "change"], [1, "pass"], [0, "pass"]])
    assert E.view(after, None)["last_bout"]["winner"] == 1


def test_tie_otherwise_last_actor_loses():
    after = resolve((2, 6), pile="ssss", start=0, last_actor=0)
    lb = E.view(after, None)["last_bout"]
    assert lb["winner"] == 1 and lb["reason"] == "tie_last_actor"
    after = resolve((5, 5), pile="sss", start=1, last_actor=1)
    assert E.view(after, None)["last_bout"]["winner"] == 0


# ---------------------------------------------------------------- payout
def test_worked_example_twelve_chips():
    # pile of 7 with 3 moons, winner holds 2+ chips: 0 + 0 + 3 + 2 + 7 = 12
    after = resolve((7, 2), pile="msmsmss", chips=(10, 13), last_actor=0)
    lb = E.view(after, None)["last_bout"]
    assert lb["winner"] == 0
    assert [(line["step"], line["due"], line["paid"]) for line in lb["payout"]] == [
        ("winner_had_0", 0, 0), ("winner_had_1", 0, 0), ("moons", 3, 3), ("base", 2, 2), ("pile", 7, 7)]
    assert lb["received"] == 12
    assert after.chips == (22, 8)
    assert after.pile == ""


def test_winner_with_zero_chips_gets_five_first():
    after = resolve((5, 0), pile="sssms", chips=(0, 25), last_actor=0)
    assert after.chips == (0 + 5 + 1 + 2 + 5, 25 - 8)
    lb = E.view(after, None)["last_bout"]
    assert lb["winner_held"] == 0 and lb["payout"][0]["paid"] == 5 and lb["payout"][1]["due"] == 0


def test_winner_with_one_chip_gets_two():
    after = resolve((2, 8), pile="ss", chips=(1, 27), last_actor=1)
    assert after.chips == (1 + 2 + 0 + 2 + 2, 27 - 4)
    lb = E.view(after, None)["last_bout"]
    assert [line["paid"] for line in lb["payout"]] == [0, 2, 0, 2, 2]


def test_loser_pays_only_what_they_can_in_order():
    # winner 0 holds 0 chips; loser holds 6: 5 (zero bonus), then 1 of 4 moons, then 0 of 2
    after = resolve((9, 0), pile="mmmmsssss", chips=(0, 21), last_actor=0)
    assert after.chips == (0 + 5 + 4 + 2 + 9, 21 - 11)
    after = resolve((9, 0), pile="mmmmsssss", chips=(15, 6), last_actor=0)
    lb = E.view(after, None)["last_bout"]
    assert [(line["due"], line["paid"]) for line in lb["payout"]] == [(0, 0), (0, 0), (4, 4), (2, 2), (9, 9)]
    after = resolve((9, 0), pile="mmmmsssss", chips=(18, 3), last_actor=0)
    lb = E.view(after, None)["last_bout"]
    assert [(line["due"], line["paid"]) for line in lb["payout"]] == [(0, 0), (0, 0), (4, 3), (2, 0), (9, 9)]
    assert after.chips == (30, 0)
    after = resolve((9, 0), pile="mmmmsssss", chips=(0, 21), last_actor=0)
    lb = E.view(after, None)["last_bout"]
    assert [(line["due"], line["paid"]) for line in lb["payout"]] == [(5, 5), (0, 0), (4, 4), (2, 2), (9, 9)]


def test_zero_and_one_chip_conditions_look_at_holding_before_payout():
    # winner holds 0: gets 5 (now 5), the "holds 1" step must not trigger afterwards
    after = resolve((0, 5), pile="", chips=(0, 30), start=0)
    lb = E.view(after, None)["last_bout"]
    assert [line["paid"] for line in lb["payout"]] == [5, 0, 0, 2, 0]
    assert after.chips == (7, 23)


# ---------------------------------------------------------------- used cards, next bout, game end
def test_revealed_cards_are_used_except_the_nine():
    after = resolve((9, 4), pile="ssss", last_actor=0)
    assert after.available == (tuple(range(10)), (0, 1, 2, 3, 5, 6, 7, 8, 9))
    v = E.view(after, None)
    assert v["used"] == [[], [4]]
    assert v["history"] == [{"bout": 1, "cards": [9, 4], "count": 4, "winner": 1, "reason": "exact"}]


def test_next_bout_winner_starts_markers_reset():
    state = run(playing(cards=(3, 1), start=0), (0, change(2)), (1, SUN), (0, PASS), (1, PASS))
    assert state.phase == "reveal"
    after = E.apply(state, SYSTEM, REVEAL)
    assert after.phase == "predict" and after.bout == 2
    assert after.start == 1  # pile 1, seat 1 predicted 1 exactly
    assert after.markers == (False, False) and after.pile == "" and after.predictions == (None, None)
    assert E.awaiting(after) == frozenset({0, 1})
    assert after.available == ((0, 1, 3, 4, 5, 6, 7, 8, 9), (0, 2, 3, 4, 5, 6, 7, 8, 9))


def test_game_ends_when_a_player_holds_no_chips():
    after = resolve((9, 0), pile="mmmmsssss", chips=(18, 3), last_actor=0)
    assert after.phase == "over" and E.awaiting(after) == frozenset()
    out = E.outcome(after)
    assert out["ranks"] == [0, 1] and out["scores"] == [30, 0]
    assert "P2 holds no chips" in out["reason"]
    assert E.view(after, 1)["result"]["winner"] == 0


def test_game_ends_at_two_available_cards():
    avail = [[0, 1, 9], list(range(10))]
    state = position(phase="reveal", start=0, predictions=[1, 5], chips=[15, 15], pile="",
                     plays=[[0, "pass"], [1, "pass"]], end_condition="two_passes", first_revealer=0,
                     available=avail)
    after = E.apply(state, SYSTEM, REVEAL)
    assert after.available[0] == (0, 9)
    assert after.phase == "over" and after.game_end == {"code": "few_cards", "seat": 0, "cards": 2}


def test_game_continues_at_three_cards_and_nine_keeps_count():
    avail = [[0, 1, 9], list(range(10))]
    state = position(phase="reveal", start=0, predictions=[9, 5], chips=[15, 15], pile="",
                     plays=[[0, "pass"], [1, "pass"]], end_condition="two_passes", first_revealer=0,
                     available=avail)
    after = E.apply(state, SYSTEM, REVEAL)
    assert after.available[0] == (0, 1, 9) and after.phase == "predict"


def _history_for(available):
    """Made-up past bouts (payout-free) that used exactly the cards missing from ``available``."""
    used = [[c for c in range(9) if c not in a] for a in available]
    bouts = max(len(u) for u in used)
    used = [u + [9] * (bouts - len(u)) for u in used]
    return [{"bout": i + 1, "cards": [used[0][i], used[1][i]], "pile": "", "count": 0, "moons": 0,
             "start_player": 0, "last_actor": None, "first_revealer": 0, "end_condition": "two_passes",
             "winner": 0, "reason": "tie_zero_start", "winner_held": 15,
             "payout": [{"step": s, "due": 0, "paid": 0, "from": "loser"} for s in
                        ("winner_had_0", "winner_had_1", "moons", "base", "pile")],
             "chips_after": [15, 15], "plays": []} for i in range(bouts)]


def test_equal_chips_is_a_draw():
    state = position(phase="over", chips=[15, 15], game_end={"code": "few_cards", "seat": 1, "cards": 2})
    out = E.outcome(state)
    assert out["ranks"] == [0, 0] and out["scores"] == [15, 15] and "Draw" in out["reason"]
    assert E.view(state, None)["result"]["draw"] is True


# ---------------------------------------------------------------- input checking
@pytest.mark.parametrize("bad", [None, 3, "pass", [], {}, {"type": "nope"}, {"type": "stack"},
                                 {"type": "stack", "face": "star"}, {"type": "change"},
                                 {"type": "change", "card": "3"}, {"type": "change", "card": 10},
                                 {"type": "change", "card": True}, {"type": "predict", "card": -1}])
def test_malformed_actions_are_invalid(bad):
    with pytest.raises(InvalidAction):
        E.apply(playing(), 0, bad)


def test_wrong_seat_and_phase_are_illegal_not_invalid():
    state = playing(turn=0)
    for seat, action in [(1, PASS), (SYSTEM, PASS), (0, REVEAL), (0, {"type": "predict", "card": 1})]:
        with pytest.raises(IllegalAction) as info:
            E.apply(state, seat, action)
        assert not isinstance(info.value, InvalidAction)


def test_apply_does_not_mutate():
    state = playing()
    before = E.state_to_json(state)
    run(state, (0, change(1)), (1, MOON), (0, PASS), (SYSTEM, REVEAL))
    assert E.state_to_json(state) == before


# ---------------------------------------------------------------- clocks
def test_clock_defaults_to_30_seconds_and_0_turns_it_off():
    state = E.new_game(2, 0, {"turn_seconds": 0})
    assert E.clock_seconds(state, 0) is None
    state = E.new_game(2, 0)
    assert E.clock_seconds(state, 0) == 30.0 and E.clock_seconds(state, 1) == 30.0
    assert E.clock_seconds(state, SYSTEM) is None
    p = position(phase="play", start=0, turn=0, predictions=[1, 5],
                 options={"reveal_delay": 3, "turn_seconds": 30})
    assert E.clock_seconds(p, 0) == 30.0 and E.clock_seconds(p, 1) is None


def test_timeout_in_play_is_a_pass_applied_by_system():
    p = position(phase="play", start=0, turn=0, predictions=[1, 5], pile="m", chips=[15, 14],
                 plays=[[1, "moon"]], last_actor=1, options={"reveal_delay": 3, "turn_seconds": 30})
    action = E.on_timeout(p, 0)
    assert action == {"type": "timeout", "seat": 0}
    assert action not in E.legal_actions(p, SYSTEM) and action not in E.legal_actions(p, 0)
    with pytest.raises(IllegalAction, match="server only"):
        E.apply(p, 0, action)
    with pytest.raises(IllegalAction, match="not awaited"):
        E.apply(p, SYSTEM, {"type": "timeout", "seat": 1})
    with pytest.raises(IllegalAction):
        E.on_timeout(p, 1)
    after = E.apply(p, SYSTEM, action)
    assert after.phase == "reveal" and after.end_condition == "moon_then_pass"  # it was a pass
    assert after.plays[-1] == (0, "pass")


def test_timeout_needs_a_clock():
    p = position(phase="play", start=0, turn=0, predictions=[1, 5], options={"reveal_delay": 3, "turn_seconds": 0})
    with pytest.raises(IllegalAction, match="no clock"):
        E.apply(p, SYSTEM, {"type": "timeout", "seat": 0})
    with pytest.raises(InvalidAction):
        E.apply(p, SYSTEM, {"type": "timeout", "seat": 7})


def test_timeout_prediction_is_seeded_random_not_fixed():
    picks = set()
    for seed in range(30):
        state = E.new_game(2, seed, {"turn_seconds": 10})
        state = E.apply(state, 1, {"type": "predict", "card": 0})
        after = E.apply(state, SYSTEM, E.on_timeout(state, 0))
        again = E.apply(state, SYSTEM, E.on_timeout(state, 0))
        assert after.predictions[0] == again.predictions[0] in range(10)
        picks.add(after.predictions[0])
    assert len(picks) >= 5


# ---------------------------------------------------------------- invariants, serialisation
def test_invariants_catch_lost_chips():
    with pytest.raises(AssertionError):
        E.check_invariants(E.state_from_json(dict(E.state_to_json(playing()), chips=[15, 14])))
    with pytest.raises(AssertionError):
        E.check_invariants(E.state_from_json(dict(E.state_to_json(playing()), pile="s" * 10, chips=[10, 10])))
    with pytest.raises(AssertionError):
        E.check_invariants(E.state_from_json(dict(E.state_to_json(playing()), available=[list(range(9)), list(range(10))])))


def test_chips_total_thirty_through_whole_games():
    for seed in range(30):
        def check(before, seat, action, after):
            assert sum(after.chips) + len(after.pile) == 30
        result = play(E, 2, seed, on_step=check)
        assert sum(result.state.chips) == 30
        assert E.outcome(result.state) is not None


def test_json_round_trip_mid_game():
    result = play(E, 2, 99)
    state = E.new_game(2, 99)
    for seat, action in result.log:
        state = E.apply(state, seat, action)
        data = E.state_to_json(state)
        assert E.state_to_json(E.state_from_json(json.loads(json.dumps(data)))) == data


# ---------------------------------------------------------------- what the table needs
def test_view_has_public_table_state_and_bout_explanation():
    state = run(playing(cards=(2, 6), start=1, turn=1), (1, MOON), (0, change(2)), (1, SUN), (0, PASS), (1, PASS))
    v = E.view(state, 0)
    assert v["phase"] == "reveal" and v["start_player"] == 1 and v["markers"] == ["moon", "sun"]
    assert v["pile"] == ["moon", "sun"] and v["pile_count"] == 2 and v["pile_moons"] == 1
    assert v["chips"] == [14, 14]
    assert [(p["seat"], p["type"], p.get("face")) for p in v["plays"]] == [
        (1, "stack", "moon"), (0, "change", None), (1, "stack", "sun"), (0, "pass", None), (1, "pass", None)]
    assert v["reveal"]["first_revealer"] == 1 and v["reveal"]["end_condition"] == "two_passes"
    after = E.apply(state, SYSTEM, REVEAL)
    lb = E.view(after, 1)["last_bout"]
    assert lb["cards"] == [2, 6] and lb["count"] == 2 and lb["winner"] == 0 and lb["loser"] == 1
    assert lb["reason"] == "exact"
    assert lb["first_revealer"] == 1 and lb["end_condition"] == "two_passes"
    assert [(x["step"], x["paid"]) for x in lb["payout"]] == [
        ("winner_had_0", 0), ("winner_had_1", 0), ("moons", 1), ("base", 2), ("pile", 2)]
    assert lb["payout"][2] == {"step": "moons", "due": 1, "paid": 1, "from": "loser"}
    assert lb["received"] == 5 and lb["chips_after"] == [19, 11] == list(after.chips)
    assert E.view(after, 1)["used"] == [[2], [6]]

