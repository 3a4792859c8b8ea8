"""The room's paths for REST: each checks what needs no database, runs its transaction (``table``,
``seating``, ``start``, ``bots``) in a database worker under the room's lock (``hub.lock``), so
racing requests for one room are applied one at a time while other rooms go on, then tells the
hub, and returns the room's summary (what everyone in the room is sent)."""

from __future__ import annotations

import json
from typing import Any

from app.db import Database
from app.endings.next_table import open_next
from app.errors import ApiError
from app.limits.tables import address_hash
from app.live.hub import Hub
from app.rematch.confirm import confirm as confirm_rematch
from app.rooms import bots, seating, start, table
from app.rooms.checks import acting_seat, require_started
from app.schemas import NewRoom, RoomSettings
from app.settings import Settings


async def create_room(hub: Hub, db: Database, settings: Settings, player_id: str, body: NewRoom,
                      address: str | None) -> dict:
    """A new room hosted by ``player_id`` (``address``: their client address, kept hashed)."""
    engine = table.game_of(body.game)
    seats = body.seats if body.seats is not None else engine.min_players
    table.check_table(engine, seats, body.options)
    table.check_timing(engine, body.options, body.grace_seconds, settings.min_grace_seconds)
    room_id = await db.run(table.create, player_id, engine, seats, body, settings, address_hash(address))
    return (await hub.refresh(room_id)).summary()


async def change_room(hub: Hub, db: Database, room_id: str, player_id: str, body: RoomSettings) -> dict:
    async with hub.lock(room_id):
        await db.run(table.change, room_id, player_id, body)
        return (await hub.refresh(room_id)).summary()


async def join_room(hub: Hub, room_id: str, player_id: str, wanted: int | None) -> dict:
    async with hub.lock(room_id):
        await hub.write(seating.join, room_id, player_id, wanted)  # (on SQLite one at a time with renames: Hub.write)
        live = await hub.refresh(room_id)
        live.seen(player_id)  # back in a running match: a bot that played for them gives the seat back
        return live.summary()


async def leave_room(hub: Hub, db: Database, room_id: str, player_id: str) -> dict:
    async with hub.lock(room_id):
        await db.run(seating.leave, room_id, player_id)
        return (await hub.refresh(room_id)).summary()


async def start_room(hub: Hub, db: Database, settings: Settings, room_id: str, player_id: str,
                     address: str | None) -> dict:
    async with hub.lock(room_id):
        match_id = await db.run(start.start, room_id, player_id, settings, address)
        await hub.attach_match(room_id, match_id)
        live = await hub.room(room_id)
        live.seen(player_id)  # a host who starts over REST is at the table (app/live/attendance.py)
        return live.summary()


async def add_bot(hub: Hub, db: Database, settings: Settings, room_id: str, player_id: str, wanted: int | None,
                  level: str, address: str | None) -> dict:
    """Seat a bot (``bots.seat_bot``). After a match the bot says yes to the rematch at once, and so
    does the host by choosing it; during one, the runner is told, so the bot acts if it is awaited."""
    live = await hub.room(room_id)
    online = {connected for connected in live.connection_counts() if connected}
    async with hub.lock(room_id):
        await db.run(bots.seat_bot, room_id, player_id, wanted, level, online, settings, address)
        live = await hub.refresh(room_id)
        if live.summary_base.get("status") == "finished":
            await confirm_rematch(hub, room_id, player_id)  # the bot's yes and the host's
            return (await hub.room(room_id)).summary()
        if live.runner is not None:
            # Under the runner's lock, so no automatic step is cancelled half-way through its commit.
            async with live.runner.lock:
                live.runner.reschedule()
        return live.summary()


async def remove_bot(hub: Hub, db: Database, room_id: str, player_id: str, seat: int) -> dict:
    async with hub.lock(room_id):
        await db.run(bots.unseat_bot, room_id, player_id, seat)
        return (await hub.refresh(room_id)).summary()


async def next_table(hub: Hub, db: Database, settings: Settings, room_id: str, player_id: str, game: str | None,
                     options: dict | None, seats: int | None) -> dict:
    """A new table with the same people (``open_next``): every socket of the old room learns where
    the table went; the new room's summary."""
    live = await hub.room(room_id)
    online = {connected for connected in live.connection_counts() if connected}
    async with hub.lock(room_id):
        new_id = await db.run(open_next, room_id, player_id, online, game, options, seats,
                              settings.max_open_rooms_per_player)
        await hub.refresh(room_id)  # every socket of the old room learns where the table went
    return (await hub.refresh(new_id)).summary()


async def view(hub: Hub, room_id: str, player_id: str | None) -> dict:
    """The caller's view of the match (a spectator's for ``None``)."""
    live = await hub.current_room(room_id)
    runner = require_started(live)
    if player_id is not None:
        live.seen(player_id)  # a REST-only player is present while they call (zombie seats)
    await runner.caught_up()  # in a cluster: what the owner has now, not what reached this process
    return require_started(live).current(live.seat_of(player_id)).message  # (the room's match now)


async def act(hub: Hub, room_id: str, player_id: str, action: dict, version: int) -> dict:
    """Submit the caller's action; their new view."""
    live = await hub.current_room(room_id)
    seat, runner = acting_seat(live, player_id)
    live.seen(player_id)
    await runner.submit(seat, action, version)
    return require_started(live).current(seat).message  # (the room's match now)


async def seat_data(db: Database, room_id: str, player_id: str) -> dict[str, Any]:
    return await db.run(seating.seat_data, room_id, player_id)


async def save_seat_data(db: Database, settings: Settings, room_id: str, player_id: str,
                         data: dict[str, Any]) -> dict[str, Any]:
    """A private JSON object kept with the caller's seat (e.g. a deduction notebook)."""
    if len(json.dumps(data)) > settings.max_frame_bytes:
        raise ApiError(413, "too_large", f"seat data is limited to {settings.max_frame_bytes} bytes")
    await db.run(seating.save_seat_data, room_id, player_id, data)
    return data
