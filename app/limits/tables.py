"""Caps on what one host keeps the server busy with: live tables running at once, and bot seats in
live tables not finished, per player and per address (``MAX_RUNNING_TABLES_PER_*``,
``MAX_BOT_SEATS_PER_*`` in app/settings.py). Bots think on threads every table shares; without a
cap one guest could start table after table of strong bots and delay every other table's bots.

Checked in the transaction of the start or the bot's seat, from the database every process of a
cluster shares. On PostgreSQL the checks of one host (and of one address) take a transaction lock
first, so two starts racing in two processes cannot both pass on the same last place. Correspondence
tables are not counted: their bots play a move a day at most."""

from __future__ import annotations

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from app.errors import ApiError
from app.models import Player, Room, RoomSeat
from app.limits.addresses import address_key
from app.security import hash_token
from app.settings import Settings

NOT_FINISHED = ("open", "running")


def address_hash(address: str | None) -> str | None:
    """A host's address as stored with the room: hashed, and counted as the serving layer counts
    its connections (an IPv6 client by its /64, app/limits/addresses.py)."""
    return hash_token(address_key(address) or address) if address else None


def _serialize(session: Session, *keys: str | None) -> None:
    """Wait for other transactions checking the same host or address (PostgreSQL; SQLite writes
    one at a time anyway). Always in the order given (host, then address): no two wait in a circle."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for key in keys:
        if key:
            session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"asobiba-caps:{key}"})


def check_start(session: Session, room: Room, settings: Settings, address: str | None) -> None:
    """Before ``room`` (open, its host's) starts: its host and address run fewer live tables than
    their caps, and their bot seats (this room's included) are within theirs. Records the address."""
    address = address_hash(address)
    room.host_address_hash = address or room.host_address_hash
    if room.pace != "live":
        return
    _serialize(session, room.host_id, address)
    _check_running(session, room.id, room.host_id, address, settings)
    _check_bots(session, room.host_id, address, settings, adding=0)


def check_restart(session: Session, room_id: str, host_id: str, pace: str, host_address_hash: str | None,
                  settings: Settings, bots: int) -> None:
    """Before a finished room plays again (a rematch: its ``bots`` seats no longer count, its room
    being finished): the same caps as at Start, for its host and the address it was started from.
    (Without it a host finished tables of strong bots one by one, then voted a rematch in each.)"""
    if pace != "live":
        return
    _serialize(session, host_id, host_address_hash)
    _check_running(session, room_id, host_id, host_address_hash, settings)
    _check_bots(session, host_id, host_address_hash, settings, adding=bots)


def _check_running(session: Session, room_id: str, host_id: str, address: str | None, settings: Settings) -> None:
    running = [(Room.host_id == host_id, settings.max_running_tables_per_player, "you already run")]
    if address:
        running.append((Room.host_address_hash == address, settings.max_running_tables_per_address,
                        "your address already runs"))
    for where, cap, who in running:
        count = session.scalar(select(func.count()).select_from(Room)
                               .where(where, Room.status == "running", Room.pace == "live", Room.id != room_id)) or 0
        if count >= cap:
            raise ApiError(409, "too_many_tables", f"{who} {count} live tables (at most {cap}): "
                                                   "finish or abort one first")


def check_bot_seat(session: Session, room: Room, settings: Settings, address: str | None) -> None:
    """Before a bot takes a seat of ``room`` (by its host): one more is within the caps. Records the address."""
    address = address_hash(address)
    room.host_address_hash = address or room.host_address_hash
    if room.pace != "live" or room.status not in NOT_FINISHED:
        return
    _serialize(session, room.host_id, address)
    _check_bots(session, room.host_id, address, settings, adding=1)


def _check_bots(session: Session, host_id: str, address: str | None, settings: Settings, adding: int) -> None:
    checks = [(Room.host_id == host_id, settings.max_bot_seats_per_player, "your tables")]
    if address:
        checks.append((Room.host_address_hash == address, settings.max_bot_seats_per_address,
                       "the tables of your address"))
    for where, cap, whose in checks:
        count = session.scalar(select(func.count()).select_from(RoomSeat)
                               .join(Room, Room.id == RoomSeat.room_id).join(Player, Player.id == RoomSeat.player_id)
                               .where(where, Player.is_bot.is_(True), Room.status.in_(NOT_FINISHED),
                                      Room.pace == "live")) or 0
        if count + adding > cap:
            raise ApiError(409, "too_many_bots", f"{whose} already seat {count} bots in live tables not finished "
                                                 f"(at most {cap}): finish a table or remove a bot first")
