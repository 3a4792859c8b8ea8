"""Room chat for players and spectators, and team chat in team games (only that team's sockets,
and in history only that team of the current match: a rematch deals new teams).

Messages are stored with the room, length-limited, rate-limited per sender (``rate_chat_per_*`` in
app/limits/, charged only for messages that would be stored), and always sent as plain text fields
(clients render them with textContent, never as HTML)."""

from __future__ import annotations

import logging
import re
from datetime import timezone

from sqlalchemy import ColumnElement, and_, or_, select
from sqlalchemy.orm import Session

from app.db import Database
from app.errors import ApiError
from app.limits.sockets import SocketGuard
from app.live.connection import Connection
from app.live.room import LiveRoom
from app.models import ChatMessage, Player
from app.protocol.client_messages import Chat
from app.push.events import chat_mentions
from app.settings import Settings
from app.unavailable import is_outage, unavailable

log = logging.getLogger("asobiba.chat")

HISTORY = 50
# The channel of the room's notices (a bot plays for someone, someone is back): stored with the
# player they are about, ``text`` the notice's code and the seat; pages word them in their language.
NOTICE = "notice"
NOTICES = ("bot_plays", "back")


def _teams(live: LiveRoom) -> list | None:
    """The teams as the spectators' view shows them (also in a cluster's mirror of the match)."""
    try:
        return live.runner.current(None).message["view"].get("teams") if live.runner else None
    except ApiError:  # a mirror that has no view yet
        return None


def team_of(live: LiveRoom, seat: int | None) -> int | None:
    teams = _teams(live)
    if seat is None or not teams:
        return None
    return next((i for i, team in enumerate(teams) if seat in team), None)


def team_seats(live: LiveRoom, team: int) -> set[int]:
    return set((_teams(live) or [])[team])


# Bidi embeddings, overrides and isolates turn the text around them (a line that reads as another
# player's, a link that reads as another): refused, as in names (app/names.py). Marks (U+200E/F)
# and joiners (U+200D, inside emoji) stay: they cannot reorder what follows a message.
_DIRECTION_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


async def handle_chat(live: LiveRoom, connection: Connection, message: Chat, guard: SocketGuard,
                      db: Database, settings: Settings, notifier=None) -> None:
    if connection.player_id is None:
        raise ApiError(403, "not_allowed", "spectators without a name cannot chat: create a player first")
    text = message.text
    if not text.strip() or "\x00" in text:
        raise ApiError(400, "malformed", 'a chat message needs a non-empty "text" (without NUL characters)')
    text = text.strip()  # the limit applies to what is stored and shown
    if _DIRECTION_CONTROLS.search(text):
        raise ApiError(400, "malformed", "chat messages may not hold direction overrides, embeddings or isolates "
                                         "(U+202A-202E, U+2066-2069): they can make text read as someone else's")
    if len(text) > settings.chat_max_chars:
        raise ApiError(413, "too_large", f"chat messages are limited to {settings.chat_max_chars} characters")
    channel: str = message.channel
    seats = None
    match_id: str | None = None
    if channel == "team":
        team = team_of(live, live.seat_of(connection.player_id))
        if team is None:
            raise ApiError(403, "no_team", "team chat is only for seated players of a team game")
        channel = f"team:{team}"
        seats = team_seats(live, team)
        match_id = live.runner.match_id if live.runner is not None else None  # this match's team (a rematch deals new ones)
    if not await guard.admit("chat"):
        return
    stored = await db.run(_store, live.id, connection.player_id, channel, text, match_id)
    live.push_to({"type": "chat", "message": stored}, seats)
    if notifier is not None:  # stored here, once: "@name" is pushed from here (app/push/events.py)
        try:
            chat_mentions(notifier, live, connection.player_id, stored["name"], text, seats)
        except Exception:  # the message is stored and sent; a failed extra must not refuse it
            log.exception("mention notifications of room %s failed", live.id)


async def send_history(live: LiveRoom, connection: Connection, db: Database) -> None:
    """The last messages this socket may read (room channel, plus its own team's). With the
    database unreachable the socket is told so (``unavailable``) and goes on without them: the
    match itself is in memory, and a socket must not end on a failed extra."""
    team = team_of(live, live.seat_of(connection.player_id))
    team_channel = (f"team:{team}", live.runner.match_id) if team is not None and live.runner is not None else None
    try:
        messages = await db.run(_history, live.id, ["room", NOTICE], team_channel)
    except Exception as exc:
        if not is_outage(exc):
            raise
        connection.send({"type": "error", **unavailable().as_dict()})
        return
    if messages:
        connection.send({"type": "chat_history", "messages": messages})


def _store(session: Session, room_id: str, player_id: str, channel: str, text: str,
           match_id: str | None = None) -> dict:
    row = ChatMessage(room_id=room_id, player_id=player_id, channel=channel, text=text, match_id=match_id)
    session.add(row)
    session.commit()
    player = session.get(Player, player_id)
    assert player is not None, "the sender exists"
    name = player.name
    return _as_dict(row, name)


def store_notice(session: Session, room_id: str, player_id: str, seat: int, kind: str) -> dict:
    """A notice about ``player_id`` in ``seat`` (``kind`` one of ``NOTICES``), stored in the chat."""
    return _store(session, room_id, player_id, NOTICE, f"{kind}:{seat}")


def _history(session: Session, room_id: str, channels: list[str], team: tuple[str, str] | None) -> list[dict]:
    """The room's last messages on ``channels``, and on ``team`` = (channel, match id) those of
    that team of that match only."""
    where: ColumnElement[bool] = ChatMessage.channel.in_(channels)
    if team is not None:
        where = or_(where, and_(ChatMessage.channel == team[0], ChatMessage.match_id == team[1]))
    rows = session.execute(select(ChatMessage, Player.name).join(Player, Player.id == ChatMessage.player_id)
                           .where(ChatMessage.room_id == room_id, where)
                           .order_by(ChatMessage.id.desc()).limit(HISTORY)).all()
    return [_as_dict(row, name) for row, name in reversed(rows)]


def _as_dict(row: ChatMessage, name: str) -> dict:
    at = row.created_at
    if at.tzinfo is None:  # SQLite returns naive datetimes; they were stored as UTC
        at = at.replace(tzinfo=timezone.utc)
    message = {"id": row.id, "channel": row.channel, "player_id": row.player_id, "name": name, "text": row.text,
               "at": at.isoformat()}
    if row.channel == NOTICE:  # e.g. "bot_plays:1": which notice, about which seat
        kind, _, seat = row.text.partition(":")
        message.update(notice=kind, seat=int(seat) if seat.isdigit() else None,
                       text=_NOTICE_TEXT.get(kind, kind).format(name=name))
    return message


# The English wording for clients that do not know the notice (the room page words it itself).
_NOTICE_TEXT = {"bot_plays": "A bot plays for {name} until they are back.", "back": "{name} is back and plays again."}
