""""My tables": every table a player sits at (open or running), with what the database knows of
each — the game, pace, seats (and their vacations), the last move and the chat the player has
not read. Whose turn and the time left come from the live match (``MyTables.list``), the same
view every seat sees. Read in a worker thread; bounded (``MAX_TABLES``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timezone

from sqlalchemy import and_, func, select

import engines
from app.endings import actions as platform
from app.models import ChatMessage, ChatRead, Match, MatchAction, Player, Room, RoomSeat
from engines.protocol import Engine

# The most tables one answer lists (a player who sits at more sees the newest ones).
MAX_TABLES = 100


@dataclass
class TableRow:
    room_id: str
    game: str
    status: str
    pace: str
    on_deadline: str
    seat: int
    match_id: str | None
    players: list[dict] = field(default_factory=list)  # {"seat", "name", "bot", "vacation_until"}
    last_move_at: float | None = None  # seconds since the epoch (the log's time)
    last_move_seat: int | None = None  # a seat, or None for the server's steps
    unread: int = 0


def read(session, player_id: str) -> list[TableRow]:
    rows = session.execute(
        select(Room.id, Room.game, Room.status, Room.pace, Room.on_deadline, Room.match_id, RoomSeat.seat)
        .join(RoomSeat, RoomSeat.room_id == Room.id)
        .where(RoomSeat.player_id == player_id, Room.status.in_(("open", "running")))
        .order_by(Room.created_at.desc(), Room.id).limit(MAX_TABLES)).all()
    tables = {r.id: TableRow(r.id, r.game, r.status, r.pace, r.on_deadline, r.seat, r.match_id) for r in rows}
    if not tables:
        return []
    ids = list(tables)
    for room_id, seat, name, bot, until in session.execute(
            select(RoomSeat.room_id, RoomSeat.seat, Player.name, Player.is_bot, Player.vacation_until)
            .join(Player, Player.id == RoomSeat.player_id)
            .where(RoomSeat.room_id.in_(ids)).order_by(RoomSeat.room_id, RoomSeat.seat)):
        tables[room_id].players.append({"seat": seat, "name": name, "bot": bool(bot), "vacation_until": until})
    by_match = {t.match_id: t for t in tables.values() if t.match_id and t.status == "running"}
    if by_match:
        last = (select(MatchAction.match_id, func.max(MatchAction.idx).label("idx"))
                .where(MatchAction.match_id.in_(list(by_match))).group_by(MatchAction.match_id).subquery())
        for match_id, seat, action, at in session.execute(
                select(MatchAction.match_id, MatchAction.seat, MatchAction.action, MatchAction.created_at)
                .join(last, and_(last.c.match_id == MatchAction.match_id, last.c.idx == MatchAction.idx))):
            table = by_match[match_id]
            table.last_move_at = (at if at.tzinfo else at.replace(tzinfo=timezone.utc)).timestamp()
            acted = action.get("seat") if seat == platform.PLATFORM and isinstance(action, dict) else seat
            table.last_move_seat = acted if isinstance(acted, int) and acted >= 0 else None
    read_up_to = (select(ChatRead.room_id, ChatRead.last_id).where(ChatRead.player_id == player_id)
                  .where(ChatRead.room_id.in_(ids)).subquery())
    for room_id, count in session.execute(
            select(ChatMessage.room_id, func.count())
            .outerjoin(read_up_to, read_up_to.c.room_id == ChatMessage.room_id)
            .where(ChatMessage.room_id.in_(ids), ChatMessage.channel == "room", ChatMessage.player_id != player_id,
                   ChatMessage.id > func.coalesce(read_up_to.c.last_id, 0))
            .group_by(ChatMessage.room_id)):
        tables[room_id].unread = count
    return list(tables.values())


def mark_read(session, player_id: str, room_id: str) -> int:
    """The player has read the room's chat up to its newest message (returns its id). Only a
    player seated at the room may; else ``LookupError``."""
    seated = session.scalar(select(RoomSeat.seat).where(RoomSeat.room_id == room_id, RoomSeat.player_id == player_id))
    if seated is None:
        raise LookupError(room_id)
    newest = session.scalar(select(func.max(ChatMessage.id)).where(ChatMessage.room_id == room_id)) or 0
    row = session.get(ChatRead, (player_id, room_id))
    if row is None:
        session.add(ChatRead(player_id=player_id, room_id=room_id, last_id=newest))
    elif row.last_id < newest:
        row.last_id = newest
    session.commit()
    return newest


def running_match_ids(session, player_id: str) -> dict[str, str]:
    """The running correspondence matches the player sits at: room id -> match id."""
    return dict(session.execute(
        select(Room.id, Room.match_id).join(RoomSeat, RoomSeat.room_id == Room.id)
        .join(Match, Match.id == Room.match_id)
        .where(RoomSeat.player_id == player_id, Room.status == "running", Match.status == "running",
               Match.pace != "live")).all())


def decides(legal_actions) -> bool:
    """The seat has a real decision: something other than passing (a Three Magic call window in
    which the player can only pass is no decision; the page's turn cues and the tab's count say the
    same)."""
    return any(not (isinstance(a, dict) and a.get("type") == "pass") for a in legal_actions or [])


def answer_owed(message: dict, seats: list[dict], seat: int) -> bool:
    """The seat owes an answer to a proposal of its match (``message``: the seat's own view
    message; ``seats``: the room summary's, for who a bot plays now): an abort someone else
    proposed, or a concession a teammate proposed, that it has not joined. The same rule as the
    room page's cue (``platform.owing``); a seat a bot plays owes nothing."""
    if message.get("outcome") is not None:
        return False
    votes = message.get("platform") or {}
    view = message.get("view")
    teams = view.get("teams") if isinstance(view, dict) else None
    table = platform.Table(abort_votes=frozenset(votes.get("abort_votes") or ()),
                           resign_votes=frozenset(votes.get("resign_votes") or ()))
    present = platform.Seats(len(seats), teams or None, frozenset(s["seat"] for s in seats if s.get("bot")),
                             frozenset(s["seat"] for s in seats if s.get("zombie") or s.get("left")))
    return seat in platform.owing(table, present)


def _answer_hidden(table: TableRow, awaited: list[int]) -> bool:
    """The last mover is a seat the table still shows as deciding, in a game whose views show
    seats awaited that have answered in secret (``Engine.shown_awaiting``: Three Magic's call
    window, whose answers are secret until it closes): naming it would tell who answered (found by
    review). In every other game the last mover is public, awaited again or not."""
    engine = engines.get(table.game)
    return table.last_move_seat in awaited and type(engine).shown_awaiting is not Engine.shown_awaiting


def entry(table: TableRow, awaiting: list[int] | None, deadlines: dict[str, int], now: float,
          owed: bool = False) -> dict:
    """One table as "my tables" lists it. ``awaiting`` and ``deadlines`` (ms) are the live match's
    (None: not running, or not reachable now); ``now``: the server clock's seconds; ``owed``: the
    caller owes an answer to a proposal there (``answer_owed``)."""
    names = {p["seat"]: p["name"] for p in table.players}
    awaited = [s for s in (awaiting or []) if isinstance(s, int) and s >= 0]
    mine = deadlines.get(str(table.seat))
    times = [ms for seat, ms in deadlines.items() if seat.lstrip("-").isdigit() and int(seat) in awaited]
    deadline = mine if table.seat in awaited and mine is not None else (min(times) if times else None)
    return {
        "room_id": table.room_id, "url": f"/r/{table.room_id}", "game": table.game, "status": table.status,
        "pace": table.pace, "on_deadline": table.on_deadline, "seat": table.seat, "match_id": table.match_id,
        "your_turn": table.seat in awaited,
        "answer_owed": owed,
        "awaiting": [{"seat": s, "name": names.get(s)} for s in awaited],
        "deadline": deadline, "time_left": None if deadline is None else max(0.0, deadline / 1000 - now),
        "last_move_at": None if table.last_move_at is None else int(table.last_move_at * 1000),
        "last_move_by": None if table.last_move_seat is None or _answer_hidden(table, awaited)
        else {"seat": table.last_move_seat, "name": names.get(table.last_move_seat)},
        "unread": table.unread,
        "players": [{"seat": p["seat"], "name": p["name"], "bot": p["bot"],
                     "vacation_until": int(p["vacation_until"] * 1000) if p["vacation_until"] and p["vacation_until"] > now else None}
                    for p in table.players],
    }


def ordered(entries: list[dict]) -> list[dict]:
    """The tables waiting for the player (their turn, or an answer owed) first (soonest deadline
    first), then running tables by their soonest deadline, then the rest by their last move (newest
    first)."""
    return sorted(entries, key=lambda e: (not (e["your_turn"] or e["answer_owed"]), e["status"] != "running",
                                          e["deadline"] if e["deadline"] is not None else float("inf"),
                                          -(e["last_move_at"] or 0)))
