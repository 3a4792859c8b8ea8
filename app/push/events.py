"""Which notifications a match's changes make, decided by the process that runs the match (the
``MatchRunner``'s hook: a cluster's owner, never a mirror) and by the process that stored a chat
message. Each event is queued once (``Notifier.notify``); who receives it:

- ``your_turn``: a seated person whose seat became awaited with a real decision (not only
  "pass": the Three Magic call window with nothing to call is no turn, as on the page), who has
  no socket open at that table (someone looking at the table has its own cues); and, said as a
  proposal to answer (``extra["answer"]``), one whose answer an abort or a teammate's
  concession now waits for (``platform.owing``: a decision of theirs too, under the same setting);
- ``match_ended``: every seated person not at the table now (a bot's absent player included);
- ``chat_mention``: a seated person named "@name" by another seated person (a spectator's message
  pushes nothing: anyone may watch a table, and each push spends the recipient's throttle) in a
  message they may read (team chat: only the team), not at the table now;
- ``hours_left``: the correspondence deadline's hook (``hours_left``).
Bots are never notified."""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable, Iterable

from app.endings import actions as platform
from app.live.room import LiveRoom
from app.push.texts import Event


log = logging.getLogger("asobiba.push")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


class MatchEvents:
    """The notification hook of one running match (``MatchRunner.events``)."""

    def __init__(self, notifier, room_id: str, room: Callable[[], LiveRoom | None]):
        self.notifier = notifier
        self.room_id = room_id
        self.room = room  # the live room now (seats, presence), or None
        self._owing: frozenset[int] = frozenset()  # seats an open proposal waited for, last version

    def started(self, runner) -> None:
        """The match just started here: its first awaited seats are told."""
        self.advanced(runner, frozenset(), False)

    def advanced(self, runner, before: frozenset[int], ended: bool) -> None:
        """Called on the apply path after each committed version: cheap when nobody new is
        awaited, and never lets a failure here reach the move (it is logged)."""
        table = runner.table
        if not ended and not (runner.awaited - before) and not (table.abort_votes or table.resign_votes or self._owing):
            return
        try:
            self._advanced(runner, before, ended)
        except Exception:
            log.exception("notifications of match %s failed", getattr(runner, "match_id", "?"))

    def _advanced(self, runner, before: frozenset[int], ended: bool) -> None:
        live = self.room()
        if live is None:
            return
        humans = _humans(live)
        online = _online(live)
        away = {seat: pid for seat, pid in humans.items() if pid not in online}
        if ended:
            self.notifier.notify(away.values(), Event("match_ended", self.room_id, runner.engine.id))
            return
        bots = set(live.bot_seats) | set(live.zombie_seats())
        for seat in sorted(runner.awaited - before):
            if seat in away and seat not in bots and _decides(runner, seat):
                self.notifier.notify([away[seat]], Event("your_turn", self.room_id, runner.engine.id))
        table = runner.table
        owing = platform.owing(table, runner.platform.seats()) if table.abort_votes or table.resign_votes else frozenset()
        for seat in sorted(owing - self._owing):  # asked now: told once per proposal
            if seat in away and seat not in bots:
                kind = "abort" if table.abort_votes and seat not in table.abort_votes else "resign"
                self.notifier.notify([away[seat]], Event("your_turn", self.room_id, runner.engine.id, {"answer": kind}))
        self._owing = owing


def hours_left(notifier, live, game: str, seats: Iterable[int]) -> None:
    """The correspondence clock of ``seats`` has 12 hours left (called by the deadline's owner)."""
    humans = _humans(live)
    players = [humans[seat] for seat in seats if seat in humans and seat not in live.bot_seats]
    notifier.notify(players, Event("hours_left", live.id, game))


def chat_mentions(notifier, live, sender_id: str, sender: str, text: str, seats: set[int] | None) -> None:
    """"@name" of a seated person by a seated person (``seats``: those who may read the message,
    None = everyone); a spectator's mention is shown in the chat but pushes nothing."""
    if "@" not in text:
        return
    humans = _humans(live)
    if sender_id not in humans.values():
        return
    folded = _fold(text)
    online = _online(live)
    names = {s["player_id"]: s.get("name") or "" for s in live.summary_base.get("seats", [])
             if s.get("player_id") and not s.get("bot")}
    mentioned = [pid for seat, pid in humans.items()
                 if pid != sender_id and pid not in online and (seats is None or seat in seats)
                 and names.get(pid) and "@" + _fold(names[pid]) in folded]
    if mentioned:
        game = live.summary_base.get("game", "")
        notifier.notify(mentioned, Event("chat_mention", live.id, game, {"name": sender or "?", "text": text}))


def _humans(live) -> dict[int, str]:
    return {s["seat"]: s["player_id"] for s in live.summary_base.get("seats", [])
            if s.get("player_id") and not s.get("bot")}


def _online(live) -> set[str]:
    return {pid for pid in live.connection_counts() if pid}


def _decides(runner, seat: int) -> bool:
    """Whether ``seat`` has a real decision: some legal action other than passing."""
    try:
        legal = runner.engine.legal_actions(runner.state, seat)
    except Exception:
        return True
    return not legal or any(not (isinstance(a, dict) and a.get("type") == "pass") for a in legal)
