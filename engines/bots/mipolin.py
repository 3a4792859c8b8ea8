"""Mipolin bot: deduce from the seat's view only, accuse when sure, never time out if avoidable.

Knowledge: every card id the seat has ever seen (own hand, revealed rows and hands, the missing
person, the players' characters, exchanged and shown cards in its own log entries) cannot be the
culprit or the location, since those two never leave the table. A wrong accusation whose
character is known to be the culprit rules out its place (and vice versa).
"""

from __future__ import annotations

import random


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    kind = legal[0]["type"]
    types = {a["type"] for a in legal}
    if "accuse" in types:
        return _accuse_or_end(view, legal)
    if kind in ("bid", "pass"):
        return _bid(view, legal)
    if kind == "reveal":
        return _reveal(view, legal, rng)
    if kind == "move":
        return _move(view, legal, rng)
    if kind == "suggest":
        return _suggest(view, legal, rng)
    if kind == "pick":
        return legal[0]
    return rng.choice(legal)


def candidates(view: dict) -> tuple[list[int], list[int]]:
    """Characters and places that may still be the culprit / the location for this seat."""
    seen: set[str] = set(view.get("hand") or [])
    if view.get("missing"):
        seen.add(f"c{view['missing']}")
    for p in view["players"]:
        if p["character"]:
            seen.add(f"c{p['character']}")
        seen.update(p["row"])
        seen.update(p["exposed"] or [])
    wrong = []
    for e in view["log"]:
        if e["kind"] == "exchange" and e.get("private"):
            seen.update((e["a_got"], e["b_got"]))
        elif e["kind"] == "show" and e.get("private"):
            seen.add(e["card"])
        elif e["kind"] == "accuse" and not e["correct"]:
            wrong.append((e["character"], e["place"]))
    chars = [c["id"] for c in view["catalog"]["characters"] if f"c{c['id']}" not in seen]
    places = [p["id"] for p in view["catalog"]["places"] if f"p{p['id']}" not in seen]
    for c, p in wrong:
        if chars == [c] and p in places:
            places.remove(p)
        if places == [p] and c in chars:
            chars.remove(c)
    return chars, places


def _accuse_or_end(view, legal):
    chars, places = candidates(view)
    last_turn = view["round"] >= view["turns_each"] and view["order"] and view["turn"] == _last_active(view)
    if (len(chars) == 1 and len(places) == 1) or (last_turn and len(chars) * len(places) <= 2):
        return {"type": "accuse", "character": chars[0], "place": places[0]}
    return {"type": "end_turn"}


def _last_active(view):
    active = [p["seat"] for p in view["players"] if p["active"]]
    return [s for s in view["order"] if s in active][-1]


def _bid(view, legal):
    for act in legal:
        if act["type"] == "pass":
            return act
    return min(legal, key=lambda a: a.get("level", 99))


def _reveal(view, legal, rng):
    safe_day = view["day"] + 1 < view["time_up_day"]
    days = {d["id"] for d in view["catalog"]["days"]}
    day_cards = [a for a in legal if a["card"] in days]
    others = [a for a in legal if a["card"] not in days]
    if day_cards and safe_day:
        return rng.choice(day_cards)  # burn Day cards while they are harmless
    return rng.choice(others or legal)


def _move(view, legal, rng):
    me = view["seat"]
    occupied = {p["area"] for p in view["players"] if p["active"] and p["seat"] != me}
    meet = [a for a in legal if a["area"] in occupied]
    return rng.choice(meet or legal)


def _suggest(view, legal, rng):
    chars, places = candidates(view)
    return {"type": "suggest", "character": rng.choice(chars), "place": rng.choice(places)}
