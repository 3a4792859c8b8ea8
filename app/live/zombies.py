"""Zombie seats: a seated player away from a running match for longer than the room's grace period
is replaced by the game's bot, which plays their seat until they come back (Board Game Arena's
"zombie" players), so no table hangs on one absent player.

Away means: no socket or stream of theirs is connected to the room, and no REST call of theirs
for the room (view, action) since. The grace period runs from the later of the two. The first
socket, stream or REST call of the player takes the seat back at once. Each replacement is
recorded (``Abandonment``): the player's record counts it, and the match is not rated (the rule
for bot seats, ``app.ratings``). The clock is the hub's, so tests drive it with ``FakeClock``.

A player who *leaves* a running match (``POST /api/rooms/{id}/leave``) is replaced at once, grace
or not, and stays replaced while their old sockets are still open, until they take the seat back
(``join``). Grace 0 means nobody is replaced for being away (only for leaving).

Every replacement and every return is said (``on_notice``: the room's chat and log say "a bot
plays for Aya until she is back" and "Aya is back")."""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from app.models import Abandonment, utcnow

log = logging.getLogger("asobiba.zombies")


class AbsenceWatch:
    def __init__(self, clock, grace: float, on_abandon: Callable[[int, str], Awaitable[None]],
                 on_change: Callable[[], None], on_notice: Callable[[str, int, str], None] | None = None):
        self.clock = clock
        self.grace = grace  # 0 = never replace anyone for being away
        self.on_abandon = on_abandon
        self.on_change = on_change
        self.on_notice = on_notice or (lambda kind, seat, player_id: None)  # "bot_plays" | "back"
        self.humans: dict[int, str] = {}  # seat -> player id of the seated people
        self.left: set[int] = set()  # seats whose player left the match (replaced at once)
        self.away_since: dict[int, float] = {}
        self.zombies: dict[int, str] = {}  # seat -> the player a bot plays for
        # Seats whose abandonment is being written: a change of another seat meanwhile schedules a
        # new expiry, which must not write the same seat's abandonment a second time.
        self._recording: set[int] = set()
        self._task: asyncio.Task | None = None

    def update(self, humans: dict[int, str], present: set[str], running: bool, left: set[int] | frozenset[int] = frozenset()) -> bool:
        """Seats (``humans``: seat -> player id) whose player is in ``present`` are back; others
        are away from now on if they were not already; ``left`` seats are replaced at once. True
        when a zombie seat was taken back."""
        self.humans = dict(humans)
        self.left = set(left) & set(humans)
        if not running:  # nothing to replace: the match is over (no bot plays for anyone now)
            self.stop()
            self.away_since.clear()
            changed = bool(self.zombies)
            self.zombies.clear()
            return changed
        now = self.clock.now()
        changed = False
        for seat in [s for s in list(self.away_since) + list(self.zombies) if s not in humans]:
            self.away_since.pop(seat, None)  # the seat is a bot's now, or empty: nobody came back
            changed |= self.zombies.pop(seat, None) is not None
        for seat, player_id in humans.items():
            if seat in self.left:
                if seat not in self.zombies:
                    self.away_since[seat] = float("-inf")  # due at once
            elif player_id in present:
                changed |= self.back(seat)
            elif self.grace > 0:
                self.away_since.setdefault(seat, now)
            else:  # grace 0: never replaced for being away
                self.away_since.pop(seat, None)
        self._schedule()
        return changed

    def back(self, seat: int, seen: bool = False) -> bool:
        """The seat's player is connected (or, ``seen``, just made a REST call): no longer away,
        or away again from now. True when the seat was a zombie and is taken back. A player who
        left is not back by being connected: they take the seat back by joining again."""
        if seat in self.left:
            return False
        if seen and self.grace > 0:
            self.away_since[seat] = self.clock.now()
            self._schedule()
        else:
            self.away_since.pop(seat, None)
        return self._take_back(seat)

    def _take_back(self, seat: int) -> bool:
        player_id = self.zombies.pop(seat, None)
        if player_id is None:
            return False
        self.on_notice("back", seat, player_id)
        return True

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _schedule(self) -> None:
        self.stop()
        due = [since + self.grace for seat, since in self.away_since.items()
               if seat not in self.zombies and seat not in self._recording and (self.grace > 0 or seat in self.left)]
        if due:
            try:
                self._task = asyncio.get_running_loop().create_task(self._expire_at(min(due)))
            except RuntimeError:  # no loop (synchronous caller at shutdown): nothing to time
                pass

    async def _expire_at(self, when: float) -> None:
        await self.clock.sleep_until(when)
        self._task = None
        expired = [seat for seat in self.away_since if self._expired(seat)]
        self._recording.update(expired)  # (each one's write is awaited: others may change meanwhile)
        try:
            for seat in expired:
                player_id = self.humans.get(seat)
                since = self.away_since.get(seat)
                try:
                    if player_id is None or not self._expired(seat, recording=True):
                        continue  # came back (or went away afresh) while an earlier seat was written
                    await self.on_abandon(seat, player_id)
                except Exception:
                    log.exception("could not record that seat %s was abandoned", seat)
                finally:
                    self._recording.discard(seat)
                # still away after the write, and since the same moment (back and away again: a new grace)
                if player_id is not None and self.away_since.get(seat) == since:
                    self.zombies[seat] = player_id
                    self.on_notice("bot_plays", seat, player_id)
        finally:
            self._recording.difference_update(expired)  # (also when cancelled midway)
        if expired:
            self.on_change()
        self._schedule()

    def _expired(self, seat: int, recording: bool = False) -> bool:
        """Away past the grace (or left), not replaced yet, and not being written (unless by this caller)."""
        since = self.away_since.get(seat)
        if since is None or seat in self.zombies or (seat in self._recording and not recording):
            return False
        return seat in self.left or (self.grace > 0 and self.clock.now() - since >= self.grace)

def record_abandonment(session, match_id: str, player_id: str, seat: int, commit: bool = True) -> None:
    """Called in a worker thread when a bot takes the seat of an absent player. Once per match,
    seat and player, however often they leave and come back (a second writer that got there first
    has recorded it). ``commit`` False: written in the caller's transaction (the host seating a bot
    for a leaver, app/rooms/bots.py), where a row a racing writer committed meanwhile is no error."""
    if not commit:
        insert = (postgresql if session.get_bind().dialect.name == "postgresql" else sqlite).insert
        session.execute(insert(Abandonment).values(match_id=match_id, player_id=player_id, seat=seat, at=utcnow())
                        .on_conflict_do_nothing(index_elements=["match_id", "seat", "player_id"]))
        return
    exists = session.query(Abandonment).filter_by(match_id=match_id, player_id=player_id, seat=seat).first()
    if exists is not None:
        return
    session.add(Abandonment(match_id=match_id, player_id=player_id, seat=seat))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
