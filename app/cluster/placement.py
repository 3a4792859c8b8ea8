"""Where a room's match runs, as seen from this process: here (it takes the room's lease and owns
the match: a ``MatchRunner``) or in another process (it mirrors it: a ``MirrorMatch``). ``settle``
places the match and returns it; callers use it as a ``Match`` (app/live/match.py) and never ask
which of the two it is."""

from __future__ import annotations

import logging
from typing import Callable

from app import store
from app.cluster.lease import Leases
from app.cluster.mirroring import Mirrors
from app.cluster.ownership import Ownership

log = logging.getLogger("asobiba.cluster")


class Placement:
    def __init__(self, db, leases: Leases, ownership: Ownership, mirrors: Mirrors, make_runner: Callable):
        self.db = db
        self.leases = leases
        self.ownership = ownership
        self.mirrors = mirrors
        self.make_runner = make_runner  # (match) -> MatchRunner, for a match that is over

    async def settle(self, live, info):
        """Own, mirror or just show the room's match, as the room's status (``info``) says;
        returns the room's match (None before one started)."""
        if not info.match_id:
            return live.runner
        if info.status != "running":  # over: nothing will change, any process shows it
            if live.runner is None or self.mirrors.holds(live):
                live.attach(self.make_runner(await self.db.run(store.load_match, info.match_id)))
            return live.runner
        if self.ownership.owns(live.id) and live.runner is not None:
            return live.runner
        if not self.ownership.leaving and await self.leases.acquire(live.id):  # (a leaving process takes nothing)
            await self.ownership.take(live, info.match_id)
        elif not self.mirrors.holds(live):
            await self.mirrors.mirror(live, info.match_id, info.game, info.num_seats)
        return live.runner

    async def step_down(self, live) -> None:
        """This process's lease of the room is gone (another took it): stop at once, mirror it."""
        self.ownership.give_up(live.id)
        if live.runner is not None:
            live.runner.stop()
        if live.absence is not None:
            live.absence.stop()
            live.absence = None
        log.warning("process %s lost room %s", self.mirrors.bus.node_id, live.id)
        info = await self.db.run(store.room_info, live.id)
        live.runner = None
        await self.settle(live, info)
