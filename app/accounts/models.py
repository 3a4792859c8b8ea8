"""Tables of accounts: the claimed name and password hash of a player, and its log-in sessions."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, utcnow


class Account(Base):
    __tablename__ = "accounts"
    __table_args__ = (UniqueConstraint("name_skeleton", name="uq_accounts_name_skeleton"),)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    # The name as typed at log-in is matched case- and width-insensitively (NFKC + casefold).
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    # What the name looks like (app.names.skeleton, UTS #39): no two accounts' names look alike.
    name_skeleton: Mapped[str | None] = mapped_column(String(160), nullable=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountSession(Base):
    __tablename__ = "account_sessions"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # A label the person can recognise in their list of sessions (the browser's user agent).
    device: Mapped[str] = mapped_column(String(120), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # SHA-256 of the client address it was opened from: a known-good address of the account
    # (app/accounts/throttle.py); not shown anywhere.
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
