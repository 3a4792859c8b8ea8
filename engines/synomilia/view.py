"""The one place that decides what a seat (or a spectator, ``None``) may see of a Synomilia state.

Hidden: the opponent's face-down prediction (and so whether their change was a swap or a bluff)
until it is revealed; during the reveal phase only the first revealer's card is shown — the
second card appears only after the SYSTEM reveal step has been applied (in ``last_bout``).
Everything else (chips, pile faces, markers, available/used cards, plays) is public.

Plays and bout results are codes and numbers (``type``, ``end_condition``, ``reason``, payout
``step``/``due``/``paid``): a client words them in its player's language with the players' names
(the browser's ``static/games/synomilia.js``). Wording them here repeated ~2 KB of bilingual text
in every view of a bout; only the game's final ``result`` carries its texts.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache

from engines.synomilia import data

_FACE = {"s": "sun", "m": "moon"}


def build_view(state, seat: int | None) -> dict:
    """The public view (rendered once per state, shared by every seat and spectator) with this
    seat's own part: who is looking, and their face-down prediction."""
    view = dict(_PUBLIC_MEMO.get(state, _public))
    view["viewer"] = seat  # checked by engine.view
    view["my_prediction"] = state.predictions[seat] if seat is not None else None
    return view


def _public(state) -> dict:
    revealed = [None, None]
    if state.phase == "reveal":
        first = state.first_revealer
        revealed[first] = state.predictions[first]
    end = state.end_condition
    return {
        "game": "synomilia",
        "viewer": None,  # set per seat, in this place of the order
        "phase": state.phase,
        "bout": state.bout,
        "start_player": state.start,
        "turn": state.turn,
        "chips": list(state.chips),
        "pile": [_FACE[f] for f in state.pile],
        "pile_count": len(state.pile),
        "pile_moons": state.pile.count("m"),
        "pile_limit": data.PILE_LIMIT,
        "markers": ["moon" if m else "sun" for m in state.markers],
        "available": [list(a) for a in state.available],
        "used": [[c for c in data.CARDS if c not in a] for a in state.available],
        "predicted": [p is not None for p in state.predictions],
        "my_prediction": None,  # set per seat
        "last_actor": state.last_actor,
        "plays": [_play(s, kind) for s, kind in state.plays],
        "reveal": None if state.phase != "reveal" else {
            "first_revealer": state.first_revealer,
            "cards": revealed,
            "count": len(state.pile),
            "end_condition": end,
            "delay": float(state.options["reveal_delay"]),
        },
        **_BOUTS_MEMO.get(state.history, _finished_bouts),
        "reveal_delay": float(state.options["reveal_delay"]),
        "result": _result(state) if state.phase == "over" else None,
    }


# Memos keyed by identity (states are never changed once made; a state's ``history`` tuple is
# shared by the states of a bout), each entry holding its key object so an id is never reused
# while the entry lives. The public view is the same for every seat of a version and is asked
# for by them one right after the other, so a few hundred recent versions are enough (each entry
# is a dozen lists that would otherwise outlive a young garbage collection: 4,096 of them were
# half the objects every young collection had to scan on a busy server). The finished bouts are
# the same for every version of a bout: a few thousand matches' worth. Bots build views in
# worker threads: changes to a memo take the lock.
# (OrderedDict: dropping the oldest entry is O(1); a plain dict's first key is found by scanning
# past the slots of every entry deleted before it.)
class _Memo:
    """Rendered parts by key identity, the oldest dropped beyond ``size``."""

    def __init__(self, size: int):
        self.size = size
        self.entries: OrderedDict[int, tuple[object, dict]] = OrderedDict()

    def get(self, key, render) -> dict:
        entry = self.entries.get(id(key))
        if entry is not None and entry[0] is key:
            return entry[1]
        rendered = render(key)
        with _MEMO_LOCK:
            if len(self.entries) >= self.size:
                self.entries.popitem(last=False)  # the oldest
            self.entries[id(key)] = (key, rendered)
        return rendered


_MEMO_LOCK = threading.Lock()
_PUBLIC_MEMO = _Memo(256)
_BOUTS_MEMO = _Memo(4096)


def _finished_bouts(history: tuple) -> dict:
    return {
        "last_bout": _bout(history[-1]) if history else None,
        "history": [{"bout": h["bout"], "cards": list(h["cards"]), "count": h["count"],
                     "winner": h["winner"], "reason": h["reason"]} for h in history],
    }


@lru_cache(maxsize=None)  # a handful of (seat, kind) pairs
def _play(seat: int, kind: str) -> dict:
    entry = {"seat": seat, "type": "stack" if kind in data.FACES else kind}
    if kind in data.FACES:
        entry["face"] = kind
    return entry


def _bout(h: dict) -> dict:
    winner = h["winner"]
    lines = [{"step": line["step"], "due": line["due"], "paid": line["paid"], "from": line["from"]}
             for line in h["payout"]]
    return {
        "bout": h["bout"],
        "cards": list(h["cards"]),
        "pile": [_FACE[f] for f in h["pile"]],
        "count": h["count"],
        "moons": h["moons"],
        "start_player": h["start_player"],
        "last_actor": h["last_actor"],
        "first_revealer": h["first_revealer"],
        "end_condition": h["end_condition"],
        "winner": winner,
        "loser": 1 - winner,
        "reason": h["reason"],
        "winner_held": h["winner_held"],
        "payout": lines,
        "received": sum(line["paid"] for line in h["payout"]),
        "chips_after": list(h["chips_after"]),
        "plays": [_play(s, kind) for s, kind in h["plays"]],
    }


def _result(state) -> dict:
    from engines.synomilia.engine import result_text
    a, b = state.chips
    en, ja = result_text(state)
    return {"winner": None if a == b else (0 if a > b else 1), "draw": a == b,
            "chips": [a, b], "game_end": dict(state.game_end), "text_en": en, "text_ja": ja}
