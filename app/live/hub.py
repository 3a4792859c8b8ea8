"""All live rooms of this server process, loaded from the database on demand and at start-up
(running matches are resumed from their action log, their timers restarted)."""

from __future__ import annotations

import asyncio
import json
import logging

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import engines
from app import store
from app.live.room import LiveRoom
from app.live.runner import MatchRunner
from app.models import Match
from app.settings import Settings

log = logging.getLogger("asobiba.hub")


class Hub:
    def __init__(self, settings: Settings, session_factory: sessionmaker[Session], clock):
        self.settings = settings
        self.session_factory = session_factory
        self.clock = clock
        self.rooms: dict[str, LiveRoom] = {}
        self._loading = asyncio.Lock()

    async def room(self, room_id: str) -> LiveRoom:
        """The live room for ``room_id`` (``ApiError`` 404 if there is none)."""
        if room_id in self.rooms:
            return self.rooms[room_id]
        async with self._loading:
            if room_id not in self.rooms:
                self.rooms[room_id] = await asyncio.to_thread(self._load, room_id)
                runner = self.rooms[room_id].runner
                if runner is not None and not runner.finished and runner.status == "running":
                    runner.start_clocks()
                    runner.reschedule()
        return self.rooms[room_id]

    async def refresh(self, room_id: str) -> LiveRoom:
        """Reload seats after a change made through the REST API, and tell every socket."""
        live = await self.room(room_id)
        with self.session_factory() as session:
            live.reload(session)
        live.push_room()
        return live

    async def attach_match(self, room_id: str, match: Match) -> MatchRunner:
        live = await self.refresh(room_id)
        engine = engines.get(match.game)
        runner = MatchRunner(live, match.id, match.game, match.seed, len(match.seats),
                             engine.state_from_json(match.state), match.version, match.options)
        live.runner = runner
        runner.start_clocks()
        live.push_views()
        runner.reschedule()
        return runner

    async def resume_running(self) -> int:
        """Load every running match (after a restart) so its timers and bots go on."""
        with self.session_factory() as session:
            room_ids = list(session.scalars(select(Match.room_id).where(Match.status == "running")))
        for room_id in room_ids:
            await self.room(room_id)
        return len(room_ids)

    def forget_if_idle(self, room_id: str) -> None:
        """Drop a room nobody watches and nothing runs in; it is reloaded from the database on demand."""
        live = self.rooms.get(room_id)
        if live and not live.connections and (live.runner is None or live.runner.finished):
            del self.rooms[room_id]

    def shutdown(self) -> None:
        for live in self.rooms.values():
            if live.runner:
                live.runner.stop()

    def _load(self, room_id: str) -> LiveRoom:
        live = LiveRoom(self, room_id)
        with self.session_factory() as session:
            live.reload(session)
            room = store.get_room(session, room_id)
            if room.match_id:
                match = session.get(Match, room.match_id)
                log_rows = store.match_log(session, match.id)
                state = store.replay_state(match, log_rows)
                engine = engines.get(match.game)
                if json.loads(json.dumps(engine.state_to_json(state))) != match.state:
                    log.error("match %s: replayed state differs from the stored snapshot; using the replay", match.id)
                live.runner = MatchRunner(live, match.id, match.game, match.seed, len(match.seats), state,
                                          len(log_rows), match.options, status=match.status)
        return live
