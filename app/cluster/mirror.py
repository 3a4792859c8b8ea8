"""A running match owned by another process, as this process's sockets see it.

The owner encodes each seat's view once per version and publishes them all in one message on the
room's channel; a ``MirrorMatch`` keeps the latest ones (and the last ``resync_window`` versions
for reconnecting clients) and hands each socket its own seat's text, exactly as a local
``MatchRunner`` would. Actions are forwarded to the owner (``forward``), which applies and commits
them; the mirror changes only when the owner's views arrive. It runs no timers: the owner does."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Awaitable, Callable

import engines
from app import json_codec
from app.cluster.messages import seat_key
from app.errors import ApiError
from app.live.wire import Encoded

Forward = Callable[[int, object, "int | None"], Awaitable[int]]


class MirrorMatch:
    """A ``Match`` (app/live/match.py) that runs in another process: it composes the owner's
    views and a way to forward actions to the owner."""

    def __init__(self, match_id: str, game: str, num_players: int, forward: Forward, resync_window: int = 64,
                 on_behind: Callable[[], None] | None = None,
                 catch_up: Callable[[], Awaitable[None]] | None = None):
        self.match_id = match_id
        self.engine = engines.get(game)
        self.num_players = num_players
        self.forward = forward
        # Called when a client syncs from our version or later: a message may have been missed.
        self.on_behind = on_behind
        # Asks the owner for its current views (``caught_up``): published views arrive a moment later.
        self.catch_up = catch_up
        self.state = None  # the state lives with the owner
        self.status = "running"
        self.version = -1  # nothing received yet
        self.listener = None
        self.bot_seats: set[int] = set()
        self.bot_levels: dict[int, str] = {}
        self.zombie_seats: set[int] = set()
        self.bot_think_seconds = 0.0
        self.unattended = False
        self.lock = asyncio.Lock()
        self.closing = False
        self.events = None  # the owner notifies, never a mirror
        self.deadlines: dict = {}
        self._texts: dict[str, str] = {}
        self._encoded: dict[str, Encoded] = {}
        self.history: deque[tuple[int, dict[str, str]]] = deque(maxlen=resync_window + 1)

    # --- from the owner ----------------------------------------------------------------------

    def receive(self, version: int, texts: dict[str, str], restart: bool = False, refreshed: bool = False) -> bool:
        """Take the owner's views of ``version``; False (ignored) if not newer than what we have.
        ``restart``: a new owner's first views, or the first after a gap (history starts over).
        ``refreshed``: the current version's views again, changed (their deadlines moved)."""
        if refreshed and version == self.version and self._texts:
            self._texts, self._encoded = texts, {}
            if self.history and self.history[-1][0] == version:
                self.history[-1] = (version, texts)
            if self.listener is not None:
                self.listener.on_advanced(self)
            return True
        if version <= self.version and not (restart and version == self.version and not self._texts):
            return False
        if restart or version != self.version + 1:
            self.history.clear()
        was_finished = self.finished if self._texts else False
        self.version = version
        self._texts = texts
        self._encoded = {}
        self.history.append((version, texts))
        if self.listener is not None:
            self.listener.on_advanced(self)
            if self.finished and not was_finished:
                self.listener.on_finished(self)
        return True

    @property
    def ready(self) -> bool:
        return bool(self._texts)

    # --- what the room and routers read --------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.ready and self.current(None).message.get("outcome") is not None

    def current(self, seat: int | None) -> Encoded:
        if not self._texts:
            raise ApiError(503, "owner_unavailable", "the server running this match is changing; retry in a moment")
        key = seat_key(seat)
        text = self._texts.get(key)
        if text is None:
            raise ApiError(422, "bad_seat", f"seat {seat} does not exist in this match")
        encoded = self._encoded.get(key)
        if encoded is None:
            encoded = self._encoded[key] = Encoded(text=text)  # decoded only if a field is read
        return encoded

    def message(self, seat: int | None, state=None, version: int | None = None) -> dict:
        return self.current(seat).message

    def missed_views(self, seat: int | None, since: int) -> list[Encoded] | None:
        """Views after ``since`` if every one of them is kept here, else None (full resync): the
        owner's texts as they came, never decoded or encoded again."""
        if since >= self.version and self.on_behind is not None:
            self.on_behind()
        kept = [texts for version, texts in self.history if version > since]
        first = self.version - len(kept) + 1
        if since > self.version or not kept or first != since + 1:
            return None
        return [Encoded(text=texts[seat_key(seat)]) for texts in kept]

    def missed_messages(self, seat: int | None, since: int) -> list[dict] | None:
        """``missed_views`` decoded (what a reader of the messages sees)."""
        views = self.missed_views(seat, since)
        return None if views is None else [json_codec.loads(view.text) for view in views]

    async def submit(self, seat: int, action, version: int | None) -> int:
        applied = await self.forward(seat, action, version)
        if self.version < applied:  # the owner's views of it are still on their way here
            await self.caught_up()
        return applied

    async def caught_up(self) -> None:
        if self.catch_up is not None:
            await self.catch_up()

    # --- what a runner does and a mirror does not -----------------------------------------------

    def start_clocks(self) -> None:
        pass

    def reschedule(self) -> None:
        pass

    def stop(self) -> None:
        pass

    async def reload_deadlines(self) -> None:
        pass
