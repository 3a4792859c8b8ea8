"""A running match in memory: its state, version, the one-at-a-time apply path, and the timers
for steps nobody types (SYSTEM steps after their delay, clocks running out, bots thinking).

Every action, whoever takes it, goes through ``submit``: checked, applied by the engine,
committed to the database, and only then pushed to the sockets."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from typing import TYPE_CHECKING

import engines
from app import store
from app.errors import ApiError
from engines.bots import get as get_bot
from engines.protocol import SYSTEM, IllegalAction, InvalidAction

if TYPE_CHECKING:
    from app.live.room import LiveRoom

log = logging.getLogger("asobiba.runner")


class MatchRunner:
    def __init__(self, room: "LiveRoom", match_id: str, game: str, seed: int, num_players: int,
                 state, version: int, options: dict, status: str = "running"):
        self.room = room
        self.match_id = match_id
        self.engine = engines.get(game)
        self.seed = seed
        self.num_players = num_players
        self.options = options
        self.state = state
        self.version = version
        # "running", or "aborted" when an admin stopped the match (then it takes no more actions).
        self.status = status
        self.history: deque[tuple[int, object]] = deque([(version, state)], maxlen=room.hub.settings.resync_window + 1)
        self.lock = asyncio.Lock()
        self.deadlines: dict[int, float] = {}
        self._timers: list[asyncio.Task] = []

    # --- reading ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return not self.engine.awaiting(self.state)

    def message(self, seat: int | None, state=None, version: int | None = None) -> dict:
        """The ``view`` message for one seat (None = spectator), computed for that seat only."""
        state = self.state if state is None else state
        version = self.version if version is None else version
        awaiting = sorted(self.engine.awaiting(state))
        legal = self.engine.legal_actions(state, seat) if seat is not None and seat in awaiting else []
        return {
            "type": "view", "version": version, "seat": seat, "match_id": self.match_id,
            "view": self.engine.view(state, seat), "awaiting": awaiting, "legal_actions": legal,
            "deadlines": {str(s): int(t * 1000) for s, t in self.deadlines.items()} if state is self.state else {},
            "outcome": self.engine.outcome(state),
        }

    def missed_messages(self, seat: int | None, since: int) -> list[dict] | None:
        """Views for versions after ``since``, or None when they are no longer kept (full resync)."""
        kept = [(v, s) for v, s in self.history if v > since]
        if since > self.version or not kept or kept[0][0] != since + 1:
            return None
        return [self.message(seat, s, v) for v, s in kept]

    # --- the apply path ----------------------------------------------------------------------

    async def submit(self, seat: int, action, version: int | None) -> int:
        """Apply one action for ``seat``; returns the new version. Raises ``ApiError`` and changes
        nothing when the action is refused."""
        async with self.lock:
            if self.finished or self.status != "running":
                raise ApiError(409, "match_over", f"the match is {'over' if self.finished else self.status}; no more actions are taken")
            if version is not None and version != self.version:
                raise ApiError(409, "stale_version",
                               f"version {version} is stale: the match is at version {self.version}; resync")
            awaited = self.engine.awaiting(self.state)
            if seat != SYSTEM and seat not in awaited:
                raise ApiError(409, "not_your_turn",
                               f"seat {seat} is not awaited now (awaiting {sorted(s for s in awaited if s >= 0)})")
            if not isinstance(action, dict):
                raise ApiError(400, "invalid_action", f"an action must be a JSON object, not {type(action).__name__}")
            try:
                new_state = self.engine.apply(self.state, seat, action)
            except InvalidAction as exc:
                raise ApiError(400, "invalid_action", str(exc)) from None
            except IllegalAction as exc:
                raise ApiError(422, "illegal_action", str(exc)) from None
            except Exception:
                log.exception("engine %s failed on an action in match %s", self.engine.id, self.match_id)
                raise ApiError(422, "illegal_action", "the action could not be applied") from None
            outcome = self.engine.outcome(new_state)
            await asyncio.to_thread(store.record_action, self.room.hub.session_factory, self.match_id,
                                    self.version, seat, action, self.engine.state_to_json(new_state), outcome)
            before = self.engine.awaiting(self.state)
            self.state = new_state
            self.version += 1
            self.history.append((self.version, new_state))
            # A clock timeout (SYSTEM acting for a seat) counts as that seat's move: its next clock is fresh.
            acted = action.get("seat", seat) if seat == SYSTEM else seat
            self._update_deadlines(before, acted)
            self.room.push_views()
            if outcome is not None:
                self.room.on_match_finished()
            self.reschedule()
            return self.version

    # --- timers ------------------------------------------------------------------------------

    def reschedule(self) -> None:
        """Cancel pending timers and start the ones the current state calls for."""
        for task in self._timers:
            task.cancel()
        self._timers = []
        awaited = self.engine.awaiting(self.state)
        if not awaited:
            return
        clock = self.room.hub.clock
        version = self.version
        if SYSTEM in awaited:
            delay = float(self.engine.delay(self.state)) if hasattr(self.engine, "delay") else 0.0
            action = self.engine.legal_actions(self.state, SYSTEM)[0]
            self._start(self._at(clock.now() + delay, SYSTEM, action, version))
            return
        for seat in sorted(awaited):
            if seat in self.room.bot_seats:
                self._start(self._bot_move(seat, version, clock.now() + self.room.bot_think_seconds))
            elif seat in self.deadlines:
                action = self.engine.on_timeout(self.state, seat)
                actor = seat if action in self.engine.legal_actions(self.state, seat) else SYSTEM
                self._start(self._at(self.deadlines[seat], actor, action, version))

    def stop(self) -> None:
        for task in self._timers:
            task.cancel()
        self._timers = []

    def _start(self, coroutine) -> None:
        self._timers.append(asyncio.create_task(coroutine))

    async def _at(self, when: float, seat: int, action: dict, version: int) -> None:
        await self.room.hub.clock.sleep_until(when)
        await self._submit_quietly(seat, action, version)

    async def _bot_move(self, seat: int, version: int, when: float) -> None:
        await self.room.hub.clock.sleep_until(when)
        if version != self.version:
            return
        view = self.engine.view(self.state, seat)
        legal = self.engine.legal_actions(self.state, seat)
        if not legal:
            return
        try:
            policy = get_bot(self.engine.id)
        except ValueError:
            policy = None
        rng = random.Random(f"{self.seed}:{version}:{seat}")
        action = policy(view, legal, rng) if policy else rng.choice(legal)
        await self._submit_quietly(seat, action, version)

    async def _submit_quietly(self, seat: int, action: dict, version: int) -> None:
        try:
            await self.submit(seat, action, version)
        except ApiError as exc:
            if exc.code not in ("stale_version", "match_over", "not_your_turn"):
                log.warning("automatic action for seat %s refused in match %s: %s", seat, self.match_id, exc.message)
        except Exception:
            log.exception("automatic action failed in match %s", self.match_id)

    def _update_deadlines(self, awaited_before: frozenset, actor: int) -> None:
        """A seat's clock starts when it becomes awaited (or is awaited again right after acting)."""
        if not hasattr(self.engine, "clock_seconds"):
            return
        now = self.room.hub.clock.now()
        awaited = self.engine.awaiting(self.state)
        deadlines = {}
        for seat in awaited:
            if seat < 0:
                continue
            seconds = self.engine.clock_seconds(self.state, seat)
            if not seconds:
                continue
            fresh = seat not in awaited_before or seat == actor or seat not in self.deadlines
            deadlines[seat] = now + seconds if fresh else self.deadlines[seat]
        self.deadlines = deadlines

    def start_clocks(self) -> None:
        """Clocks for the current state as if every awaited seat just became awaited (start, resume)."""
        self.deadlines = {}
        self._update_deadlines(frozenset(), SYSTEM)
