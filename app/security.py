"""Bearer tokens: random, shown once, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id() -> str:
    """A 128-bit random id (hex) for players and matches."""
    return secrets.token_hex(16)


def new_room_id() -> str:
    """Room ids are the private link's secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def same_secret(given: str, expected: str) -> bool:
    """Constant time, whatever was given: the digests are compared, so neither the content nor the
    length of ``expected`` shows in how long a wrong guess takes. An empty secret matches nothing."""
    return bool(expected) and hmac.compare_digest(hashlib.sha256(given.encode()).digest(),
                                                  hashlib.sha256(expected.encode()).digest())
