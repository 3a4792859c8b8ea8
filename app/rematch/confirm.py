"""Confirming a rematch, the same from REST (``POST /api/rooms/{id}/rematch``) and from the live
socket (``{"type": "rematch"}``, no request of its own): the vote as one of the live path's short
writes (``Hub.write``), the new match handed to the live room when the vote completed the set,
and every socket of the room told who has confirmed (``{"type": "rematch", ...}``)."""

from __future__ import annotations

from app.rematch import service
from app.rematch.service import RematchState


async def confirm(hub, room_id: str, player_id: str) -> RematchState:
    """``player_id``'s yes; raises ``ApiError`` (nothing changed) like ``service.vote``."""
    live = await hub.room(room_id)  # loaded before the vote, so the new match gets the only runner
    current, started = await hub.write(service.vote, room_id, player_id, hub.settings)
    if started is not None:
        await hub.attach_match(room_id, started.match.id, started)
    live.push_to({"type": "rematch", **current.as_dict()})
    return current
