"""Card arithmetic for Three Magic: spells, winning hands in fixed order, tenpai, and scoring.

Pure functions over card ints (see ``data.py``); tables are precomputed at import so a hand check
is a few list lookups.
"""

from __future__ import annotations

from engines.three_magic import data

NUM_TYPES = len(data.ELEMENTS) * data.NUMBERS  # 15


def element(card: int) -> int:
    return card // 20


def number(card: int) -> int:
    return card % 20 // 4


def has_star(card: int) -> bool:
    return card % 20 >= 4 and card % 4 < data.STARRED_COPIES


def type_element(t: int) -> int:
    return t // data.NUMBERS


def type_number(t: int) -> int:
    return t % data.NUMBERS


# ---------------------------------------------------------------- spell tables
SEQ_KIND: dict[tuple[int, ...], str] = {}  # number triple -> "equal" | "ascending" | "descending"
for _seq in data.EQUAL_SPELLS:
    SEQ_KIND[_seq] = "equal"
for _seq in data.ASCENDING_SPELLS:
    SEQ_KIND[_seq] = "ascending"
for _seq in data.DESCENDING_SPELLS:
    SEQ_KIND[_seq] = "descending"

# IS_SPELL[t1 * 225 + t2 * 15 + t3]: the three card types (in this order) form a spell.
IS_SPELL = [False] * NUM_TYPES ** 3
for _t1 in range(NUM_TYPES):
    for _t2 in range(NUM_TYPES):
        for _t3 in range(NUM_TYPES):
            if type_element(_t1) == type_element(_t2) == type_element(_t3):
                _nums = (type_number(_t1), type_number(_t2), type_number(_t3))
                IS_SPELL[_t1 * 225 + _t2 * 15 + _t3] = _nums in SEQ_KIND

# COMPLETE[slot][ta * 15 + tb]: the types x that make a spell when x stands at ``slot`` (0-2) and
# ta, tb fill the other two slots in order.
COMPLETE: list[list[tuple[int, ...]]] = [[() for _ in range(NUM_TYPES * NUM_TYPES)] for _ in range(3)]
for _ta in range(NUM_TYPES):
    for _tb in range(NUM_TYPES):
        for _slot in range(3):
            found = []
            for _x in range(NUM_TYPES):
                trip = [_ta, _tb]
                trip.insert(_slot, _x)
                if IS_SPELL[trip[0] * 225 + trip[1] * 15 + trip[2]]:
                    found.append(_x)
            COMPLETE[_slot][_ta * 15 + _tb] = tuple(found)


def is_spell_cards(a: int, b: int, c: int) -> bool:
    return IS_SPELL[(a // 4) * 225 + (b // 4) * 15 + (c // 4)]


def is_winning(hand: list[int]) -> bool:
    """A hand of 3k cards whose consecutive triples are all spells (k >= 1)."""
    n = len(hand)
    if n == 0 or n % 3:
        return False
    for i in range(0, n, 3):
        if not IS_SPELL[(hand[i] // 4) * 225 + (hand[i + 1] // 4) * 15 + (hand[i + 2] // 4)]:
            return False
    return True


def winning_positions(hand: list[int], card: int) -> list[int]:
    """Positions p where inserting ``card`` into ``hand`` (3k+2 cards) gives a winning hand."""
    n = len(hand)
    if n % 3 != 2:
        return []
    t = card // 4
    return [p for p, x in _insertions(hand) if x == t]


def waits(hand: list[int]) -> list[tuple[int, int]]:
    """All (position, card type) insertions that complete ``hand`` (3k+2 cards), unfiltered."""
    if len(hand) % 3 != 2:
        return []
    return _insertions(hand)


def tenpai_waits(hand: list[int], melds: list[list[int]]) -> list[tuple[int, int]]:
    """The waits that count for tenpai: a type whose 4 copies are all in the player's own hand
    and called spells does not count (Ruling)."""
    found = waits(hand)
    if not found:
        return found
    counts = [0] * NUM_TYPES
    for c in hand:
        counts[c // 4] += 1
    for meld in melds:
        for c in meld[:3]:
            counts[c // 4] += 1
    return [(p, t) for p, t in found if counts[t] < data.COPIES]


def is_tenpai(hand: list[int], melds: list[list[int]]) -> bool:
    return bool(tenpai_waits(hand, melds))


_MEMO: dict = {}


def _insertions(hand: list[int]) -> list[tuple[int, int]]:
    """Memoised by the hand's card types (hands recur: every discard checks both other hands)."""
    types = tuple([c // 4 for c in hand])
    got = _MEMO.get(types)
    if got is None:
        if len(_MEMO) > 100_000:
            _MEMO.clear()
        got = _MEMO[types] = tuple(_compute_insertions(types))
    return list(got)


def _compute_insertions(types: tuple) -> list[tuple[int, int]]:
    n = len(types)
    groups = (n + 1) // 3  # groups in the completed hand
    # left_ok[g]: aligned triples 0..g-1 of the current hand are spells
    left_ok = [True] * (groups + 1)
    for g in range(groups):
        i = 3 * g
        left_ok[g + 1] = left_ok[g] and i + 2 < n and IS_SPELL[types[i] * 225 + types[i + 1] * 15 + types[i + 2]]
    # right_ok[g]: shifted triples (old positions 3j-1..3j+1) for j = g+1..groups-1 are spells
    right_ok = [True] * (groups + 1)
    for j in range(groups - 1, 0, -1):
        i = 3 * j - 1
        right_ok[j - 1] = right_ok[j] and IS_SPELL[types[i] * 225 + types[i + 1] * 15 + types[i + 2]]
    out = []
    for g in range(groups):
        if not (left_ok[g] and right_ok[g]):
            continue
        base = 3 * g
        for slot in range(3):
            p = base + slot
            # the other two cards of the group, in order, from the old hand
            others = types[base:p] + types[p:base + 2]  # tuple slices
            for x in COMPLETE[slot][others[0] * 15 + others[1]]:
                out.append((p, x))
    return out


# ---------------------------------------------------------------- scoring
def spells_of(hand: list[int], melds: list[list[int]]) -> list[tuple[list[int], bool]]:
    """The winning hand's spells in order: hand triples, then called spells (cards, called?)."""
    out = [(hand[i:i + 3], False) for i in range(0, len(hand), 3)]
    out.extend((list(m[:3]), True) for m in melds)
    return out


def number_kind(spells: list[list[int]]) -> str:
    seqs = [tuple(number(c) for c in cards) for cards in spells]
    most = max(seqs.count(s) for s in seqs)
    if most >= 3:
        return "three_identical"
    if most == 2:
        return "two_identical"
    kinds = {SEQ_KIND[s] for s in seqs}
    if kinds == {"equal"}:
        return "all_equal"
    if len(kinds) == 1:  # all ascending or all descending
        return "all_same_direction"
    return "none"


def score_win(hand: list[int], melds: list[list[int]], counted_element: int,
              indicators: list[int]) -> dict:
    """Score a winning hand. ``counted_element`` is the element whose spells count (own element
    for tsumo, the discarder's weakness for ron); ``indicators`` the indicator cards that count for
    this winner. Returns a JSON-safe breakdown with "total"."""
    spells = [cards for cards, _called in spells_of(hand, melds)]
    n_element = sum(1 for cards in spells if element(cards[0]) == counted_element)
    element_points = data.ELEMENT_POINTS[n_element]
    kind = number_kind(spells)
    number_points = data.NUMBER_POINTS[kind]
    n_star = sum(1 for cards in spells if all(has_star(c) for c in cards))
    star_points = data.STAR_POINTS[n_star]
    items = element_points + number_points + star_points
    named: dict[int, int] = {}
    for ind in indicators:
        t = ind // 4
        nt = type_element(t) * data.NUMBERS + (type_number(t) + 1) % data.NUMBERS
        named[nt] = named.get(nt, 0) + 1
    catalyst_cards = []
    catalyst_points = 0
    if items >= data.CATALYST_MIN_ITEMS:
        for cards in spells:
            for c in cards:
                k = named.get(c // 4, 0)
                if k:
                    catalyst_cards.append([c, k])
                    catalyst_points += data.CATALYST_POINTS * k
    return {
        "element": {"element": counted_element, "count": n_element, "points": element_points},
        "number": {"kind": kind, "points": number_points},
        "star": {"count": n_star, "points": star_points},
        "catalyst": {"cards": catalyst_cards, "points": catalyst_points,
                     "applies": items >= data.CATALYST_MIN_ITEMS},
        "items": items,
        "total": items + catalyst_points,
    }


def named_type(indicator: int) -> int:
    """The card type an indicator names: the next number of its element (4 -> 0)."""
    t = indicator // 4
    return type_element(t) * data.NUMBERS + (type_number(t) + 1) % data.NUMBERS
