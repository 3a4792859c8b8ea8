"""The one place that decides what a seat (or a spectator, seat None) may see.

Public: characters in play, the missing person, pieces, the Day marker, every revealed row, the
hands of players who left, hand sizes, the auction, who exchanged with whom, suggestions and who
showed, accusations and whether they were right. Private: the own hand; the cards of an exchange
(its two players); a shown card (shower and asker); an accusation's check (the accuser, during the
check: until the next player's turn is over). A player who is out gets the public view (a
spectator's log: the solution stays hidden from them, ruling). The culprit and the location are
shown to everybody only once the game is over.
"""

from __future__ import annotations

from engines.mipolin import data


def build_view(s: dict, seat: int | None, outcome: dict | None) -> dict:
    me = seat  # checked by engine.view
    over = s["phase"] == "over"
    players = []
    for p in range(len(s["hands"])):
        players.append({
            "seat": p,
            "character": s["chars"][p],
            "area": s["area"][p],
            "active": s["active"][p],
            "hand_count": len(s["hands"][p]),
            "row": list(s["rows"][p]),
            "exposed": list(s["exposed"][p]) if s["exposed"][p] is not None else None,
            "left": _left_reason(s, p),
        })
    auction = None
    if s["auction"] is not None:
        auc = s["auction"]
        auction = {"bids": [list(b) for b in auc["bids"]], "high": auc["high"],
                   "high_bidder": auc["high_bidder"], "bidder": s["bidder"]}
    pending = None
    if s["phase"] == "order":
        pending = {"pairs": [list(p) for p in s["pending"]["pairs"]]}
    elif s["phase"] == "show":
        pend = s["pending"]
        pending = {"character": pend["character"], "place": pend["place"],
                   "passed": list(pend["passed"]), "shower": s["shower"], "asker": s["turn"]}
    out = me is not None and not s["active"][me] and not over
    log = [_redact(e, None if out and not _their_check(s["log"], i, me) else me) for i, e in enumerate(s["log"])]
    return {
        "game": "mipolin",
        "seat": me,
        "options": {"suggestions": s["opts"]["suggestions"], "character_choice": s["opts"]["character_choice"]},
        "phase": s["phase"],
        "provisional_dealer": s["pd"],
        "picker": s["picker"],
        "dealer": s["dealer"],
        "order": list(s["order"]) if s["order"] else None,
        "turn": s["turn"],
        "round": s["round"],
        "turns_each": 6,
        "day": s["day"],
        "time_up_day": 6,
        "missing": s["missing"],
        "players": players,
        "hand": list(s["hands"][me]) if me is not None else None,
        "auction": auction,
        "pending": pending,
        "log": log,
        "last": _last_turn_events(log),
        "solution": {"culprit": s["culprit"], "location": s["location"]} if over else None,
        "outcome": outcome,
        "catalog": data.public_catalog(),
    }


def _redact(event: dict, me: int | None) -> dict:
    if "secret" not in event:
        return dict(event)
    out = {k: v for k, v in event.items() if k not in ("secret", "seen_by")}
    if me is not None and me in event["seen_by"]:
        out.update(event["secret"])
        out["private"] = True
    return out


def _their_check(log: list, index: int, seat: int) -> bool:
    """``log[index]`` is ``seat``'s (wrong) accusation and its check is still on: at most the next
    player's turn has begun since (that turn's events are the accuser's time to read what they saw)."""
    event = log[index]
    return (event["kind"] == "accuse" and event["seat"] == seat
            and sum(e["kind"] == "turn" for e in log[index + 1:]) <= 1)


def _left_reason(s: dict, p: int) -> str | None:
    if s["active"][p]:
        return None
    for event in reversed(s["log"]):
        if event["kind"] == "leave" and event["seat"] == p:
            return event["why"]
    return None


def _last_turn_events(log: list) -> list:
    """What just happened: the events of the previous turn and of the current one so far (the whole
    log before the second turn starts)."""
    starts = 0
    for i in range(len(log) - 1, -1, -1):
        if log[i]["kind"] == "turn":
            starts += 1
            if starts == 2:
                return log[i:]
    return log
