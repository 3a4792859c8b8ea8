"""Log-in attempts per account (issue 30, point 5), on top of the per-address ``logins`` limit.

Guessing one account's password from many addresses passed the per-address limit untouched (60
guesses from 60 addresses). Two buckets per name now, in the limiter's store (shared in Redis by a
cluster), taken before any password is hashed, so a refused attempt never reaches the hasher:

- per name and address (``RATE_ACCOUNT_LOGINS_PER_ADDRESS``, 5 per 5 minutes): one address
  guesses slowly;
- per name over every address (``RATE_ACCOUNT_LOGINS_PER_ACCOUNT``, 20 per 10 minutes): a botnet
  guesses slowly too.

The second bucket must not become a way to lock the owner out: an attempt it refuses still goes
on when it comes from a *known-good address* of the account (one a session of it was opened from
in the last ``SESSION_DAYS``), limited only by its own name-and-address bucket. Sessions the owner
already has are never touched by any of this, and a password change from one of them takes only
from its own name-and-address bucket. Unknown names are throttled exactly like real ones, so the
answers tell nobody which names exist."""

from __future__ import annotations

from typing import Awaitable, Callable

from app.limits.limiter import Limiter, RateLimited
from app.limits.store import Rule


class LoginThrottle:
    def __init__(self, limiter: Limiter, per_address: str, per_account: str):
        self.limiter = limiter
        self.per_address = Rule.parse(per_address)
        self.per_account = Rule.parse(per_account)

    async def check(self, name_key: str, ip: str | None, known_address: Callable[[], Awaitable[bool]] | None) -> None:
        """Take one attempt for ``name_key`` from ``ip``, or raise ``RateLimited`` (429).
        ``known_address`` (None: skip the account-wide bucket, the caller holds a session)
        says whether ``ip`` is a known-good address of the account."""
        now = self.limiter.clock.now()
        store = self.limiter.store
        if self.per_address is not None:
            wait = await store.take(f"account_logins:address:{name_key}|{ip}", self.per_address, 1, now)
            if wait > 0:
                raise RateLimited("account_logins", self.per_address, "name and address", wait)
        if self.per_account is not None and known_address is not None:
            wait = await store.take(f"account_logins:account:{name_key}", self.per_account, 1, now)
            if wait > 0 and not await known_address():
                raise RateLimited("account_logins", self.per_account, "name", wait)
