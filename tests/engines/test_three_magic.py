"""Three Magic scenario tests: each rule and ruling of static/rules/three_magic.html from
hand-built positions, with exact expected results."""

from __future__ import annotations

import json
import random

import pytest

import engines
from engines import SYSTEM, IllegalAction, InvalidAction
from engines.playout import play
from engines.three_magic import data
from engines.three_magic import spells as sp

E = engines.get("three_magic")
EL = {"fi": 0, "wo": 1, "wa": 2}
FIRE, WOOD, WATER = 0, 1, 2


# ---------------------------------------------------------------- builders
class Alloc:
    """Hands out distinct card ids for specs like "fi3" (any copy), "fi3*" (starred), "fi3." (no star)."""

    def __init__(self):
        self.used = set()

    def __call__(self, spec: str) -> int:
        el, n, mark = EL[spec[:2]], int(spec[2]), spec[3:]
        copies = {"*": [0, 1, 2], ".": [3] if n else [0, 1, 2, 3], "": [0, 1, 2, 3]}[mark]
        for c in copies:
            card = el * 20 + n * 4 + c
            if card not in self.used:
                self.used.add(card)
                return card
        raise AssertionError(f"no copy left for {spec}")

    def many(self, specs: str) -> list[int]:
        return [self(x) for x in specs.split()]


def position(hands, *, phase="discard", turn=0, drawn=None, melds=None, elements=(FIRE, WOOD, WATER),
             dealer=0, od=(270, 270, 270), pot=0, pile=None, indicators=("wa4",), riichi=(False,) * 3,
             discards=None, passes=0, short_game=False, no_ron=(False,) * 3, call=None, check=True):
    """A hand-built state. Hands/melds are spec strings; the rest of the 60 cards fill the spare (4)
    and the pile (``pile`` specs are put on top, drawn first). Table od is derived from melds and
    riichi discards."""
    a = Alloc()
    st = E.state_to_json(E.new_game(3, 0, {"short_game": short_game}))
    ind = [[a(spec), by] for spec, by in ((i, -1) if isinstance(i, str) else i for i in indicators)]
    st["hands"] = [a.many(h) for h in hands]
    st["melds"] = [[], [], []]
    for seat, ms in enumerate(melds or [[], [], []]):
        for spec, price, frm in ms:
            st["melds"][seat].append(a.many(spec) + [price, frm])
    st["discards"] = [[], [], []]
    for seat, ds in enumerate(discards or [[], [], []]):
        for spec, rod, taken in ds:
            st["discards"][seat].append([a(spec), rod, taken])
    drawn_card = a(drawn) if drawn else None
    top = a.many(pile) if pile else []
    rest = [c for c in range(60) if c not in a.used]
    st["spare"] = rest[:4]
    st["pile"] = rest[4:] + list(reversed(top))
    st["indicators"] = ind
    st.update(phase=phase, turn=turn, drawn=drawn_card, elements=list(elements), dealer=dealer,
              first_dealer=list(elements).index(FIRE), od=list(od), pot=pot, riichi=list(riichi),
              pledged=[len(m) for m in st["melds"]], passes=passes, no_ron=list(no_ron), call=call,
              inserted=None, last_result=None)
    st["table_od"] = sum(m[3] for ms in st["melds"] for m in ms) + sum(d[1] for ds in st["discards"] for d in ds)
    assert sum(st["od"]) + st["table_od"] + pot == 810 or not check, "position breaks od conservation"
    state = E.state_from_json(st)
    if check:
        E.check_invariants(state)
    return state, a


def run(state, *steps):
    for seat, action in steps:
        state = E.apply(state, seat, action)
        E.check_invariants(state)
    return state


def _close(state):
    """The call window's minimum time runs out: the server passes for seats with nothing to call."""
    return run(state, (SYSTEM, CLOSE))


def cards(specs):
    a = Alloc()
    return a.many(specs)


def types(specs):
    return [c // 4 for c in cards(specs)]


def T(spec):
    return EL[spec[:2]] * 5 + int(spec[2])


def disc(i, riichi=False):
    return {"type": "discard", "index": i, "riichi": riichi}


PASS = {"type": "pass"}
NEXT = {"type": "next_match"}
CLOSE = {"type": "close_window"}  # SYSTEM: the call window's minimum time is over
# a winning-shaped 8-card filler for seats that should never be able to call or win
WINNING_WOOD = "wo0 wo0 wo0 wo4 wo4 wo4 wo1"


# ---------------------------------------------------------------- setup
def test_new_game_setup_and_fire_deals_first():
    for seed in range(30):
        state = E.new_game(3, seed)
        assert sorted(state["elements"]) == [0, 1, 2]
        assert state["dealer"] == state["elements"].index(FIRE)
        assert [len(h) for h in state["hands"]] == [8, 8, 8]
        assert len(state["indicators"]) == 1 and len(state["spare"]) == 4
        assert len(state["pile"]) == 60 - 24 - 5 - 1  # the dealer already drew
        assert state["phase"] == "insert" and state["turn"] == state["dealer"]
        assert state["od"] == [270] * 3 and state["pot"] == 0
        E.check_invariants(state)
    assert len({tuple(E.new_game(3, s)["elements"]) for s in range(30)}) > 1
    with pytest.raises(InvalidAction):
        E.new_game(2, 0)
    with pytest.raises(InvalidAction):
        E.new_game(3, 0, {"short_game": 1})


def test_deck_has_60_cards_with_stars_on_three_of_four_copies_of_1_to_4():
    assert sum(sp.has_star(c) for c in range(60)) == 3 * 4 * 3
    assert not any(sp.has_star(c) for c in range(60) if sp.number(c) == 0)
    for t in range(15):
        copies = [c for c in range(60) if c // 4 == t]
        assert len(copies) == 4
        assert sum(sp.has_star(c) for c in copies) == (0 if t % 5 == 0 else 3)


# ---------------------------------------------------------------- spells
@pytest.mark.parametrize("nums", ["000", "111", "222", "333", "444", "012", "123", "234", "340",
                                  "043", "432", "321", "210"])
def test_spells(nums):
    for el in ("fi", "wo", "wa"):
        assert sp.is_winning(cards(" ".join(el + n for n in nums)))


@pytest.mark.parametrize("nums", ["401", "104", "132", "013", "024", "420", "403", "304", "011", "440", "124"])
def test_not_spells(nums):
    assert not sp.is_winning(cards(" ".join("fi" + n for n in nums)))


def test_spell_needs_one_element():
    assert not sp.is_winning(cards("fi1 fi2 wo3"))
    assert not sp.is_winning(cards("fi1 wa1 fi1"))


def test_hand_order_is_fixed_groups_are_positions():
    assert sp.is_winning(cards("fi1 fi2 fi3 wo0 wo0 wo0 wa4 wa3 wa2"))
    # the same cards in another order do not win: cards are never rearranged
    assert not sp.is_winning(cards("fi1 fi2 wo0 fi3 wo0 wo0 wa4 wa3 wa2"))
    assert not sp.is_winning(cards("fi2 fi1 fi3 wo0 wo0 wo0 wa4 wa3 wa2"))


def test_tenpai_waits_over_all_cards_and_positions():
    hand = cards("fi1 fi2 wo3 wo3 wo3 wa0 wa0 wa0")
    assert sorted(sp.waits(hand)) == [(0, T("fi0")), (2, T("fi3"))]
    hand = cards("wo3 wo3 wo3 fi1 fi3 wa0 wa0 wa0")
    assert sorted(sp.waits(hand)) == [(4, T("fi2"))]
    # 0 only at a run's end: 4?1 has no completion; 3 4 -> 0 (340) or 2 (234)... but positional
    assert sorted(sp.waits(cards("fi4 fi1"))) == []
    assert sorted(sp.waits(cards("fi3 fi4"))) == [(0, T("fi2")), (2, T("fi0"))]
    assert sorted(sp.waits(cards("fi0 fi3"))) == [(1, T("fi4"))]  # 043
    # a wait on a card inserted between two groups shifts the rest
    hand = cards("fi1 fi1 fi1 wo2 wo2 wa3 wa3 wa3")
    assert (5, T("wo2")) in sp.waits(hand) and (3, T("wo2")) in sp.waits(hand)
    assert all(t in (T("wo2"), T("wo1"), T("wo3")) for _p, t in sp.waits(hand))


def test_ruling_wait_on_a_card_whose_four_copies_are_own_does_not_count():
    hand = cards("fi1 fi3")
    a = Alloc()
    a.many("fi1 fi3")
    melds = [a.many("fi2 fi2 fi2") + [10, 1], a.many("fi2 fi3 fi4") + [30, 1]]
    assert sp.waits(hand) == [(1, T("fi2"))]
    assert not sp.is_tenpai(hand, melds)
    # with only three copies held, the wait counts
    melds2 = [a.many("wo2 wo2 wo2") + [10, 1], melds[1]]
    assert sp.is_tenpai(hand, melds2)


# ---------------------------------------------------------------- turn: draw, insert, discard
def test_draw_insert_anywhere_then_discard_anywhere():
    state, a = position(["fi1 fi2 wo3 wo3 wo0 wa0 wa1 wa4", WINNING_WOOD + " wo1", "wa2 wa2 wa3 wa3 fi4 fi4 wo2 wo2"],
                        phase="insert", drawn="fi3", pile="wa4")
    legal = E.legal_actions(state, 0)
    assert [x for x in legal if x["type"] == "insert"] == [{"type": "insert", "pos": p} for p in range(9)]
    assert not [x for x in legal if x["type"] == "tsumo"]
    state = run(state, (0, {"type": "insert", "pos": 2}))
    assert [sp.number(c) for c in state["hands"][0][:3]] == [1, 2, 3]
    assert E.view(state, 0)["inserted"] == 2 and E.view(state, 1)["inserted"] is None
    assert [x["index"] for x in E.legal_actions(state, 0)] == list(range(9))
    before = list(state["hands"][0])
    state = run(state, (0, disc(8)))
    assert state["hands"][0] == before[:8]
    assert state["discards"][0][-1] == [before[8], 0, -1]
    # the call window opens for both other seats although nobody can call the wa4 ...
    assert state["phase"] == "calls" and E.awaiting(state) == {SYSTEM, 1, 2}
    assert E.legal_actions(state, 1) == E.legal_actions(state, 2) == [PASS]
    # ... and when its minimum time is over the server passes for both: the next seat draws
    state = _close(state)
    assert state["phase"] == "insert" and state["turn"] == 1


def test_tsumo_legal_only_where_the_insert_wins_and_scores_own_element_half_each():
    # seat 1 (wood) draws wo3 and completes 123 wood at position 2; elements: fire, wood, water
    state, a = position(["fi0 fi0 fi4 fi4 wa1 wa1 wa3 wa3", "wo1 wo2 wo0 wo0 wo0 fi4. fi3. fi2.",
                         "wa2 wa2 wa0 wa0 fi3 fi3 wa4 wa4"], phase="insert", turn=1, drawn="wo3.",
                        indicators=("wa4",))
    legal = E.legal_actions(state, 1)
    assert [x for x in legal if x["type"] == "tsumo"] == [{"type": "tsumo", "pos": 2}]
    with pytest.raises(IllegalAction):
        E.apply(state, 1, {"type": "tsumo", "pos": 3})
    state = run(state, (1, {"type": "tsumo", "pos": 2}))
    r = state["last_result"]
    assert r["kind"] == "tsumo" and r["winner"] == 1
    s = r["score"]
    assert s["element"] == {"element": WOOD, "count": 2, "points": 30}
    assert s["number"]["kind"] == "none" and s["star"]["count"] == 0
    assert s["total"] == 30
    assert r["payments"] == [15, 0, 15]
    assert state["od"] == [255, 300, 255]
    assert r["dealer_stays"] is False and state["dealer"] == 1 and state["passes"] == 1
    assert state["phase"] == "match_end" and E.awaiting(state) == {SYSTEM}
    assert E.legal_actions(state, SYSTEM) == [NEXT] and E.delay(state) > 0
    state = run(state, (SYSTEM, NEXT))
    assert state["phase"] == "insert" and state["turn"] == 1 and state["match_no"] == 1


def test_ron_discarder_pays_and_element_is_discarders_weakness():
    # seat 0 (fire, weak to water) discards wa3; seat 2 (water) rons with two water spells
    state, a = position(["fi0 fi0 fi4 fi4 wo1 wo1 wo3 wa3.", "wo0 wo0 wo4 wo4 fi1 fi1 fi3 fi3",
                         "wa1 wa2 wa4 wa4 wa4 fi2 fi2 fi2"], turn=0, phase="insert", drawn="wo2")
    state = run(state, (0, {"type": "insert", "pos": 8}), (0, disc(7)))
    assert state["phase"] == "calls" and state["call"]["callers"] == [1, 2]
    assert E.awaiting(state) == {SYSTEM, 1, 2}
    assert E.legal_actions(state, 1) == [PASS]  # nothing to call, but in the window all the same
    legal = E.legal_actions(state, 2)
    assert {"type": "ron", "pos": 2} in legal and PASS in legal
    state = run(state, (2, {"type": "ron", "pos": 2}))
    assert state["phase"] == "calls" and E.awaiting(state) == {SYSTEM, 1}  # the minimum time runs
    state = _close(state)
    r = state["last_result"]
    assert r["kind"] == "ron" and r["winner"] == 2 and r["from"] == 0
    assert r["score"]["element"] == {"element": WATER, "count": 2, "points": 30}
    total = r["score"]["total"]
    assert r["payments"] == [total, 0, 0]
    assert state["od"] == [270 - total, 270, 270 + total]


def test_ron_element_uses_weakness_wood_discarder_counts_fire():
    state, a = position(["wa0 wa0 wa4 wa4 wo1 wo1 wo3 wa3", "wo0 wo0 wo4 wo4 wa1 wa1 fi3 wa2 wa2",
                         "fi1 fi2 fi4 fi4 fi4 fi0 fi0 fi0"], turn=1, phase="discard")
    # seat 1 is wood: weak to fire; seat 2 rons fi3 with three fire spells
    state = E.apply(state, 1, disc(6))
    assert 2 in state["call"]["callers"]
    state = _settle(run(state, (2, {"type": "ron", "pos": 2})))
    r = state["last_result"]
    assert r["winner"] == 2 and r["score"]["element"]["element"] == FIRE and r["score"]["element"]["count"] == 3
    assert r["score"]["element"]["points"] == 90


# ---------------------------------------------------------------- calls
def test_pon_from_either_player_chi_only_from_left_with_discard_third():
    # seat 0 discards fi3. seat 1 (next after 0: 0 is its left player) may chi with fi1..fi2
    # (1,2,3) and with fi4 fi... ; seat 2 may pon with fi3 fi3 but not chi.
    state, a = position(["fi3 wo0 wo0 wo4 wo4 wa0 wa0 wa4 wa4", "fi1 wa1 fi2 fi4 wo2 wo2 wa2 wa3",
                         "fi3 fi3 fi2 fi1 wa1 wo1 wo1 wa4"])
    state = E.apply(state, 0, disc(0))
    assert state["call"]["callers"] == [1, 2]
    l1 = E.legal_actions(state, 1)
    assert {"type": "chi", "cards": [0, 2]} in l1  # fi1 fi2 + fi3 = 123
    assert {"type": "chi", "cards": [2, 3]} not in l1  # fi2 fi4 + fi3: 243 is not a spell
    assert [x for x in l1 if x["type"] == "pon"] == []
    l2 = E.legal_actions(state, 2)
    assert [x for x in l2 if x["type"] == "pon"] == [{"type": "pon", "cards": [0, 1]}]
    assert [x for x in l2 if x["type"] == "chi"] == []  # fi2 fi1 + fi3 would be a run, but 0 is not its left player
    # pon beats chi
    state = run(state, (1, {"type": "chi", "cards": [0, 2]}), (2, {"type": "pon", "cards": [0, 1]}))
    assert state["phase"] == "calls" and E.awaiting(state) == {SYSTEM}  # both decided: the minimum time runs
    state = _close(state)
    assert state["phase"] == "discard" and state["turn"] == 2
    assert state["melds"][2][0][3] == 30  # seat 2 is water: other element, first pledge 30
    assert state["od"][2] == 240 and state["table_od"] == 30
    assert state["discards"][0][-1][2] == 2
    assert len(state["hands"][2]) == 6
    # the caller discards, then the player after the caller draws
    state = _settle(run(state, (2, disc(0))))
    assert state["phase"] == "insert" and state["turn"] == 0


def test_chi_order_follows_hand_order_and_descending_runs():
    # seat 1's hand holds fi2 before fi1: discard fi0 makes 210 (descending) but fi3 would make 213: no
    state, a = position(["fi0 wa0 wa0 wa4 wa4 wa0 fi4 fi4 wa2", "fi2 fi1 wa1 wa1 wo2 wo2 wa3 wa3",
                         WINNING_WOOD + " wa4"])
    st = E.apply(state, 0, disc(0))
    assert E.legal_actions(st, 1) == [{"type": "chi", "cards": [0, 1]}, PASS]
    state, a = position(["fi3 wa0 wa0 wa4 wa4 wa0 fi4 fi4 wa2", "fi2 fi1 wa1 wa1 wo2 wo2 wa3 wa3",
                         WINNING_WOOD + " wa4"])
    st = _close(E.apply(state, 0, disc(0)))
    assert st["phase"] == "insert" and st["turn"] == 1  # nobody could call: the server passed for both
    # the discard must be the run's third card: fi1 fi3 + fi2 is not a chi
    state, a = position(["fi2 wa0 wa0 wa4 wa4 wa0 fi4 fi4 wa2", "fi1 fi3 wa1 wa1 wo2 wo2 wa3 wa3",
                         WINNING_WOOD + " wa4"])
    st = _close(E.apply(state, 0, disc(0)))
    assert st["phase"] == "insert"
    # chi never with equal numbers (that is a pon) and 340 / 043 are runs
    state, a = position(["fi0 wa0 wa0 wa4 wa4 wa0 fi1 fi1 wa2", "fi3 fi4 wa1 wa1 wo2 wo2 wa3 wa3",
                         WINNING_WOOD + " wa4"])
    st = E.apply(state, 0, disc(0))
    assert E.legal_actions(st, 1) == [{"type": "chi", "cards": [0, 1]}, PASS]


def test_chi_laid_in_hand_order_own_element_costs_10_and_rights_are_lost():
    # seat 1 is wood
    state, a = position(["wo3 wo1 fi0 fi4 fi4 wa0 wa0 wa4 fi1", "wo1 wo2 wo4 wo2 fi2 fi2 wa3 wa3",
                         "wa1 wa1 wa2 wa2 fi3 fi3 wa4 wa4"])
    st = E.apply(state, 0, disc(0))
    st = run(st, (1, {"type": "chi", "cards": [0, 1]}), (SYSTEM, CLOSE))
    m = st["melds"][1][0]
    assert [sp.number(c) for c in m[:3]] == [1, 2, 3] and m[3] == 10 and m[4] == 0
    assert st["od"][1] == 260 and st["pledged"][1] == 1
    st = run(st, (1, disc(5)))  # discards wa3
    assert E.view(st, None)["players"][1]["lost_rights"] is True
    st = _settle(st)
    st = _settle(run(st, (2, {"type": "insert", "pos": 0}), (2, disc(8))))
    st = _settle(run(st, (0, {"type": "insert", "pos": 0}), (0, disc(0))))
    assert st["turn"] == 1 and st["phase"] == "insert"
    st = run(st, (1, {"type": "insert", "pos": 0}))
    assert not [x for x in E.legal_actions(st, 1) if x["riichi"]]  # pledged: no riichi, even if tenpai


def test_pledge_prices_second_pledge_pays_second_price():
    for first_own, second_own, expected in [(True, True, (10, 30)), (True, False, (10, 90)),
                                            (False, True, (30, 30)), (False, False, (30, 90))]:
        el1 = "wo" if first_own else "fi"
        el2 = "wo" if second_own else "fi"
        # seat 1 (wood) holds pairs for two pons; seat 0 discards el1 2 then later el2 4
        state, a = position([f"{el1}2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", f"{el1}2 {el1}2 {el2}4 {el2}4 wa2 wa2 wa3 wa3",
                             "wa1 wa1 fi3 fi3 wo3 wo3 fi0 fi0"])
        st = E.apply(state, 0, disc(0))
        st = run(st, (1, {"type": "pon", "cards": [0, 1]}), (SYSTEM, CLOSE))
        assert st["melds"][1][0][3] == expected[0]
        # second pledge from the same discarder: hand now "el2 4, el2 4, wa2 wa2 wa3 wa3", discard wa3
        st = _settle(run(st, (1, disc(5))))
        # give seat 0 an el2 4 to discard by hand-editing the state
        j = E.state_to_json(st)
        assert j["phase"] == "insert" and j["turn"] == 2
        j["phase"], j["turn"] = "discard", 0
        j["pile"].append(j["drawn"])
        j["drawn"] = None
        four = next(c for c in j["pile"] + j["spare"] if c // 4 == T(f"{el2}4"))
        where = "pile" if four in j["pile"] else "spare"
        j[where][j[where].index(four)] = j["hands"][0][0]
        j["hands"][0] = [four] + j["hands"][0][1:] + [j["pile"].pop()]
        st = E.state_from_json(j)
        E.check_invariants(st)
        st = E.apply(st, 0, disc(0))
        pons = [x for x in E.legal_actions(st, 1) if x["type"] == "pon"]
        assert pons == [{"type": "pon", "cards": [0, 1]}]
        st = run(st, (1, pons[0]), (SYSTEM, CLOSE))
        assert st["melds"][1][1][3] == expected[1]
        assert st["od"][1] == 270 - sum(expected) and st["table_od"] == sum(expected)


def test_unaffordable_pledge_is_not_offered_and_at_most_two_pledges():
    state, a = position(["fi2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", "fi2 fi2 wa2 wa2 wa3 wa3 wo4 wo3",
                         "wa1 wa1 fi3 fi3 wo3 wo3 fi0 fi0"], od=(270, 29, 511))
    st = E.apply(state, 0, disc(0))
    assert E.legal_actions(st, 1) == [PASS]  # fire pon would cost seat 1 (wood) 30 > 29: nothing to call
    assert _close(st)["phase"] == "insert"
    state, a = position(["fi2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", "fi2 fi2",
                         "wa1 wa1 fi3 fi3 wo3 wo3 fi0 fi0"],
                        melds=[[], [("wo1 wo1 wo1", 10, 0), ("wo3 wo2 wo1", 30, 2)], []],
                        od=(270, 230, 270), no_ron=(False, True, False))
    assert sp.winning_positions(state["hands"][1], state["hands"][0][0])  # fi2 fi2 + fi2 would win...
    st = E.apply(state, 0, disc(0))
    assert E.legal_actions(st, 1) == [PASS]  # ...but it just called (no ron), and a third pledge is never allowed
    st = _close(st)
    assert st["phase"] == "insert" and st["call"] is None


def test_riichi_player_cannot_pledge_but_can_ron():
    state, a = position(["fi2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wo4", "fi2 fi2 wa2 wa2 wa3 wa3 wo4 wo3",
                         "wa1 wa1 fi3 fi3 wo3 wo3 fi0 fi0"], riichi=(False, True, False),
                        indicators=("wa4", ("wo0", 1)), discards=[[], [("wa0", 10, -1)], []], od=(270, 260, 270))
    st = E.apply(state, 0, disc(0))
    assert E.legal_actions(st, 1) == [PASS] and _close(st)["phase"] == "insert"
    state, a = position(["fi2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wo4", "fi1 fi3 wa2 wa2 wa2 wo4 wo3 wo2",
                         "wa1 wa1 fi3 fi3 wo3 wo3 fi0 fi0"], riichi=(False, True, False),
                        indicators=("wa4", ("wo0", 1)), discards=[[], [("wa0", 10, -1)], []], od=(270, 260, 270))
    st = E.apply(state, 0, disc(0))
    assert E.legal_actions(st, 1) == [{"type": "ron", "pos": 1}, PASS]


def test_ron_beats_pon_and_several_rons_go_to_the_seat_next_after_discarder():
    # seat 2 discards fi2: seat 0 (next after 2) and seat 1 can both ron; seat 0 wins
    hands = ["fi1 fi3 wo0 wo0 wo0 wa4 wa4 wa4", "fi2 fi2 fi2 fi1 fi3 wo4 wo4 wo4", "fi2 wa1 wa1 wa3 wa3 wo1 wo1 wo3 wa0"]
    state, a = position(hands, turn=2)
    st = E.apply(state, 2, disc(0))
    assert st["call"]["callers"] == [0, 1]
    assert {"type": "ron", "pos": 1} in E.legal_actions(st, 0)
    assert {"type": "ron", "pos": 4} in E.legal_actions(st, 1)
    for order in ([0, 1], [1, 0]):
        acts = {0: {"type": "ron", "pos": 1}, 1: {"type": "ron", "pos": 4}}
        end = run(st, *[(s, acts[s]) for s in order], (SYSTEM, CLOSE))
        assert end["last_result"]["winner"] == 0
        late = run(st, (SYSTEM, CLOSE), *[(s, acts[s]) for s in order])  # deciding after the minimum time
        assert late["last_result"]["winner"] == 0
    # seat 1's pon loses to seat 0's ron
    end = run(st, (1, {"type": "pon", "cards": [0, 1]}), (0, {"type": "ron", "pos": 1}), (SYSTEM, CLOSE))
    assert end["last_result"]["winner"] == 0 and end["melds"][1] == []
    # if seat 0 passes, seat 1's ron wins
    end = run(st, (1, {"type": "ron", "pos": 4}), (0, PASS), (SYSTEM, CLOSE))
    assert end["last_result"]["winner"] == 1
    # a seat with a real choice keeps the window open past its minimum time until it decides
    waiting = run(st, (1, {"type": "ron", "pos": 4}), (SYSTEM, CLOSE))
    assert waiting["phase"] == "calls" and E.awaiting(waiting) == {0}
    assert run(waiting, (0, PASS))["last_result"]["winner"] == 1


def test_call_window_minimum_time_is_a_room_option_and_only_the_server_closes_it():
    hands = ["fi1 fi3 wo0 wo0 wo0 wa4 wa4 wa4", "fi2 fi2 fi2 fi1 fi3 wo4 wo4 wo4", "fi2 wa1 wa1 wa3 wa3 wo1 wo1 wo3 wa0"]
    state, a = position(hands, turn=2)
    st = E.apply(state, 2, disc(0))
    assert E.delay(st) == 1.0 and E.legal_actions(st, SYSTEM) == [CLOSE]
    slow = E.state_from_json({**E.state_to_json(st), "opts": {**st["opts"], "call_window": 2.5}})
    assert E.delay(slow) == 2.5
    assert E.new_game(3, 0, {"call_window": 3})["opts"]["call_window"] == 3
    for bad in (0, 0.2, 11, "1", True):
        with pytest.raises(InvalidAction):
            E.new_game(3, 0, {"call_window": bad})
    for seat, action in [(0, CLOSE), (1, CLOSE), (SYSTEM, PASS), (SYSTEM, NEXT), (0, NEXT)]:
        with pytest.raises(IllegalAction) as err:
            E.apply(st, seat, action)
        assert not isinstance(err.value, InvalidAction)
    closed = _close(st)
    with pytest.raises(IllegalAction):
        E.apply(closed, SYSTEM, CLOSE)  # once: the minimum time is over
    assert E.delay(closed) == 0.0 and SYSTEM not in E.awaiting(closed)
    # every seat's clock runs out: each passes (an ordinary legal action), the window resolves
    for seat in sorted(E.awaiting(closed)):
        assert E.on_timeout(closed, seat) == PASS
    assert run(closed, (0, PASS), (1, PASS))["phase"] == "insert"


def test_call_choice_is_secret_until_resolved():
    hands = ["fi1 fi3 wo0 wo0 wo0 wa4 wa4 wa4", "fi2 fi2 fi2 fi1 fi3 wo4 wo4 wo4", "fi2 wa1 wa1 wa3 wa3 wo1 wo1 wo3 wa0"]
    state, a = position(hands, turn=2)
    st = E.apply(state, 2, disc(0))
    before = {s: json.dumps(E.view(st, s), sort_keys=True) for s in (None, 0, 2)}
    st2 = E.apply(st, 1, {"type": "pon", "cards": [0, 1]})
    for s in (None, 0, 2):
        assert json.dumps(E.view(st2, s), sort_keys=True) == before[s]
    assert E.view(st2, 1)["call"]["my_choice"] == {"type": "pon", "cards": [0, 1]}
    with pytest.raises(IllegalAction):
        E.apply(st2, 1, PASS)  # already decided


def test_no_ron_for_the_caller_until_their_next_draw():
    # seat 1 pons seat 0's wo2, discards; seat 2 then discards the card seat 1 waits on: no ron
    state, a = position(["wo2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 fi4", "wo2 wo2 fi1 fi3 wa2 wa2 wa2 wa3",
                         "fi2 wa1 wa1 fi0 fi0 fi4 fi4 wo3"], pile="wo0 wo0")
    st = E.apply(state, 0, disc(0))
    st = _settle(run(st, (1, {"type": "pon", "cards": [0, 1]}), (SYSTEM, CLOSE), (1, disc(5))))
    assert st["no_ron"][1] is True
    assert st["phase"] == "insert" and st["turn"] == 2
    st = run(st, (2, {"type": "insert", "pos": 8}), (2, disc(0)))  # fi2: seat 1 waits on it
    assert sp.winning_positions(st["hands"][1], st["discards"][2][-1][0]) == [1]
    assert E.legal_actions(st, 1) == [PASS]  # in the window, but no ron
    st = _close(st)
    assert st["phase"] == "insert" and st["turn"] == 0
    # after seat 1's next draw the right returns
    st = _settle(run(st, (0, {"type": "insert", "pos": 0}), (0, disc(0))))
    assert st["turn"] == 1 and st["no_ron"][1] is False


def test_riichi_discard_taken_by_pon_leaves_riichi_od_on_table():
    state, a = position(["wo2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", "wo2 wo2 fi1 fi3 wa2 wa2 wa2 wa3",
                         "fi2 wa1 wa1 fi0 fi0 fi4 fi4 wo3"])
    # seat 0: wa0 wa0 wa0 | wa4 wa4 wa4 | wa1 is tenpai after discarding wo2 -> riichi
    legal = E.legal_actions(state, 0)
    assert disc(0, True) in legal
    st = E.apply(state, 0, disc(0, True))
    assert st["riichi"][0] and st["od"][0] == 260 and st["table_od"] == 10
    assert len(st["indicators"]) == 2 and st["indicators"][1][1] == 0 and len(st["spare"]) == 3
    st = run(st, (1, {"type": "pon", "cards": [0, 1]}), (SYSTEM, CLOSE))
    assert st["discards"][0][-1][1:] == [10, 1]  # card taken by seat 1, 10 od still on it
    assert st["table_od"] == 10 + 10 and st["od"] == [260, 260, 270]  # wood pon by the wood player: 10


# ---------------------------------------------------------------- riichi
def test_riichi_needs_tenpai_no_pledge_and_10_od():
    hand = "wo2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa2"
    state, a = position([hand, "wo1 wo1 fi1 fi3 wa2 wa2 wa2 wa3", "fi2 wa1 wa1 fi0 fi0 fi4 fi4 wo3"])
    # only discards that leave a tenpai hand may carry riichi
    riichi = [x["index"] for x in E.legal_actions(state, 0) if x["riichi"]]
    for i in range(9):
        rest = state["hands"][0][:i] + state["hands"][0][i + 1:]
        assert (i in riichi) == sp.is_tenpai(rest, [])
    assert riichi == [0]  # dropping wo2 leaves wa0 wa0 wa0 | wa4 wa4 wa4 | wa1 wa2
    with pytest.raises(IllegalAction):
        E.apply(state, 0, disc(1, True))  # leaves wo2 wa0 wa0 ...: not tenpai
    poor = E.state_from_json({**E.state_to_json(state), "od": [9, 270, 531]})
    assert not [x for x in E.legal_actions(poor, 0) if x["riichi"]]


def test_riichi_forces_discarding_the_drawn_card_unless_tsumo():
    state, a = position(["wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", "wo1 wo1 fi1 fi3 wa2 wa2 wa2 wa3",
                         "fi2 wa1 wo2 fi0 fi0 fi4 fi4 wo3"], phase="insert", drawn="fi1",
                        riichi=(True, False, False), indicators=("wo4", ("fi0", 0)),
                        discards=[[("wo0", 10, -1)], [], []], od=(260, 270, 270))
    assert E.legal_actions(state, 0) == [{"type": "discard_drawn"}]
    with pytest.raises(IllegalAction):
        E.apply(state, 0, {"type": "insert", "pos": 0})
    st = E.apply(state, 0, {"type": "discard_drawn"})
    assert st["discards"][0][-1][0] == state["drawn"] and st["hands"][0] == state["hands"][0]
    state2, a = position(["wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", "wo1 wo1 fi1 fi3 wa2 wa2 wa2 wa3",
                          "fi2 wa3 wo2 fi0 fi0 fi4 fi4 wo3"], phase="insert", drawn="wa1",
                         riichi=(True, False, False), indicators=("wo4", ("fi0", 0)),
                         discards=[[("wo0", 10, -1)], [], []], od=(260, 270, 270))
    legal = E.legal_actions(state2, 0)
    assert {"type": "discard_drawn"} in legal and {"type": "tsumo", "pos": 6} in legal


def test_riichi_winner_takes_table_od_back_and_riichi_indicators_count():
    # seat 0 (fire) in riichi; indicators: wa4 names wa0 (first, for all); fi3 (riichi) names fi4
    state, a = position(["fi4* fi4* fi4* fi1* fi2* fi3* fi0 fi0", "wo1 wo1 wo1 fi1 wa2 wa2 wa2 wa3",
                         "fi2 wa1 wa1 wo0 wo0"], phase="insert", drawn="fi0",
                        riichi=(True, False, False), indicators=("wa4", ("fi3", 0)),
                        discards=[[("wo2", 10, -1)], [], []],
                        melds=[[], [], [("wa4 wa4 wa4", 10, 1)]], od=(260, 270, 230), pot=30)
    state = run(state, (0, {"type": "tsumo", "pos": 8}))
    r = state["last_result"]
    s = r["score"]
    assert s["element"] == {"element": FIRE, "count": 3, "points": 90}
    assert s["number"] == {"kind": "none", "points": 0}  # 444 123 000: mixed kinds and no repeat
    assert s["star"]["count"] == 2 and s["star"]["points"] == 30
    assert s["catalyst"]["cards"] == [[c, 1] for c in state["hands"][0][:3]]  # three fi4
    assert s["catalyst"]["points"] == 30
    assert s["total"] == 90 + 30 + 30
    assert r["payments"] == [0, 75, 75]
    assert r["table_od"] == {"amount": 20, "to": "winner"}
    assert r["pot_taken"] == 30
    assert state["od"] == [260 + 150 + 20 + 30, 195, 155]
    assert state["pot"] == 0 and state["table_od"] == 0
    assert r["dealer_stays"] is True and state["dealer"] == 0


def test_riichi_indicators_do_not_count_for_a_non_riichi_winner():
    state, a = position(["fi4* fi4* fi4* fi1* fi2* fi3* fi0 fi0", "wo1 wo1 wo1 fi1 wa2 wa2 wa2 wa3",
                         "fi2 wa1 wa1 wo0 wo0 wo4 wo4 wo3"], phase="insert", drawn="fi0",
                        riichi=(False, True, False), indicators=("wa4", ("fi3", 1)),
                        discards=[[], [("wo2", 10, -1)], []], od=(270, 260, 270))
    state = run(state, (0, {"type": "tsumo", "pos": 8}))
    r = state["last_result"]
    assert r["score"]["catalyst"]["points"] == 0
    assert r["score"]["total"] == 120
    assert r["table_od"] == {"amount": 10, "to": "pot"}
    assert r["pot_taken"] == 10  # table od goes to the pot first, then the unpledged winner takes it
    assert state["od"] == [270 + 120 + 10, 200, 210]


def test_catalyst_indicators_stack_and_need_items_of_10():
    hand = cards("fi3 fi3 fi3 wo1 wo2 wo3 wa0 wa1 wa2")
    ind_f2 = cards("fi2 fi2")  # two fi2 indicators both name fi3
    score = sp.score_win(hand, [], FIRE, ind_f2)
    assert score["element"]["points"] == 10 and score["catalyst"]["points"] == 3 * 2 * 10
    # 4 names 0 (wraps)
    score = sp.score_win(hand, [], FIRE, cards("wa4"))
    assert score["catalyst"]["cards"] == [[hand[6], 1]] and score["catalyst"]["points"] == 10
    # items below 10: no catalyst (water spells only, counted element fire, no stars, no number)
    hand0 = cards("wa0 wa1 wa2 wa1. wa2. wa3. wo0 wo0 wo0")
    score = sp.score_win(hand0, [], FIRE, cards("wa4 wa0"))
    assert score["items"] == 0 and score["catalyst"] == {"cards": [], "points": 0, "applies": False}


@pytest.mark.parametrize("specs,kind,points", [
    ("fi1 fi2 fi3 wo1 wo2 wo3 wa1 wa2 wa3", "three_identical", 180),
    ("fi0 fi0 fi0 wo0 wo0 wo0 wa0 wa0 wa0", "three_identical", 180),
    ("fi1 fi2 fi3 wo1 wo2 wo3 wa3 wa2 wa1", "two_identical", 60),
    ("fi1 fi1 fi1 wo1 wo1 wo1 wa2 wa2 wa2", "two_identical", 60),
    ("fi1 fi1 fi1 wo2 wo2 wo2 wa3 wa3 wa3", "all_equal", 30),
    ("fi0 fi1 fi2 wo3 wo4 wo0 wa2 wa3 wa4", "all_same_direction", 30),
    ("fi0 fi4 fi3 wo3 wo2 wo1 wa2 wa1 wa0", "all_same_direction", 30),
    ("fi1 fi2 fi3 wo3 wo2 wo1 wa4 wa4 wa4", "none", 0),
    ("fi1 fi2 fi3 wo3 wo2 wo1 wa0 wa1 wa2", "none", 0),
])
def test_number_table(specs, kind, points):
    hand = cards(specs)
    score = sp.score_win(hand, [], WATER, [])
    assert score["number"] == {"kind": kind, "points": points}


def test_number_and_element_count_called_spells_and_star_scoring():
    a = Alloc()
    hand = a.many("fi1* fi2* fi3* wo1. wo2 wo3")
    melds = [a.many("fi1* fi2* fi3*") + [10, 1]]
    score = sp.score_win(hand, melds, FIRE, [])
    assert score["element"] == {"element": FIRE, "count": 2, "points": 30}
    assert score["number"]["kind"] == "three_identical"
    assert score["star"] == {"count": 2, "points": 30}
    assert sp.score_win(cards("fi1* fi2* fi3* wo1* wo2* wo3* wa1* wa2* wa3*"), [], 0, [])["star"]["points"] == 90
    assert sp.score_win(cards("fi0 fi1* fi2* wo1* wo2* wo3* wa1. wa2* wa3*"), [], 0, [])["star"]["points"] == 10


def test_zero_point_win_is_a_special_draw_dealer_stays_and_pays_10():
    # seat 1 (wood) tsumo with no wood spell, no number, no stars: 0 points; dealer 2
    state, a = position(["fi0 fi0 fi4 fi4 wo1 wo1 wo3 wo3", "wa0 wa1 wa2 wa1. wa2. fi2. fi1. fi0",
                         "fi3 fi3 wa4 wa4 wo0 wo0 wo4 wo4"], phase="insert", turn=1, drawn="wa3.",
                        dealer=2,
                        melds=[[], [], []], indicators=("wa0",))
    state = run(state, (1, {"type": "tsumo", "pos": 5}))
    r = state["last_result"]
    assert r["void"] is True and r["score"]["total"] == 0
    assert r["payments"] == [0, 0, 0] and r["dealer_stays"] is True and r["dealer_fee"] == 10
    assert state["od"] == [270, 270, 260] and state["pot"] == 10 and state["dealer"] == 2
    assert state["passes"] == 0


def test_pledged_winner_does_not_take_the_pot_table_od_goes_to_pot():
    # seat 1 pledged (wood 10); tsumo: table 10 -> pot (40 total), pot stays
    state, a = position(["fi0 fi0 fi4 fi4 wa1 wa1 wa3 wa3", "wo1. wo2 wo4 wo4 wo4.",
                         "wa2 wa2 wa0 wa0 fi3 fi3 wa4 wa4"], phase="insert", turn=1, drawn="wo3",
                        melds=[[], [("wo0 wo0 wo0", 10, 0)], []], od=(270, 260, 240), pot=30)
    state = run(state, (1, {"type": "tsumo", "pos": 2}))
    r = state["last_result"]
    assert r["score"]["element"]["count"] == 3 and r["score"]["total"] == 90
    assert r["table_od"] == {"amount": 10, "to": "pot"} and r["pot_taken"] == 0
    assert state["pot"] == 40
    assert state["od"] == [225, 350, 195]


def test_payer_pays_only_what_they_hold_and_zero_od_ends_the_game():
    state, a = position(["fi0 fi0 fi4 fi4 wo1 wo1 wo3 wa3. wo2", "wo0 wo0 wo4 wo4 fi1 fi1 fi3 fi3",
                         "wa1 wa2 wa4 wa4 wa4 wa2 wa2 wa2"], turn=0, phase="discard", od=(20, 270, 520))
    state = run(state, (0, disc(7)), (2, {"type": "ron", "pos": 2}), (SYSTEM, CLOSE))
    r = state["last_result"]
    assert r["score"]["total"] > 20 and r["payments"] == [20, 0, 0]
    assert state["od"][0] == 0
    assert state["phase"] == "over" and E.awaiting(state) == frozenset()
    out = E.outcome(state)
    assert out["ranks"] == [2, 1, 0] and out["scores"] == state["od"] and "0 od" in out["reason"]


def test_a_win_that_causes_no_payment_takes_neither_table_od_nor_pot():
    """Rules: only a win "whose win caused a payment" takes the table od back (riichi) and the
    pot; a ron on a discarder holding 0 od pays nothing, so both stay where the rules put them."""
    hands = ["fi0 fi0 fi4 fi4 wo1 wo1 wo3 wa3. wo2", "wo0 wo0 wo4 wo4 fi1 fi1 fi3 fi3", "wa1 wa2 wa4 wa4 wa4 wa2 wa2 wa2"]
    state, a = position(hands, turn=0, phase="discard", od=(0, 270, 520), pot=20)
    end = run(state, (0, disc(7)), (2, {"type": "ron", "pos": 2}), (SYSTEM, CLOSE))
    r = end["last_result"]
    assert r["kind"] == "ron" and r["winner"] == 2 and r["score"]["total"] > 0 and not r["void"]
    assert r["payments"] == [0, 0, 0] and r["pot_taken"] == 0
    assert end["od"] == [0, 270, 520] and end["pot"] == 20
    # in riichi: the table od (its own riichi 10) goes to the pot, not back to the winner
    state, a = position(hands, turn=0, phase="discard", od=(0, 270, 510), pot=20, riichi=(False, False, True),
                        indicators=("wa4", ("wo0", 2)), discards=[[], [], [("fi1", 10, -1)]])
    end = run(state, (0, disc(7)), (2, {"type": "ron", "pos": 2}), (SYSTEM, CLOSE))
    r = end["last_result"]
    assert r["payments"] == [0, 0, 0] and r["table_od"] == {"amount": 10, "to": "pot"} and r["pot_taken"] == 0
    assert end["od"] == [0, 270, 510] and end["pot"] == 30
    # the same win on a discarder who can pay takes both
    state, a = position(hands, turn=0, phase="discard", od=(100, 270, 410), pot=20, riichi=(False, False, True),
                        indicators=("wa4", ("wo0", 2)), discards=[[], [], [("fi1", 10, -1)]])
    end = run(state, (0, disc(7)), (2, {"type": "ron", "pos": 2}), (SYSTEM, CLOSE))
    r = end["last_result"]
    paid = r["payments"][0]
    assert paid > 0 and r["table_od"] == {"amount": 10, "to": "winner"} and r["pot_taken"] == 20
    assert end["od"] == [100 - paid, 270, 410 + paid + 10 + 20] and end["pot"] == 0


# ---------------------------------------------------------------- exhaustive draw, dealer, rounds
def _settle(state):
    """The call window's minimum time runs out and every seat that could call passes."""
    while state["phase"] == "calls":
        state = _close(state) if SYSTEM in E.awaiting(state) else E.apply(state, min(E.awaiting(state)), PASS)
    return state


def _exhaust(state):
    """Everyone keeps discarding what they drew (inserted at the end) until the match ends."""
    while state["phase"] in ("insert", "discard", "calls"):
        seat = sorted(E.awaiting(state))[0]
        if state["phase"] == "calls":
            state = _settle(state)
        elif state["phase"] == "insert":
            state = E.apply(state, seat, {"type": "discard_drawn"} if state["riichi"][seat]
                            else {"type": "insert", "pos": len(state["hands"][seat])})
        else:
            state = E.apply(state, seat, disc(len(state["hands"][seat]) - 1))
        E.check_invariants(state)
    return state


def test_exhaustive_draw_dealer_tenpai_stays_and_pays_10_table_to_pot():
    state, a = position(["wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", "wo1 wo1 wo1 fi1 fi1 fi1 fi4 fi4",
                         "fi2 fi2 fi2 fi0 fi0 fi0 wo3 wo3"], phase="insert", drawn="wo4", dealer=0,
                        melds=[[], [], []], pot=0)
    end = _exhaust(state)
    r = end["last_result"]
    assert r["kind"] == "exhaustive" and r["dealer_tenpai"] is True and r["dealer_stays"] is True
    assert r["dealer_fee"] == 10 and end["dealer"] == 0 and end["passes"] == 0
    assert end["pot"] == 10 and end["od"][0] == 260
    assert r["dealer_hand"] == end["hands"][0]
    # rules, hidden information: "Hands: the owner only" (nothing says a tenpai dealer shows theirs)
    assert len(E.view(end, 0)["last_result"]["dealer_hand"]) == len(end["hands"][0])
    for viewer in (1, 2, None):
        assert "dealer_hand" not in E.view(end, viewer)["last_result"]


def test_exhaustive_draw_dealer_noten_passes_the_deal():
    state, a = position(["wa0 wo0 fi0 wa4 wo4 fi4 wa1 wo1", "wo1 wo1 wo1 fi4 fi4",
                         "fi2 fi2 fi2 fi0 fi0 wa0 wo3 wo3"], phase="insert", drawn="wo4", dealer=0,
                        melds=[[], [("wa2 wa2 wa2", 30, 0)], []], od=(270, 240, 270))
    end = _exhaust(state)
    r = end["last_result"]
    assert r["dealer_tenpai"] is False and r["dealer_stays"] is False and r["dealer_fee"] == 0
    assert end["dealer"] == 1 and end["passes"] == 1 and end["pot"] == 30 and end["table_od"] == 0
    assert r["table_od"] == {"amount": 30, "to": "pot"}


def test_sun_and_moon_rounds_and_short_game():
    # the deal passed 5 times: the next pass ends a full game; short game ends after 3
    state, a = position(["wa0 wo0 fi0 wa4 wo4 fi4 wa1 wo1", "wo1 wo1 wo1 fi1 fi1 fi1 fi4 fi4",
                         "fi2 fi2 fi2 fi0 fi0 wa0 wo3 wo3"], phase="insert", drawn="wo4", dealer=2, passes=5)
    assert E.view(state, None)["round"] == "moon"
    end = _exhaust(state)
    assert end["passes"] == 6 and end["phase"] == "over" and "twice" in E.outcome(end)["reason"]
    state, a = position(["wa0 wo0 fi0 wa4 wo4 fi4 wa1 wo1", "wo1 wo1 wo1 fi1 fi1 fi1 fi4 fi4",
                         "fi2 fi2 fi2 fi0 fi0 wa0 wo3 wo3"], phase="insert", drawn="wo4", dealer=2, passes=2,
                        short_game=True)
    assert E.view(state, None)["round"] == "sun"
    end = _exhaust(state)
    assert end["phase"] == "over" and E.outcome(end)["ranks"] == [0, 0, 0]
    state, a = position(["wa0 wo0 fi0 wa4 wo4 fi4 wa1 wo1", "wo1 wo1 wo1 fi1 fi1 fi1 fi4 fi4",
                         "fi2 fi2 fi2 fi0 fi0 wa0 wo3 wo3"], phase="insert", drawn="wo4", dealer=2, passes=2)
    end = _exhaust(state)
    assert end["phase"] == "match_end" and E.view(end, None)["round"] == "moon"


def test_dealer_stays_after_winning_passes_after_another_wins():
    state, a = position(["fi0 fi0 fi4 fi4 wa1 wa1 wa3 wa3", "wo1 wo2 wo0 wo0 wo0 fi4. fi3. fi2.",
                         "wa2 wa2 wa0 wa0 fi3 fi3 wa4 wa4"], phase="insert", turn=1, drawn="wo3", dealer=1)
    st = run(state, (1, {"type": "tsumo", "pos": 2}))
    assert st["dealer"] == 1 and st["passes"] == 0
    st = run(st, (SYSTEM, NEXT))
    assert st["turn"] == 1 and st["phase"] == "insert"


def test_outcome_ranks_share_ties():
    state, a = position(["wa0 wo0 fi0 wa4 wo4 fi4 wa1 wo1", "wo1 wo1 wo1 fi1 fi1 fi1 fi4 fi4",
                         "fi2 fi2 fi2 fi0 fi0 wa0 wo3 wo3"], od=(300, 300, 210), phase="insert", drawn="wo2")
    st = E.state_from_json({**E.state_to_json(state), "phase": "over", "over_reason": "test"})
    assert E.outcome(st)["ranks"] == [0, 0, 2]
    assert E.outcome(state) is None


# ---------------------------------------------------------------- errors, clocks, conservation
def test_malformed_and_illegal_actions():
    state = E.new_game(3, 5)
    seat = state["turn"]
    for bad in [None, [], {}, {"type": "fly"}, {"type": "insert"}, {"type": "insert", "pos": "1"},
                {"type": "insert", "pos": True}, {"type": "pon", "cards": [1]}, {"type": "discard", "index": 0, "riichi": 1}]:
        with pytest.raises(InvalidAction):
            E.apply(state, seat, bad)
    with pytest.raises(IllegalAction) as err:
        E.apply(state, (seat + 1) % 3, {"type": "insert", "pos": 0})
    assert not isinstance(err.value, InvalidAction) and "not awaited" in str(err.value)
    for bad in [{"type": "insert", "pos": 9}, {"type": "insert", "pos": -1}, disc(0), PASS, NEXT,
                {"type": "discard_drawn"}]:
        with pytest.raises(IllegalAction):
            E.apply(state, seat, bad)


def test_on_timeout_gives_a_legal_action_and_clock_option():
    state = E.new_game(3, 8, {"turn_seconds": 30})
    rng = random.Random(1)
    for _ in range(300):
        awaited = E.awaiting(state)
        if not awaited:
            break
        seat = SYSTEM if SYSTEM in awaited else rng.choice(sorted(awaited))
        if seat == SYSTEM:
            assert E.clock_seconds(state, SYSTEM) is None
            state = E.apply(state, seat, E.legal_actions(state, SYSTEM)[0])
            continue
        assert E.clock_seconds(state, seat) == 30.0
        act = E.on_timeout(state, seat)
        assert act in E.legal_actions(state, seat)
        state = E.apply(state, seat, act)
    assert E.clock_seconds(E.new_game(3, 8), E.new_game(3, 8)["turn"]) == 30.0  # the default clock
    assert E.clock_seconds(E.new_game(3, 8, {"turn_seconds": 0}), E.new_game(3, 8)["turn"]) is None


def test_od_conserved_and_cards_conserved_in_random_games():
    for seed in range(15):
        def check(before, seat, action, after):
            E.check_invariants(after)
            assert sum(after["od"]) + after["table_od"] + after["pot"] == 810
        res = play(E, 3, seed, on_step=check)
        assert E.outcome(res.state) is not None


def test_invariant_check_catches_broken_conservation():
    state = E.new_game(3, 1)
    broken = E.state_from_json({**E.state_to_json(state), "pot": 10})
    with pytest.raises(AssertionError):
        E.check_invariants(broken)
    j = E.state_to_json(state)
    j["hands"][0][0] = j["hands"][1][0]
    with pytest.raises(AssertionError):
        E.check_invariants(E.state_from_json(j))


def test_view_shows_public_table_and_own_hand_only():
    state = E.new_game(3, 3)
    seat = state["turn"]
    v = E.view(state, seat)
    assert len(v["hand"]) == 8 and v["drawn"] is not None
    assert v["players"][seat]["hand_count"] == 9
    assert v["indicators"][0]["riichi_by"] is None
    ind = state["indicators"][0][0]
    assert v["indicators"][0]["names"] == {"el": data.ELEMENTS[ind // 20], "n": (ind % 20 // 4 + 1) % 5}
    other = E.view(state, (seat + 1) % 3)
    assert other["drawn"] is None and len(other["hand"]) == 8
    spec = E.view(state, None)
    assert spec["hand"] is None and spec["drawn"] is None and spec["waits"] is None
    assert spec["pile_count"] == 30 and spec["spare_count"] == 4


def _empty_pile(state):
    """Move the whole pile into seat 2's old discards (nobody took them)."""
    j = E.state_to_json(state)
    j["discards"][2] = j["discards"][2] + [[c, 0, -1] for c in j["pile"]]
    j["pile"] = []
    out = E.state_from_json(j)
    E.check_invariants(out)
    return out


def test_ruling_the_last_discard_can_be_called_then_exhaustive_draw():
    state, a = position(["wo2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 fi4", "wo2 wo2 fi1 fi3 wa2 wa2 wa2 wa3",
                         "fi2 wa1 wa1 fi0 fi0 fi4 fi4 wo3"])
    state = _empty_pile(state)
    st = E.apply(state, 0, disc(0))
    assert st["phase"] == "calls" and E.legal_actions(st, 1)[0] == {"type": "pon", "cards": [0, 1]}
    st = run(st, (1, {"type": "pon", "cards": [0, 1]}), (SYSTEM, CLOSE))
    assert st["phase"] == "discard" and st["turn"] == 1
    st = _settle(run(st, (1, disc(5))))
    assert st["phase"] == "match_end" and st["last_result"]["kind"] == "exhaustive"
    assert st["pot"] == 10  # the pledge od went to the pot


def test_ruling_zero_od_ends_the_game_only_when_the_match_ends():
    state, a = position(["wo2 wa0 wa0 wa0 wa4 wa4 wa4 wa1 wa1", "wo1 wo1 fi1 fi3 wa2 wa2 wa2 wa3",
                         "fi2 wa3 wo2 fi0 fi0 fi4 fi4 wo3"], od=(10, 270, 530))
    st = E.apply(state, 0, disc(0, True))
    assert st["od"][0] == 0 and st["phase"] in ("insert", "calls") and E.outcome(st) is None
    end = _exhaust(_settle(st))
    assert end["phase"] == "over" and "0 od" in E.outcome(end)["reason"]
    assert end["last_result"]["kind"] == "exhaustive" and end["last_result"]["game_over"] is True


def test_riichi_filter_never_hides_a_tenpai_discard():
    """The engine only runs the nine tenpai checks when some three adjacent cards form a spell;
    check that shortcut against brute force on random 9-card hands (biased towards near-wins)."""
    from engines.three_magic.engine import _has_spell_window
    rng = random.Random(5)
    found = 0
    for _ in range(3000):
        deck = list(range(60))
        rng.shuffle(deck)
        el = rng.randrange(3)
        pool = [c for c in deck if c // 20 == el][:9] if rng.random() < 0.7 else deck[:9]
        hand = sorted(pool, key=lambda c: rng.random()) if rng.random() < 0.5 else sorted(pool)
        any_tenpai = any(sp.is_tenpai(hand[:i] + hand[i + 1:], []) for i in range(9))
        found += any_tenpai
        if any_tenpai:
            assert _has_spell_window(hand)
    assert found > 50
