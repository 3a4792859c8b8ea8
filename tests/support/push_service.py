"""A stand-in for a browser's push service, on a real loopback port: it takes each push the server
posts, checks the protocol as a real push service and browser would, and keeps what it decrypted.

- VAPID (RFC 8292): ``Authorization: vapid t=<JWT>, k=<public key>``; the JWT's ES256 signature
  is verified against ``k``, which must be the server's published key; ``aud`` is this origin,
  ``exp`` within 24 hours, ``sub`` a contact.
- The payload (RFC 8291, ``Content-Encoding: aes128gcm``) is decrypted with the subscriber's own
  private key and auth secret (``http_ece``), as the browser would.
Each subscriber is a path; ``gone`` paths answer 410 (an expired subscription)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Subscriber:
    """A browser: its key pair and auth secret, and the endpoint path at the push service."""
    path: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, base: str, lang: str = "en") -> dict:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": base + self.path, "keys": {"p256dh": b64e(public), "auth": b64e(self.auth)},
                "expirationTime": None, "lang": lang}


@dataclass
class Received:
    path: str
    headers: dict
    claims: dict
    payload: dict


class PushService:
    def __init__(self):
        self.subscribers: dict[str, Subscriber] = {}
        self.gone: set[str] = set()
        self.received: list[Received] = []
        self.problems: list[str] = []  # protocol violations seen (a test asserts there are none)
        self.server_key = ""  # the VAPID public key the server published (set by the test)
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = service.take(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def subscriber(self, name: str) -> Subscriber:
        sub = self.subscribers[f"/push/{name}"] = Subscriber(f"/push/{name}")
        return sub

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def to(self, name: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path == f"/push/{name}"]

    def wait_for(self, name: str, count: int, timeout: float = 20.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.to(name)
            if len(got) >= count:
                return got
            time.sleep(0.02)
        raise AssertionError(f"{name} received {len(self.to(name))} pushes, not {count}")

    # --- checking one push --------------------------------------------------------------------

    def take(self, path: str, headers: dict, body: bytes) -> int:
        try:
            claims = self.check_vapid(headers.get("authorization", ""))
            assert headers.get("content-encoding") == "aes128gcm", headers.get("content-encoding")
            assert int(headers["ttl"]) > 0, "a TTL"
            subscriber = self.subscribers[path]
            plain = http_ece.decrypt(body, private_key=subscriber.key, auth_secret=subscriber.auth, version="aes128gcm")
            payload = json.loads(plain)
        except Exception as exc:  # noqa: BLE001 - recorded for the test to fail on
            with self.lock:
                self.problems.append(f"{path}: {type(exc).__name__}: {exc}")
            return 400
        with self.lock:
            self.received.append(Received(path, headers, claims, payload))
        return 410 if path in self.gone else 201

    def check_vapid(self, authorization: str) -> dict:
        scheme, _, params = authorization.partition(" ")
        assert scheme == "vapid", authorization[:20]
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        token, key = fields["t"], fields["k"]
        assert key == self.server_key, "signed with the server's published key"
        header_b64, claims_b64, signature_b64 = token.split(".")
        header = json.loads(b64d(header_b64))
        assert header == {"typ": "JWT", "alg": "ES256"}, header
        signature = b64d(signature_b64)
        assert len(signature) == 64, "a raw ES256 signature (r || s)"
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(key))
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
        claims = json.loads(b64d(claims_b64))
        assert claims["aud"] == self.base, claims
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600 + 60, claims
        assert claims["sub"].startswith(("mailto:", "https:")), claims
        return claims
