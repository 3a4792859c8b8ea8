"""Room chat for players and spectators, and team chat in team games (only that team's sockets).

Messages are stored with the room, length-limited, rate-limited per sender, and always sent as
plain text fields (clients render them with textContent, never as HTML)."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict, deque
from datetime import timezone

from sqlalchemy import select

from app.errors import ApiError
from app.live.connection import Connection
from app.live.room import LiveRoom
from app.models import ChatMessage, Player

HISTORY = 50
_recent: dict[tuple[str, str], deque[float]] = defaultdict(deque)


def team_of(live: LiveRoom, seat: int | None) -> int | None:
    teams = live.runner.engine.view(live.runner.state, None).get("teams") if live.runner else None
    if seat is None or not teams:
        return None
    return next((i for i, team in enumerate(teams) if seat in team), None)


def team_seats(live: LiveRoom, team: int) -> set[int]:
    return set(live.runner.engine.view(live.runner.state, None)["teams"][team])


async def handle_chat(live: LiveRoom, connection: Connection, message: dict) -> None:
    settings = live.hub.settings
    if connection.player_id is None:
        raise ApiError(403, "not_allowed", "spectators without a name cannot chat: create a player first")
    text = message.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "malformed", 'a chat message needs a non-empty "text"')
    text = text.strip()  # the limit applies to what is stored and shown
    if len(text) > settings.chat_max_chars:
        raise ApiError(413, "too_large", f"chat messages are limited to {settings.chat_max_chars} characters")
    channel = message.get("channel", "room")
    seats = None
    if channel == "team":
        team = team_of(live, live.seat_of(connection.player_id))
        if team is None:
            raise ApiError(403, "no_team", "team chat is only for seated players of a team game")
        channel = f"team:{team}"
        seats = team_seats(live, team)
    elif channel != "room":
        raise ApiError(400, "malformed", f"unknown chat channel {channel!r}; use 'room' or 'team'")
    _check_rate(live.id, connection.player_id, settings.chat_rate_per_10s)
    stored = await asyncio.to_thread(_store, live, connection.player_id, channel, text)
    live.push_to({"type": "chat", "message": stored}, seats)


async def send_history(live: LiveRoom, connection: Connection) -> None:
    """The last messages this socket may read (room channel, plus its own team's)."""
    team = team_of(live, live.seat_of(connection.player_id))
    channels = ["room"] + ([f"team:{team}"] if team is not None else [])
    messages = await asyncio.to_thread(_history, live, channels)
    if messages:
        connection.send({"type": "chat_history", "messages": messages})


def _check_rate(room_id: str, player_id: str, per_10s: int) -> None:
    now = time.monotonic()
    recent = _recent[(room_id, player_id)]
    while recent and now - recent[0] > 10:
        recent.popleft()
    if len(recent) >= per_10s:
        raise ApiError(429, "rate_limited", f"at most {per_10s} chat messages per 10 seconds")
    recent.append(now)


def _store(live: LiveRoom, player_id: str, channel: str, text: str) -> dict:
    with live.hub.session_factory() as session:
        row = ChatMessage(room_id=live.id, player_id=player_id, channel=channel, text=text)
        session.add(row)
        session.commit()
        name = session.get(Player, player_id).name
        return _as_dict(row, name)


def _history(live: LiveRoom, channels: list[str]) -> list[dict]:
    with live.hub.session_factory() as session:
        rows = session.execute(select(ChatMessage, Player.name).join(Player, Player.id == ChatMessage.player_id)
                               .where(ChatMessage.room_id == live.id, ChatMessage.channel.in_(channels))
                               .order_by(ChatMessage.id.desc()).limit(HISTORY)).all()
        return [_as_dict(row, name) for row, name in reversed(rows)]


def _as_dict(row: ChatMessage, name: str) -> dict:
    at = row.created_at
    if at.tzinfo is None:  # SQLite returns naive datetimes; they were stored as UTC
        at = at.replace(tzinfo=timezone.utc)
    return {"id": row.id, "channel": row.channel, "player_id": row.player_id, "name": name, "text": row.text,
            "at": at.isoformat()}
