"""The one place a Three Magic view is built: what a seat (or a spectator) may know.

Public: discards (riichi od, who took a card), called spells with their od, revealed indicators
and the card each names, od, table od, ley line pot, dealer, round, riichi flags, counts of hidden
cards, the last match result and a log of public events. Private: the seat's own hand in its fixed
order, its drawn card and where it inserted it, its tenpai waits, its own pending call choice, and
(the dealer's) its tenpai hand after an exhaustive draw.
Never: other hands, the pile, the spare, other seats' call choices or whether a seat can call.
"""

from __future__ import annotations

from engines.three_magic import data
from engines.three_magic import spells as sp


def build_view(s: dict, seat: int | None) -> dict:
    me = seat  # checked by engine.view
    phase = s["phase"]
    in_match = phase in ("insert", "discard", "calls")
    rounds = data.SHORT_GAME_ROUNDS if s["opts"]["short_game"] else data.FULL_GAME_ROUNDS
    round_index = min(s["passes"] // 3, rounds - 1)
    players = []
    for p in range(data.NUM_PLAYERS):
        hand_count = len(s["hands"][p]) + (1 if in_match and phase == "insert" and s["turn"] == p else 0)
        players.append({
            "seat": p,
            "element": data.ELEMENTS[s["elements"][p]],
            "weak_to": data.ELEMENTS[data.WEAKNESS[s["elements"][p]]],
            "od": s["od"][p],
            "dealer": p == s["dealer"],
            "riichi": s["riichi"][p],
            "pledges": s["pledged"][p],
            "lost_rights": s["pledged"][p] > 0,
            "no_ron_until_draw": s["no_ron"][p],
            "hand_count": hand_count,
            "melds": [{"cards": [card(c) for c in m[:3]], "od": m[3], "from": m[4],
                       "kind": "pon" if sp.number(m[0]) == sp.number(m[1]) else "chi"}
                      for m in s["melds"][p]],
            "discards": [{"card": card(d[0]), "riichi_od": d[1], "taken_by": d[2] if d[2] >= 0 else None}
                         for d in s["discards"][p]],
        })
    v = {
        "game": "three_magic",
        "seat": me,
        "phase": phase,
        "turn": s["turn"] if in_match else None,
        "match": s["match_no"],
        "round": data.ROUND_NAMES[round_index][0],
        "round_index": round_index,
        "rounds": rounds,
        "dealer": s["dealer"],
        "first_dealer": s["first_dealer"],
        "dealer_passes": s["passes"],
        "pot": s["pot"],
        "table_od": s["table_od"],
        "pile_count": len(s["pile"]),
        "spare_count": len(s["spare"]),
        "indicators": [{"card": card(c), "names": type_card(sp.named_type(c)),
                        "riichi_by": by if by >= 0 else None} for c, by in s["indicators"]],
        "players": players,
        "hand": None,
        "drawn": None,
        "inserted": None,
        "waits": None,
        "call": None,
        "options": dict(s["opts"]),  # scalars only
        "last_result": _result(s["last_result"], me),
        "log": [_event(e) for e in s["log"]],  # this match's public events
        "over_reason": s["over_reason"],
        "prices": None,
    }
    if phase == "calls":
        call = s["call"]
        v["call"] = {"card": card(call["card"]), "from": call["from"], "my_choice": None}
    if me is not None:
        hand = s["hands"][me]
        v["hand"] = [card(c) for c in hand]
        if in_match and phase == "insert" and s["turn"] == me:
            v["drawn"] = card(s["drawn"])
        if in_match and phase == "discard" and s["turn"] == me:
            v["inserted"] = s["inserted"]
        if in_match and len(hand) % 3 == 2:
            v["waits"] = [{"pos": p, "card": type_card(t)} for p, t in sp.tenpai_waits(hand, s["melds"][me])]
        if v["call"] is not None:
            choice = s["call"]["choices"][me]
            v["call"]["my_choice"] = _copy(choice) if choice is not None else None
        own = s["elements"][me]
        k = min(s["pledged"][me], data.MAX_PLEDGES - 1)
        v["prices"] = {"own_element": data.PLEDGE_PRICE[(k, True)], "other_element": data.PLEDGE_PRICE[(k, False)],
                       "element": data.ELEMENTS[own], "riichi": data.RIICHI_PRICE}
    return v


_CARDS = [(data.ELEMENTS[sp.element(c)], sp.number(c), sp.has_star(c)) for c in range(data.NUM_CARDS)]


def card(c: int) -> dict:
    el, n, star = _CARDS[c]
    return {"el": el, "n": n, "star": star}


def type_card(t: int) -> dict:
    return {"el": data.ELEMENTS[sp.type_element(t)], "n": sp.type_number(t)}


def _event(e: dict) -> dict:
    out = dict(e)
    if "card" in out:
        out["card"] = card(out["card"])
    if "indicator" in out:
        out["indicator"] = card(out["indicator"])
    if "cards" in out:
        out["cards"] = [card(c) for c in out["cards"]]
    return out


def _copy(x):
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copy(v) for v in x]
    return x


def _result(r: dict | None, me: int | None) -> dict | None:
    if r is None:
        return None
    out = _copy(r)  # never hand out the state's own lists
    if "spells" in r:
        out["spells"] = [{"cards": [card(c) for c in sp_["cards"]], "called": sp_["called"]} for sp_ in r["spells"]]
        score = r["score"]
        kind = score["number"]["kind"]
        en, ja = next((e, j) for k, _p, e, j in data.NUMBER_KINDS if k == kind)
        out["score"] = {
            "element": {"element": data.ELEMENTS[score["element"]["element"]], "count": score["element"]["count"],
                        "points": score["element"]["points"],
                        "why": "winner's own element (tsumo)" if r["kind"] == "tsumo"
                        else "the discarder's weakness element (ron)"},
            "number": {"kind": kind, "points": score["number"]["points"], "en": en, "ja": ja},
            "star": dict(score["star"]),
            "catalyst": {"points": score["catalyst"]["points"], "applies": score["catalyst"]["applies"],
                         "cards": [{"card": card(c), "times": k} for c, k in score["catalyst"]["cards"]]},
            "items": score["items"],
            "total": score["total"],
        }
        out["indicators_counted"] = [card(c) for c in r["indicators_counted"]]
    out.pop("dealer_hand", None)  # a tenpai dealer's hand after an exhaustive draw: the dealer only
    if r.get("dealer_hand") is not None and me == r["dealer"]:  # (rules: hands, the owner only)
        out["dealer_hand"] = [card(c) for c in r["dealer_hand"]]
    return out
