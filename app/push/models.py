"""The tables of Web Push: subscriptions (one per browser), the player's choices, server secrets."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from app.models import Base, utcnow

# What a player may be notified of; each is chosen separately (all off until the player says so).
KINDS = ("your_turn", "hours_left", "match_ended", "chat_mention")


class PushSubscription(Base):
    """One browser's push subscription (the Push API's ``PushSubscription.toJSON()``): where to post
    and the keys the payload is encrypted to. The endpoint is a secret capability URL of the browser."""

    __tablename__ = "push_subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    # The language the notifications are written in ("en" or "ja"), the page's when it subscribed.
    lang: Mapped[str] = mapped_column(String(8), default="en")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NotificationPrefs(Base):
    """A player's choices: which kinds are pushed, and whether the page plays a sound."""

    __tablename__ = "notification_prefs"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    your_turn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    hours_left: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    match_ended: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    chat_mention: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    sound: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ServerSecret(Base):
    """Secrets the server makes for itself once and every process shares (the VAPID key)."""

    __tablename__ = "server_secrets"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
