"""Peribit tables kept as data: marks, counts, and the house score table (replaceable).

The original score table is not public (rules file, "Score table — Ruling"). ``ROLES`` is the
house table; each role has a condition (``needs``: minimum values) and linear points (``points``:
coefficients over the variables, plus ``const``). Variables: ``c1 >= c2 >= c3`` are the counts of
the three marks in a multa sorted high to low, ``t = c1 + c2 + c3``. The best role is the one
with the most points; on equal points the role later in the list is named.
"""

from __future__ import annotations

from typing import Any

MARKS = ("bellum", "natura", "societas")
MARK_LABELS = {
    "bellum": {"en": "Bellum", "ja": "ベルム", "color": "red"},
    "natura": {"en": "Natura", "ja": "ナトゥラ", "color": "teal"},
    "societas": {"en": "Societas", "ja": "ソキエタス", "color": "pink"},
}
STONES_PER_MARK = 12
FIELD_LANES = 5
HAND_SIZE = 3
METUS_LIMIT = 12
ROUNDS = 3
EXCHANGE_GIVE = 2  # stones given for the one stone drawn
BETWEEN_ROUNDS_DELAY = 6.0  # seconds the server shows a round's result before the next round

SCORING_NAME = {"en": "house scoring", "ja": "ハウス得点表"}

ROLES: tuple[dict[str, Any], ...] = (
    {"id": "nihil", "en": "Nihil", "ja": "ニヒル", "needs": {}, "points": {},
     "condition_en": "none below", "condition_ja": "以下のどれでもない", "points_text": "0"},
    {"id": "par", "en": "Par", "ja": "パル", "needs": {"c1": 2}, "points": {"const": 1},
     "condition_en": "c1 ≥ 2", "condition_ja": "c1 ≥ 2", "points_text": "1"},
    {"id": "trias", "en": "Trias", "ja": "トリアス", "needs": {"c3": 1}, "points": {"const": 3},
     "condition_en": "c3 ≥ 1 (one of each mark)", "condition_ja": "c3 ≥ 1(3種すべて)", "points_text": "3"},
    {"id": "unus", "en": "Unus", "ja": "ウヌス", "needs": {"c1": 4}, "points": {"c1": 1},
     "condition_en": "c1 ≥ 4", "condition_ja": "c1 ≥ 4", "points_text": "c1"},
    {"id": "duo", "en": "Duo", "ja": "ドゥオ", "needs": {"c2": 3}, "points": {"c1": 1, "c2": 1},
     "condition_en": "c2 ≥ 3", "condition_ja": "c2 ≥ 3", "points_text": "c1 + c2"},
    {"id": "tria_plena", "en": "Tria Plena", "ja": "トリア・プレナ", "needs": {"c3": 3},
     "points": {"t": 1, "const": 3},
     "condition_en": "c3 ≥ 3", "condition_ja": "c3 ≥ 3", "points_text": "t + 3"},
    {"id": "monas", "en": "Monas", "ja": "モナス", "needs": {"c1": 8}, "points": {"c1": 2},
     "condition_en": "c1 ≥ 8", "condition_ja": "c1 ≥ 8", "points_text": "2 × c1"},
)
