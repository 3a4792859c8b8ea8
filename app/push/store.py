"""Database reads and writes of Web Push (blocking: each runs in a worker thread via ``db.run``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.errors import ApiError
from app.models import utcnow
from app.push.models import KINDS, NotificationPrefs, PushSubscription


@dataclass(frozen=True)
class Target:
    id: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str


def prefs(session: Session, player_id: str) -> dict:
    row = session.get(NotificationPrefs, player_id)
    count = session.scalar(select(func.count()).select_from(PushSubscription)
                           .where(PushSubscription.player_id == player_id)) or 0
    return {"kinds": {kind: bool(row and getattr(row, kind)) for kind in KINDS},
            "sound": bool(row and row.sound), "subscriptions": count}


def set_prefs(session: Session, player_id: str, kinds: dict[str, bool] | None, sound: bool | None) -> dict:
    """Two first calls at once both insert the row: the second's commit fails, and it applies
    its change to the row the first made."""
    try:
        return _set_prefs(session, player_id, kinds, sound)
    except IntegrityError:
        session.rollback()
        return _set_prefs(session, player_id, kinds, sound)


def _set_prefs(session: Session, player_id: str, kinds: dict[str, bool] | None, sound: bool | None) -> dict:
    row = session.get(NotificationPrefs, player_id)
    if row is None:
        row = NotificationPrefs(player_id=player_id, your_turn=False, hours_left=False, match_ended=False,
                                chat_mention=False, sound=False)
        session.add(row)
    for kind, on in (kinds or {}).items():
        setattr(row, kind, on)
    if sound is not None:
        row.sound = sound
    row.updated_at = utcnow()
    session.commit()
    return prefs(session, player_id)


def subscribe(session: Session, player_id: str, endpoint: str, p256dh: str, auth: str, lang: str,
              limit: int) -> int:
    """Store (or renew) one browser's subscription for ``player_id``. The same endpoint again
    (a renewed subscription, or another player of the same browser) replaces the old row: one
    browser notifies one player. Past ``limit`` subscriptions of the player: 409, nothing stored.
    The same endpoint sent twice at once: the second insert fails, and the second attempt finds
    the first's row and updates it."""
    try:
        return _subscribe(session, player_id, endpoint, p256dh, auth, lang, limit)
    except IntegrityError:
        session.rollback()
        return _subscribe(session, player_id, endpoint, p256dh, auth, lang, limit)


def _subscribe(session: Session, player_id: str, endpoint: str, p256dh: str, auth: str, lang: str,
               limit: int) -> int:
    existing = session.scalar(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
    if existing is None or existing.player_id != player_id:  # a new browser of this player's
        count = session.scalar(select(func.count()).select_from(PushSubscription)
                               .where(PushSubscription.player_id == player_id)) or 0
        if count >= limit:
            session.rollback()
            raise ApiError(409, "too_many_subscriptions",
                           f"a player may have at most {limit} browsers subscribed: remove one first")
    row = existing or PushSubscription(endpoint=endpoint)
    row.player_id, row.p256dh, row.auth, row.lang, row.created_at = player_id, p256dh, auth, lang, utcnow()
    session.add(row)
    session.commit()
    return row.id


def unsubscribe(session: Session, player_id: str, endpoint: str) -> bool:
    """Remove the caller's own subscription of ``endpoint`` (another player's is left alone)."""
    result = session.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint,
                                                            PushSubscription.player_id == player_id))
    session.commit()
    return bool(getattr(result, "rowcount", 0))


def targets(session: Session, player_id: str, kind: str) -> list[Target]:
    """The player's subscriptions, if the player chose ``kind``; else none."""
    row = session.get(NotificationPrefs, player_id)
    if row is None or kind not in KINDS or not getattr(row, kind):
        return []
    rows = session.scalars(select(PushSubscription).where(PushSubscription.player_id == player_id)
                           .order_by(PushSubscription.id))
    return [Target(r.id, r.endpoint, r.p256dh, r.auth, r.lang) for r in rows]


def forget(session: Session, subscription_id: int) -> None:
    """The push service said the subscription is gone (404/410): it will never deliver again."""
    session.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))
    session.commit()
