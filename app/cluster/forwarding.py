"""Forwarding actions to a room's owner, and applying the actions forwarded to this process.

A mirror's ``submit`` comes here: the action goes to the owner as a ``submit`` request on the
owner's channel, and the owner's answer (the new version, or its refusal with the same error code
as in one process) is the mirror's. With no owner at all, this process may take the room first.
A request whose answer was lost is settled from the log in PostgreSQL."""

from __future__ import annotations

from typing import Callable

from redis.exceptions import RedisError

from app import store
from app.cluster.bus import Bus, RemoteError, Unanswered, Unreachable
from app.cluster.lease import Leases
from app.cluster.messages import SUBMIT, SubmitAnswer, SubmitAsk
from app.cluster.ownership import Ownership
from app.errors import ApiError


class Forwarding:
    def __init__(self, bus: Bus, leases: Leases, db, rooms: dict, ownership: Ownership, owners: dict[str, str],
                 settle: Callable):
        self.bus = bus
        self.leases = leases
        self.db = db
        self.rooms = rooms
        self.ownership = ownership
        self.owners = owners  # room id -> the owner whose views arrived last (shared with the mirrors)
        self.settle = settle  # (live, info): own, mirror or show the room's match (``Placement.settle``)
        bus.serve(SUBMIT, self._serve_submit)

    async def forward(self, room_id: str, seat: int, action, version) -> int:
        try:
            owner = self.owners.get(room_id) or await self.leases.owner(room_id)
            here = owner is None or owner == self.bus.node_id  # no owner now: this process may take the room
            if here:
                live = self.rooms.get(room_id)
                if owner is None and live is not None:
                    await self.settle(live, await self.db.run(store.room_info, room_id))
                if live is None or not self.ownership.owns(room_id):
                    raise ApiError(503, "owner_unavailable", "the server running this match is changing; retry in a moment")
        except (RedisError, OSError):  # nothing was sent or applied yet: the client may retry
            raise ApiError(503, "owner_unavailable",
                           "the server running this match cannot be found right now; retry in a moment") from None
        if here:
            assert live is not None and live.runner is not None, "an owned room runs its match"
            return await live.runner.submit(seat, action, version)
        assert owner is not None  # (not here: another process owns the room)
        try:
            answer = await self.bus.request(owner, SUBMIT, SubmitAsk(room=room_id, seat=seat, action=action,
                                                                     version=version), timeout=10)
        except RemoteError as exc:
            failure = exc.failure
            if failure.code == "not_owner":
                self.owners.pop(room_id, None)  # ask Redis next time
            raise ApiError(failure.status, failure.code, failure.message) from None
        except Unanswered:
            self.owners.pop(room_id, None)
            return await self._settle_unanswered(room_id, seat, action, version)
        except Unreachable:
            self.owners.pop(room_id, None)
            raise ApiError(503, "owner_unavailable",
                           "the server running this match is not answering; retry in a moment") from None
        return answer.version

    async def _settle_unanswered(self, room_id: str, seat: int, action, version) -> int:
        """The owner got a forwarded action but its answer was lost: the log in PostgreSQL says
        whether it was applied. If that version is not there yet, the action may still be in the
        owner's next commit, so the client is told the truth: unknown (its retry at the same
        version cannot apply twice)."""
        live = self.rooms.get(room_id)
        match_id = live.runner.match_id if live is not None and live.runner is not None else None
        entry = await self.db.run(store.log_entry, match_id, version) if match_id and isinstance(version, int) else None
        if entry is not None:
            if entry == (seat, action):
                return version + 1
            raise ApiError(409, "stale_version", f"version {version} was taken by another action; resync")
        raise ApiError(503, "outcome_unknown", "the server running this match did not answer; your action may "
                       "or may not have been applied: resync before acting again")

    async def _serve_submit(self, ask: SubmitAsk) -> SubmitAnswer:
        room_id = ask.room
        live = self.rooms.get(room_id)
        if live is None or not self.ownership.owns(room_id) or self.ownership.leaving or live.runner is None:
            raise ApiError(503, "not_owner", "this server does not run that match any more; retry")
        seated = next((s["player_id"] for s in live.summary_base.get("seats", []) if s["seat"] == ask.seat), None)
        if seated:
            live.seen(seated)  # an action through another process is a sign of life too
        return SubmitAnswer(version=await live.runner.submit(ask.seat, ask.action, ask.version))
