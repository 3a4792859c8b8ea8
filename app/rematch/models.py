"""Tables of the rematch feature: who confirmed a rematch of a finished match, and which match
followed which."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, utcnow


class RematchVote(Base):
    """A seated person's "yes" to playing the finished match ``match_id`` again."""

    __tablename__ = "rematch_votes"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchRematch(Base):
    """``rematch_id`` was played as the rematch of ``match_id`` (at most one each way)."""

    __tablename__ = "match_rematches"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    rematch_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
