"""House data for Mipolin the Game: names, the map and the card list.

The source names only character 1 (Miho, "Mipolin") and area 1 (the Lodge); every other name here
is a neutral default set (a ruling), kept as data so it can be replaced without touching the rules.
The map is the ruling's 3x3 grid, numbered row by row; adjacency means sharing an edge.
"""

from __future__ import annotations

# Character n's home is map area n.
CHARACTERS: dict[int, dict[str, str]] = {
    1: {"en": "Miho", "ja": "みほ"},
    2: {"en": "Aoi", "ja": "あおい"},
    3: {"en": "Kaede", "ja": "かえで"},
    4: {"en": "Sora", "ja": "そら"},
    5: {"en": "Hinata", "ja": "ひなた"},
    6: {"en": "Ren", "ja": "れん"},
    7: {"en": "Yuki", "ja": "ゆき"},
    8: {"en": "Nagi", "ja": "なぎ"},
    9: {"en": "Tsubasa", "ja": "つばさ"},
}

PLACES: dict[int, dict[str, str]] = {
    1: {"en": "Lodge", "ja": "山荘"},
    2: {"en": "Bridge", "ja": "橋"},
    3: {"en": "Lake", "ja": "湖"},
    4: {"en": "Forest", "ja": "森"},
    5: {"en": "Chapel", "ja": "礼拝堂"},
    6: {"en": "Well", "ja": "井戸"},
    7: {"en": "Cave", "ja": "洞窟"},
    8: {"en": "Meadow", "ja": "草原"},
    9: {"en": "Station", "ja": "駅"},
}

# Row-by-row layout of the areas (for drawing) and which areas share an edge.
GRID: list[list[int]] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
ADJACENCY: dict[int, list[int]] = {
    1: [2, 4],
    2: [1, 3, 5],
    3: [2, 6],
    4: [1, 5, 7],
    5: [2, 4, 6, 8],
    6: [3, 5, 9],
    7: [4, 8],
    8: [5, 7, 9],
    9: [6, 8],
}

LODGE = 1  # where "Gather at the Lodge!" sends every piece

# Day cards: card id -> names. Every Day card advances the marker by 1; "dg" also gathers everyone;
# "dm" ("Day / how to move") is an ordinary Day card in 3-player play.
DAY_CARDS: dict[str, dict[str, str]] = {
    "d1": {"en": "Day", "ja": "日数"},
    "d2": {"en": "Day", "ja": "日数"},
    "d3": {"en": "Day", "ja": "日数"},
    "d4": {"en": "Day", "ja": "日数"},
    "dm": {"en": "Day / how to move", "ja": "日数/移動方法"},
    "dg": {"en": "Gather at the Lodge!", "ja": "山荘に集まれ!"},
}
GATHER = "dg"

# Card ids: "c<n>" character n, "p<n>" place n, and the Day card ids above. This order is the
# canonical sort order of hands.
ALL_CARDS: list[str] = ([f"c{n}" for n in CHARACTERS] + [f"p{n}" for n in PLACES] + list(DAY_CARDS))
CARD_ORDER: dict[str, int] = {card: i for i, card in enumerate(ALL_CARDS)}


def public_catalog() -> dict:
    """The names and the map, as the views ship them to the table."""
    return {
        "characters": [{"id": n, **names} for n, names in CHARACTERS.items()],
        "places": [{"id": n, **names} for n, names in PLACES.items()],
        "days": [{"id": card, **names} for card, names in DAY_CARDS.items()],
        "grid": [list(row) for row in GRID],
        "adjacency": {str(a): list(b) for a, b in ADJACENCY.items()},
        "lodge": LODGE,
        "gather": GATHER,
    }


def _check() -> None:
    for a, nbrs in ADJACENCY.items():
        for b in nbrs:
            assert a in ADJACENCY[b], (a, b)
    assert sorted(ADJACENCY) == sorted(PLACES) == sorted(CHARACTERS)
    assert sorted(a for row in GRID for a in row) == sorted(PLACES)
    assert LODGE in PLACES and GATHER in DAY_CARDS


_check()
