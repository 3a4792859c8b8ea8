"""Database tables. A match is ``seed + options + action log``; ``state`` is a snapshot (taken
every ``snapshot_every`` actions and at the end) that a replay of the log must reproduce exactly."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, ClassVar

from sqlalchemy import false, true, JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, Table, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}
    __table__: ClassVar[Table]  # every model maps one table (Core statements use it)


class Player(Base):
    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Vacation (app/correspondence/vacation.py), in the server clock's seconds: the current or last
    # one's start and end, the calendar year (UTC) whose days it was charged to, and the seconds of
    # that year's allowance used.
    vacation_from: Mapped[float | None] = mapped_column(Float, nullable=True)
    vacation_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    vacation_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    vacation_used: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")


class Room(Base):
    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    num_seats: Mapped[int] = mapped_column(Integer)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    # open -> running -> finished | aborted
    status: Mapped[str] = mapped_column(String(16), default="open")
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Seconds a bot in this room waits before acting; None = the server's default.
    bot_think_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Seconds a seated player may be away from a running match before a bot plays for them.
    grace_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    # False: the host made the table unrated (casual); its matches leave ratings unchanged.
    rated: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The new table with the same people, opened after a match here (app/endings/next_table.py).
    next_room_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The game night this table belongs to (app/nights), if any.
    night_id: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # The table's pace (app/correspondence): "live" (the games' own clocks) or "1d", "2d", "3d", "7d"
    # per move, and what happens at a correspondence deadline: "bot" plays the move, or the late
    # player "lose"s.
    pace: Mapped[str] = mapped_column(String(8), default="live", server_default="live")
    on_deadline: Mapped[str] = mapped_column(String(8), default="bot", server_default="bot")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The address (hashed) of the host's latest creation, start or bot seat here: the caps on running
    # tables and bot seats per address (app/limits/tables.py). None: a table opened by the server.
    host_address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class RoomSeat(Base):
    __tablename__ = "room_seats"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    # A private JSON object of the seat's own (e.g. a deduction notebook); never sent to others.
    private_data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # True once the seated player left a running match (the host may then seat a bot).
    left: Mapped[bool] = mapped_column(Boolean, default=False)


class Match(Base):
    __tablename__ = "matches"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    engine_version: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    # [{"player_id", "name", "bot"}] per seat, as they were when the match started.
    seats: Mapped[list[Any]] = mapped_column(JSON)
    # running -> finished | aborted
    status: Mapped[str] = mapped_column(String(16), default="running", index=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The latest snapshot: ``state`` after the first ``version`` actions. The log may be ahead of it
    # while the match runs (resume = snapshot + the later actions); at the end it holds the final state.
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The room's rated setting when the match started.
    rated: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # How it ended when it was not played out: resigned, aborted, claimed, abandoned (app/endings),
    # timeout (a correspondence deadline, app/correspondence).
    ending: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # The room's pace and deadline rule when the match started (app/correspondence).
    pace: Mapped[str] = mapped_column(String(8), default="live", server_default="live")
    on_deadline: Mapped[str] = mapped_column(String(8), default="bot", server_default="bot")


class MatchAction(Base):
    """Append-only: row ``idx`` is the action that took the match from version idx to idx + 1."""

    __tablename__ = "match_actions"
    __table_args__ = (UniqueConstraint("match_id", "idx", name="uq_match_actions_match_idx"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # No index of its own: the unique (match_id, idx) constraint serves every lookup by match.
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    idx: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchOwner(Base):
    """The fencing token of a running match in a cluster (``app.cluster.fencing``): the process that
    claimed the newest ``epoch`` is the only one whose commits are accepted."""

    __tablename__ = "match_owners"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    epoch: Mapped[int] = mapped_column(Integer)
    node_id: Mapped[str] = mapped_column(String(32))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    # "room" for everyone in the room, "team:<n>" for one team of a team game.
    channel: Mapped[str] = mapped_column(String(16), default="room")
    # The match a team message belongs to: a rematch deals new teams, and "team:0" of the next
    # match is other people (their history never shows the old team's messages). None otherwise.
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerRating(Base):
    """A player's current OpenSkill rating in one game: what the leaderboard reads, so it does not
    have to replay every match. ``rerate`` rebuilds it from the matches."""

    __tablename__ = "player_ratings"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchResult(Base):
    """One seat's result in a match that is over (finished or aborted): the player's match history
    and, when the match was rated, the rating before and after it."""

    __tablename__ = "match_results"
    __table_args__ = (UniqueConstraint("match_id", "seat", name="uq_match_results_match_seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    # 0 = best; ties share a rank; None for an aborted match.
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class Abandonment(Base):
    """A seated player was away longer than the room's grace period and a bot took their seat
    (``app.live.zombies``): counted in the player's record; the match is not rated."""
    __tablename__ = "abandonments"
    __table_args__ = (UniqueConstraint("match_id", "seat", "player_id", name="uq_abandonment"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchDeadline(Base):
    """A correspondence match's deadline for one awaited seat (app/correspondence): written in the
    transaction of the log entry that started it (so it is fenced like the log), deleted with the
    entry that ends it; re-armed from here after a restart or a take-over. ``warned``: the
    12-hours-left event was emitted (once, by the owner: a conditional update)."""

    __tablename__ = "match_deadlines"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    due_at: Mapped[float] = mapped_column(Float, index=True)
    warned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ChatRead(Base):
    """How far a player has read a room's chat ("my tables" counts the messages after it)."""

    __tablename__ = "chat_reads"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    last_id: Mapped[int] = mapped_column(Integer, default=0)
