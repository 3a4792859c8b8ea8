"""Claiming a name, logging in, sessions. Each function is one transaction on a sync session,
claims and log-ins called from the router on ``passwords.PasswordWork``'s threads (argon2 is
deliberately slow)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.accounts import passwords
from app.accounts.models import Account, AccountSession
from app.errors import ApiError
from app.models import Player, utcnow
from app.names import check_at_tables, check_player_name, name_key
from app.security import hash_token, new_id, new_token


def name_is_claimed(session: Session, name: str, except_player: str | None = None) -> bool:
    owner = session.scalar(select(Account.player_id).where(Account.name_key == name_key(name)))
    return owner is not None and owner != except_player


def claim(session_factory: sessionmaker[Session], player_id: str, password: str, name: str | None,
          days: float, device: str, address: str | None = None) -> tuple[dict, list[str] | None]:
    """Give the guest ``player_id`` an account; returns a new session (the guest token stops working)
    and, when the claim changed the name, the open and running tables that show it (else None)."""
    password_hash = passwords.hash_password(password)
    with session_factory() as session, session.begin():
        player = session.get(Player, player_id)
        assert player is not None, "the caller is an existing player"
        if session.get(Account, player_id) is not None:
            raise ApiError(409, "already_claimed", f"{player.name!r} already has an account: log in instead")
        new_name = name.strip() if name and name.strip() else player.name
        if name_is_claimed(session, new_name):
            raise ApiError(409, "name_taken", f"the name {new_name!r} is already claimed: choose another one")
        look = check_player_name(session, new_name, player_id)  # name_invisible, name_confusable
        tables = check_at_tables(session, player_id, new_name) if new_name != player.name else None  # name_confusable_in_room
        player.name = new_name
        player.token_hash = hash_token(new_token())  # the guest token is retired; nobody knows this one
        session.add(Account(player_id=player_id, name_key=name_key(new_name), name_skeleton=look,
                            password_hash=password_hash))
        try:
            session.flush()
        except IntegrityError:
            raise ApiError(409, "name_taken", f"the name {new_name!r} is already claimed (or one that looks "
                           "the same): choose another one") from None
        return _open_session(session, player, days, device, address), tables


def login(session_factory: sessionmaker[Session], name: str, password: str, days: float, device: str,
          address: str | None = None) -> dict:
    with session_factory() as session, session.begin():
        account = session.scalar(select(Account).where(Account.name_key == name_key(name)))
        verified = passwords.verify(account.password_hash if account else None, password)
        if account is None or not verified:
            raise ApiError(401, "bad_credentials", "wrong name or password")
        if passwords.needs_rehash(account.password_hash):
            account.password_hash = passwords.hash_password(password)
        player = session.get(Player, account.player_id)
        assert player is not None, "an account's player exists"
        return _open_session(session, player, days, device, address)


def change_password(session_factory: sessionmaker[Session], player_id: str, token: str, current: str,
                    new: str) -> list[str]:
    """Set a new password (the current one is required) and revoke every other session of the
    account; returns their ids (their sockets and streams are then ended). The caller's session stays."""
    with session_factory() as session, session.begin():
        account = session.get(Account, player_id)
        if account is None:
            raise ApiError(409, "not_claimed", "a guest has no password: claim your name first")
        if not passwords.verify(account.password_hash, current):
            raise ApiError(403, "wrong_password", "the current password is wrong; nothing was changed")
        account.password_hash = passwords.hash_password(new)
        keep = current_session_id(session, token)
        rows = list(session.scalars(select(AccountSession).where(
            AccountSession.player_id == player_id, AccountSession.revoked_at.is_(None), AccountSession.id != keep)))
        for row in rows:
            row.revoked_at = utcnow()
        return [row.id for row in rows]


def is_known_address(session: Session, name: str, address: str | None, days: float) -> bool:
    """Whether a session of the account named ``name`` was opened from ``address`` within ``days``."""
    if address is None:
        return False
    player_id = session.scalar(select(Account.player_id).where(Account.name_key == name_key(name)))
    return player_id is not None and session.scalar(select(AccountSession.id).where(
        AccountSession.player_id == player_id, AccountSession.address_hash == hash_token(address),
        AccountSession.created_at > utcnow() - timedelta(days=days)).limit(1)) is not None


def live_session(session: Session, token: str) -> AccountSession | None:
    """The session of a live session token; None for an unknown, expired or revoked one."""
    row = session.scalar(select(AccountSession).where(AccountSession.token_hash == hash_token(token)))
    if row is None or row.revoked_at is not None or _aware(row.expires_at) <= utcnow():
        return None
    return row


def current_session_id(session: Session, token: str | None) -> str | None:
    if not token:
        return None
    return session.scalar(select(AccountSession.id).where(AccountSession.token_hash == hash_token(token)))


def sessions(session: Session, player_id: str) -> list[AccountSession]:
    """Live sessions, newest first."""
    rows = session.scalars(select(AccountSession).where(AccountSession.player_id == player_id,
                                                        AccountSession.revoked_at.is_(None))
                           .order_by(AccountSession.created_at.desc()))
    now = utcnow()
    return [r for r in rows if _aware(r.expires_at) > now]


def revoke(session: Session, player_id: str, session_id: str | None) -> list[str]:
    """Revoke one of the player's sessions (or all of them with ``None``); returns their ids
    (their sockets and streams are then ended: ``live_sessions.LiveSessions.end``)."""
    query = select(AccountSession).where(AccountSession.player_id == player_id, AccountSession.revoked_at.is_(None))
    if session_id is not None:
        query = query.where(AccountSession.id == session_id)
    rows = list(session.scalars(query))
    if session_id is not None and not rows:
        raise ApiError(404, "not_found", f"no live session with id {session_id!r}")
    for row in rows:
        row.revoked_at = utcnow()
    session.commit()
    return [row.id for row in rows]


def has_account(session: Session, player_id: str) -> bool:
    return session.get(Account, player_id) is not None


def _open_session(session: Session, player: Player, days: float, device: str, address: str | None) -> dict:
    token = new_token()
    row = AccountSession(id=new_id(), player_id=player.id, token_hash=hash_token(token), device=device[:120],
                         expires_at=utcnow() + timedelta(days=days),
                         address_hash=hash_token(address) if address else None)
    session.add(row)
    session.flush()
    return {"id": player.id, "name": player.name, "token": token, "session_id": row.id,
            "expires_at": _aware(row.expires_at).isoformat()}


def _aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without their zone; they are stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
