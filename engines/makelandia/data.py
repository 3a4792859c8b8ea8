"""Makelandia tables: setup per player count and the house abilities (a Ruling), kept as data.

Everything the rules file gives as a table lives here; the engine reads it and has no per-count or
per-card branches of its own. Card codes are strings: "1".."11" (characters), "boost", "kill".
"""

from __future__ import annotations

TEAMS = ("light", "dark")
LIGHT, DARK = 0, 1
CASTLE, FORT = "castle", "fort"

BOOST = "boost"
KILL = "kill"
CHARACTERS = tuple(str(v) for v in range(1, 12))
ALL_CARDS = CHARACTERS + (BOOST, KILL)

# Forts per team (Light, Dark); each team also has exactly one castle.
FORTS = {4: (1, 1), 5: (1, 2), 6: (2, 2), 7: (2, 3), 8: (3, 3)}

# Territories on the ring (the map side used).
TERRITORIES = {4: 6, 5: 6, 6: 6, 7: 8, 8: 8}

# Each team's cards: characters 1-11 + Boost + Kill; with 7-8 players add a 3, a 6 and a Boost.
BASE_DECK = CHARACTERS + (BOOST, KILL)
EXTRA_DECK = ("3", "6", BOOST)
EXTRA_FROM_PLAYERS = 7

# Cards dealt per player: HAND_SIZES[players][team index][role].
HAND_SIZES = {
    4: ({CASTLE: 6, FORT: 6}, {CASTLE: 6, FORT: 6}),
    5: ({CASTLE: 6, FORT: 6}, {CASTLE: 4, FORT: 4}),
    6: ({CASTLE: 4, FORT: 4}, {CASTLE: 4, FORT: 4}),
    7: ({CASTLE: 6, FORT: 5}, {CASTLE: 4, FORT: 4}),
    8: ({CASTLE: 4, FORT: 4}, {CASTLE: 4, FORT: 4}),
}

# Turn order starts with this team's castle.
FIRST_TEAM = DARK

# The no-battle draw: this many full rounds without a battle end the game (Ruling).
QUIET_ROUNDS = 3

# ---- House abilities (Ruling: the published abilities are not available) ----------------------
# "effect" is what the engine acts on; names/texts are what the table shows as "house abilities".
HOUSE_ABILITIES = (
    {"card": "1", "effect": "assassin", "victim": "11",
     "name_en": "Assassin", "name_ja": "暗殺者",
     "text_en": "Played alone (Boost allowed) against a play whose characters include an 11: wins.",
     "text_ja": "単独で(強化は可)出し、相手のキャラに11が含まれるとき勝利する。"},
    {"card": "2", "effect": "scout",
     "name_en": "Scout", "name_ja": "斥候",
     "text_en": "After a battle it was played in, its owner privately sees the opposing player's whole hand, win or lose.",
     "text_ja": "このカードを出した戦いの後、勝敗にかかわらず、持ち主は相手の手札をすべて見る(非公開)。"},
    {"card": "3", "effect": "pair", "partner": "6",
     "name_en": "Twin (3)", "name_ja": "双子(3)",
     "text_en": "Can be played as a pair with a 6; their strengths add (9, or 12 with Boost).",
     "text_ja": "6とペアで出せる。強さは合計(9、強化込みで12)。"},
    {"card": "6", "effect": "pair", "partner": "3",
     "name_en": "Twin (6)", "name_ja": "双子(6)",
     "text_en": "Can be played as a pair with a 3; their strengths add (9, or 12 with Boost).",
     "text_ja": "3とペアで出せる。強さは合計(9、強化込みで12)。"},
    {"card": BOOST, "effect": "boost", "bonus": 3,
     "name_en": "Boost", "name_ja": "強化",
     "text_en": "+3 to the characters it is played with. Alone it does nothing. Always discarded after use.",
     "text_ja": "一緒に出したキャラの強さ+3。単独では効果なし。使用後は必ず捨て札。"},
    {"card": KILL, "effect": "kill",
     "name_en": "Kill", "name_ja": "即死",
     "text_en": "Discards the opposing characters and wins. Against Kill or a lone Boost: a tie. Always discarded after use.",
     "text_ja": "相手のキャラを捨て札にして勝利。即死同士、または強化単独が相手なら相討ち。使用後は必ず捨て札。"},
)


def _ability(effect: str) -> dict:
    return next(a for a in HOUSE_ABILITIES if a["effect"] == effect)


ASSASSIN = _ability("assassin")["card"]
ASSASSIN_VICTIM = _ability("assassin")["victim"]
SCOUTS = frozenset(a["card"] for a in HOUSE_ABILITIES if a["effect"] == "scout")
PAIRS = tuple(sorted({tuple(sorted((str(a["card"]), str(a["partner"])), key=int))
                      for a in HOUSE_ABILITIES if a["effect"] == "pair"}))
BOOST_BONUS = _ability("boost")["bonus"]
STRENGTH = {c: int(c) for c in CHARACTERS}

# Canonical order of cards in hands and plays: characters by number, then Boost, then Kill.
ORDER = {c: i for i, c in enumerate(ALL_CARDS)}


def deck(num_players: int) -> tuple[str, ...]:
    """One team's cards for this player count."""
    cards = BASE_DECK + (EXTRA_DECK if num_players >= EXTRA_FROM_PLAYERS else ())
    return tuple(sorted(cards, key=ORDER.__getitem__))
