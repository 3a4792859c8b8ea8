"""A live room in a cluster: the same room, with its presence counted over every process and its
pushes shared through the room's Redis channel.

The process that owns the room's match publishes each new version's views (``ownership``);
every process, the owner included, delivers to its own sockets only, each socket its own seat's
text. Chat and other room-wide messages are published too, and joins and leaves (of sockets and
NDJSON streams alike) are announced so every process's summary counts everyone's. The room does
not know whether its match runs here or is mirrored: it pushes what the match gives it."""

from __future__ import annotations

import weakref
from typing import Callable

from app.cluster.bus import Bus
from app.cluster.messages import RoomMessage, ToSockets, ZombieSeats, dump
from app.cluster.presence import Presence
from app.live.room import LiveRoom


class ClusterRoom(LiveRoom):
    def __init__(self, bus: Bus, presence: Presence, later: Callable, room_id: str, settings):
        super().__init__(room_id, settings)
        self.bus = bus
        self.presence = presence
        self.later = later  # runs a coroutine in the background (``Background.later``)
        self.channel = bus.key("room", room_id)
        self.connections = _Announced(self)
        self.remote_zombies: set[int] = set()  # the owner's zombie seats, as it last said (not owner)

    # --- zombie seats: decided by the owner, shown by every process -----------------------------

    def zombie_seats(self) -> set[int]:
        return super().zombie_seats() if self.absence is not None else set(self.remote_zombies)

    def zombies_changed(self) -> None:
        super().zombies_changed()
        if self.absence is not None:
            self.publish(ZombieSeats(seats=sorted(self.zombie_seats())))

    def heard_zombies(self, seats) -> None:
        if self.absence is None and isinstance(seats, list):
            seats = {s for s in seats if isinstance(s, int)}
            if seats != self.remote_zombies:
                self.remote_zombies = seats
                self.push_room()

    # --- presence over processes ---------------------------------------------------------------

    def connection_counts(self):
        return self.presence.connected(self.id)

    def _announce(self, player_id: str | None, delta: int) -> None:
        self.presence.change(self.id, player_id, delta)
        self.later(self.presence.announce(self.id, self.publish))

    # --- pushes through Redis ------------------------------------------------------------------

    def publish(self, message: RoomMessage) -> None:
        """Send ``message`` to every process that holds the room (this one ignores its own)."""
        self.bus.publish(self.channel, dict(dump(message), node=self.bus.node_id))

    def push_to(self, message: dict, seats: set[int] | None = None, local_only: bool = False) -> None:
        super().push_to(message, seats)
        if not local_only:
            self.publish(ToSockets(message=message, seats=sorted(seats) if seats is not None else None))


class _Announced(set):
    """The room's sockets and streams: adding or removing one is announced to the other processes."""

    def __init__(self, room: ClusterRoom):
        super().__init__()
        self._room = weakref.ref(room)  # (the room holds this set: no reference cycle)

    def add(self, connection) -> None:
        if connection not in self:
            super().add(connection)
            self._announce(connection.player_id, +1)

    def discard(self, connection) -> None:
        if connection in self:
            super().discard(connection)
            self._announce(connection.player_id, -1)

    def _announce(self, player_id: str | None, change: int) -> None:
        room = self._room()
        if room is not None:
            room._announce(player_id, change)

    def remove(self, connection) -> None:
        if connection not in self:
            raise KeyError(connection)
        self.discard(connection)
