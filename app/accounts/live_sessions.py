"""Live sockets and NDJSON streams by the credential that opened them, so that ending a credential
ends them too (issue 30, point 4): a revoked session (log out, log out everywhere, one session
revoked, a password change), an expired one, and a guest token retired by claiming the name.

A REST call checks its token every time; a socket or stream checks it once, when it opens, and
then lives on. ``LiveSessions`` remembers which credential opened each of this process's sockets
and streams and ends them:

- at once on ``end(keys)``, here and, in a cluster, on every other process (a message on the
  ``credentials`` channel of the Redis bus);
- at the session's expiry time (a timer per credential);
- after every ``check_seconds`` (``SESSION_CHECK_SECONDS``), when a look in the database finds a
  credential ended: this catches an ending whose bus message was lost (Redis down).

A socket is closed with ``SESSION_ENDED`` (4401) after an ``error`` ``session_ended``; a stream
writes that error as its last line and ends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.accounts.models import Account, AccountSession
from app.cluster.messages import CredentialsEnded, dump, parse
from app.models import utcnow

log = logging.getLogger("asobiba.accounts")

SESSION_ENDED = 4401
AUDIT_BATCH = 500  # credentials looked up per query by the periodic check
ENDED_MESSAGE = "your session ended (logged out, revoked, expired or password changed): log in again"


@dataclass(frozen=True)
class Credential:
    """``key`` is ``session:<id>`` for a log-in session, ``guest:<player id>`` for a guest token."""
    key: str
    expires_at: datetime | None = None

    @classmethod
    def session(cls, session_id: str, expires_at: datetime) -> "Credential":
        return cls(f"session:{session_id}", expires_at)

    @classmethod
    def guest(cls, player_id: str) -> "Credential":
        return cls(f"guest:{player_id}")


def ended_error() -> dict:
    return {"type": "error", "code": "session_ended", "message": ENDED_MESSAGE}


class LiveSessions:
    def __init__(self, session_factory, check_seconds: float):
        self.session_factory = session_factory
        self.check_seconds = check_seconds
        self._closers: dict[str, dict[int, Callable[[], None]]] = {}  # key -> handle -> close
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._ids = 0
        self._bus = None
        self._channel = ""
        self._audit: asyncio.Task | None = None
        self._db = None

    # --- life ----------------------------------------------------------------------------------

    def join_cluster(self, bus) -> None:
        """Hear the other processes' endings (subscribed before the bus starts)."""
        self._bus = bus
        self._channel = bus.key("credentials")
        bus.subscribe(self._channel, self._heard)

    def start(self, db) -> None:
        self._db = db
        if self.check_seconds > 0:
            self._audit = asyncio.ensure_future(self._audit_forever())

    def stop(self) -> None:
        if self._audit is not None:
            self._audit.cancel()
        for timer in self._timers.values():
            timer.cancel()

    # --- sockets and streams -------------------------------------------------------------------

    def track(self, credential: Credential | None, close: Callable[[], None]) -> Callable[[], None]:
        """Remember that ``close`` ends a socket or stream opened with ``credential``; returns
        the function that forgets it (when it ends by itself)."""
        if credential is None:
            return lambda: None
        self._ids += 1
        handle = self._ids
        self._closers.setdefault(credential.key, {})[handle] = close
        if credential.expires_at is not None and credential.key not in self._timers:
            expires = credential.expires_at if credential.expires_at.tzinfo else \
                credential.expires_at.replace(tzinfo=timezone.utc)
            delay = max(0.0, (expires - utcnow()).total_seconds())
            self._timers[credential.key] = asyncio.get_running_loop().call_later(
                delay, self._end_here, [credential.key])
        return lambda: self._forget(credential.key, handle)

    def _forget(self, key: str, handle: int) -> None:
        closers = self._closers.get(key)
        if closers is None:
            return
        closers.pop(handle, None)
        if not closers:
            del self._closers[key]
            timer = self._timers.pop(key, None)
            if timer is not None:
                timer.cancel()

    # --- ending --------------------------------------------------------------------------------

    async def end(self, keys: list[str]) -> None:
        """These credentials were ended: close their sockets and streams on every process."""
        if not keys:
            return
        self._end_here(keys)
        if self._bus is not None:
            self._bus.publish(self._channel, dump(CredentialsEnded(keys=keys)))

    def _heard(self, raw: dict) -> None:
        """Another process ended credentials (a malformed message is refused by ``parse``: the
        bus logs it, and the periodic look in the database still catches those endings)."""
        message = parse(raw)
        if isinstance(message, CredentialsEnded):
            self._end_here(message.keys)

    def _end_here(self, keys: list[str]) -> None:
        for key in keys:
            timer = self._timers.pop(key, None)
            if timer is not None:
                timer.cancel()
            for close in list(self._closers.pop(key, {}).values()):
                try:
                    close()
                except Exception:
                    log.exception("closing a socket of an ended session failed")

    async def _audit_forever(self) -> None:
        while True:
            await asyncio.sleep(self.check_seconds)
            keys = list(self._closers)
            if not keys:
                continue
            assert self._db is not None, "started with its database"
            for start in range(0, len(keys), AUDIT_BATCH):  # (bounded IN lists)
                try:
                    ended = await self._db.run(ended_credentials, keys[start:start + AUDIT_BATCH])
                except Exception as exc:  # the database is down: next time
                    log.warning("could not check live sessions: %r", exc)
                    break
                self._end_here(ended)


def ended_credentials(session: Session, keys: list[str]) -> list[str]:
    """Which of ``keys`` no longer open anything: sessions revoked, expired or gone; guest tokens
    retired by a claim."""
    session_ids = [k.split(":", 1)[1] for k in keys if k.startswith("session:")]
    guests = [k.split(":", 1)[1] for k in keys if k.startswith("guest:")]
    ended = []
    if session_ids:
        live = {row.id for row in session.scalars(select(AccountSession).where(AccountSession.id.in_(session_ids)))
                if row.revoked_at is None and _aware(row.expires_at) > utcnow()}
        ended += [f"session:{i}" for i in session_ids if i not in live]
    if guests:
        claimed = set(session.scalars(select(Account.player_id).where(Account.player_id.in_(guests))))
        ended += [f"guest:{p}" for p in guests if p in claimed]
    return ended


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def close_socket_later(connection, live) -> Callable[[], None]:
    """The closer of a WebSocket: out of the room at once (nothing more is pushed to it), told
    why, closed with 4401."""
    def close() -> None:
        connection.ended = True
        live.leave(connection)
        connection.send(ended_error())
        task = asyncio.ensure_future(connection.close_after_flush(SESSION_ENDED, "session ended"))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return close


def end_stream(subscriber, live) -> Callable[[], None]:
    """The closer of an NDJSON stream: out of the room at once, the error as its last line, then the end."""
    def close() -> None:
        live.leave(subscriber)
        with contextlib.suppress(Exception):
            subscriber.queue.put_nowait(ended_error())
            subscriber.queue.put_nowait(None)
    return close
