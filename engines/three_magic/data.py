"""Three Magic's numbers: the published constants and the house tables set by rulings.

Kept as data so a rule tweak (a price, a score, a table entry) never needs a code branch.
Cards are ints 0..59: ``element = card // 20``, ``number = card % 20 // 4``, ``copy = card % 4``;
copies 0-2 of the numbers 1-4 carry a star, no 0 does. A card's *type* is ``card // 4``
(element * 5 + number): the four copies of a type are interchangeable except for the star.
"""

from __future__ import annotations

NUM_PLAYERS = 3
ELEMENTS: tuple[str, ...] = ("fire", "wood", "water")
FIRE = 0
NUMBERS = 5  # 0-4
COPIES = 4
NUM_CARDS = len(ELEMENTS) * NUMBERS * COPIES  # 60
STARRED_COPIES = 3  # of the 4 copies of each number 1-4; 0 never has a star

# X is weak to WEAKNESS[X]: Fire to Water, Wood to Fire, Water to Wood.
WEAKNESS = {0: 2, 1: 0, 2: 1}

START_OD = 270
HAND_SIZE = 8
SPARE_SIZE = 5  # the first card of the spare is revealed as the first catalyst indicator

# Number sequences that make a spell (3 cards of one element, in hand order).
EQUAL_SPELLS: tuple[tuple[int, int, int], ...] = ((0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4))
ASCENDING_SPELLS: tuple[tuple[int, int, int], ...] = ((0, 1, 2), (1, 2, 3), (2, 3, 4), (3, 4, 0))
DESCENDING_SPELLS: tuple[tuple[int, int, int], ...] = ((0, 4, 3), (4, 3, 2), (3, 2, 1), (2, 1, 0))

# Pledges (誓約): price by [pledge index][own element?]; at most MAX_PLEDGES per player per match.
PLEDGE_PRICE = {(0, True): 10, (0, False): 30, (1, True): 30, (1, False): 90}
MAX_PLEDGES = 2
RIICHI_PRICE = 10
DEALER_STAY_FEE = 10  # paid into the ley line pot when the dealer stays after a draw

# Scoring (魔力測定). Element and star: points by count of spells (0..3).
ELEMENT_POINTS = (0, 10, 30, 90)
STAR_POINTS = (0, 10, 30, 90)  # Ruling: spells whose three cards all have stars
# Number (Ruling past the published values): the single best kind applies.
NUMBER_KINDS = (
    # (key, points, en, ja)
    ("three_identical", 180, "three identical spells", "同じ呪文3つ"),
    ("two_identical", 60, "two identical spells", "同じ呪文2つ"),
    ("all_equal", 30, "all three spells of equal numbers", "3呪文すべて同数"),
    ("all_same_direction", 30, "all three runs in the same direction", "3呪文すべて同じ向きの順番"),
    ("none", 0, "no number bonus", "数字の役なし"),
)
NUMBER_POINTS = {key: points for key, points, _en, _ja in NUMBER_KINDS}
CATALYST_POINTS = 10  # per card in the winning hand per indicator naming it
CATALYST_MIN_ITEMS = 10  # the catalyst counts only if element + number + star reach this

ROUND_NAMES = (("sun", "太陽"), ("moon", "月"))
FULL_GAME_ROUNDS = 2
SHORT_GAME_ROUNDS = 1

CALL_WINDOW_SECONDS = 1.0  # default minimum time every call window stays open (room option call_window)
NEXT_MATCH_DELAY = 6.0  # seconds the server shows a match result before dealing the next one
LOG_LIMIT = 40  # public events kept in the state for the view
