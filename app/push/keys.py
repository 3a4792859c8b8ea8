"""The VAPID key pair the server signs its pushes with (RFC 8292). From ``VAPID_PRIVATE_KEY`` when
set; otherwise made on the first start and kept in the database (``server_secrets``), so every
process of a cluster, and the next start, sign with the same key (browsers' subscriptions are tied
to the public key: a new key would silently end every subscription)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.push.models import ServerSecret

SECRET_NAME = "vapid_private_key"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def raw_private(key: ec.EllipticCurvePrivateKey) -> str:
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key_b64(vapid: Vapid) -> str:
    """The public key as the browser's ``applicationServerKey`` wants it (uncompressed point, base64url)."""
    return b64url(vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                serialization.PublicFormat.UncompressedPoint))


def from_setting(text: str) -> Vapid:
    """A raw base64url key (32 bytes), a base64 DER key or a PEM key; ``ValueError`` otherwise."""
    text = text.strip()
    try:
        if "-----BEGIN" in text:
            key = serialization.load_pem_private_key(text.encode(), password=None)
            if not isinstance(key, ec.EllipticCurvePrivateKey):
                raise ValueError("not an EC key")
            return Vapid(key)
        return Vapid.from_string(text)
    except Exception:
        raise ValueError("VAPID_PRIVATE_KEY is not a P-256 private key (base64url raw, DER or PEM)") from None


def load_or_create(session: Session, configured: str) -> Vapid:
    """The key to sign with (blocking: run it off the event loop, ``db.run``). Two processes
    starting at once both try to store theirs; the second's insert fails and it reads the first's."""
    if configured:
        return from_setting(configured)
    stored = _stored(session)
    if stored is not None:
        return from_setting(stored)
    fresh = ec.generate_private_key(ec.SECP256R1())
    session.add(ServerSecret(name=SECRET_NAME, value=raw_private(fresh)))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        stored = _stored(session)
        assert stored is not None, "the other process's key was committed"
        return from_setting(stored)
    return Vapid(fresh)


def _stored(session: Session) -> str | None:
    row = session.get(ServerSecret, SECRET_NAME)
    return row.value if row is not None else None
