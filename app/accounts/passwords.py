"""Password hashing with argon2id (argon2-cffi's defaults, RFC 9106 low-memory profile), and the
threads that do it.

A hash or a check costs ~0.1 s of a core on purpose. Claims and log-ins therefore run on
``PasswordWork``'s few threads of their own, with a bounded queue: a burst of log-ins (a
password-guessing botnet spread over many addresses, past the per-address limit) waits behind
itself and, past the bound, is told to come back (503 ``busy``). It never takes the default
thread pool, where readiness probes and the bots' moves run, nor more than its share of cores."""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.errors import ApiError

_hasher = PasswordHasher()


@functools.cache
def _dummy() -> str:
    """Verified against when the name is unknown, so a wrong name costs as long as a wrong password.
    Made at the first log-in (on a password thread), not at import: every process start paid it."""
    return _hasher.hash("not a password anyone has")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _dummy(), password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


class PasswordWork:
    """``await work.run(fn, *args)``: ``fn(*args)`` on one of ``workers`` threads; refused at once
    with 503 ``busy`` when ``max_waiting`` calls are already running or queued."""

    def __init__(self, workers: int, max_waiting: int):
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="passwords")
        self.max_waiting = max_waiting
        self.waiting = 0
        self.started = 0  # calls let through to the hasher since start (tests and metrics read it)

    async def run(self, fn, *args):
        if self.waiting >= self.max_waiting:
            busy = ApiError(503, "busy", "too many log-ins at once right now: try again in a few seconds")
            busy.headers = {"Retry-After": "5"}
            raise busy
        self.waiting += 1
        self.started += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, functools.partial(fn, *args))
        finally:
            self.waiting -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
