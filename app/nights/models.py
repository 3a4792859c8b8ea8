"""Tables of game nights (migration 0012): the night, its members, and its matches."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, utcnow


class Night(Base):
    """A game night. Its id is a secret link, like a room's: whoever has it may follow the night."""

    __tablename__ = "nights"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    # "places": 3/2/1/0 points for 1st/2nd/3rd/later; "wins": 1 point for a win (shared firsts too).
    scoring: Mapped[str] = mapped_column(String(8), default="places")
    # Best of N: the night ends after N matches, or as soon as the leader cannot be caught.
    best_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Who picks the next game: "host", or "vote" (every member present votes; the most votes wins).
    choose: Mapped[str] = mapped_column(String(8), default="host")
    # on -> over
    status: Mapped[str] = mapped_column(String(8), default="on")
    # Why it is over: "decided" (nobody can catch the leader), "played" (best of N played), "host".
    end_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class NightMember(Base):
    """Someone (a person or a bot) who plays in the night. ``seq`` orders them by arrival; a member
    who left keeps their points and is not seated any more; ``vote`` is their pick for the next game."""

    __tablename__ = "night_members"
    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    vote: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)  # a bot's level, kept for its next seat
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NightMatch(Base):
    """A match played in the night (started at one of its tables, a rematch there included), in
    order; who moved first and the teams (player ids), so the next table can rotate and mix them."""

    __tablename__ = "night_matches"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id"), index=True)
    room_id: Mapped[str] = mapped_column(String(64))
    idx: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    first_player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    teams: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
