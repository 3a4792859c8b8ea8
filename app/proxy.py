"""Who the client is behind a reverse proxy: the connection's peer, unless that peer is a proxy
listed in ``FORWARDED_ALLOW_IPS``; then the LAST entry of ``X-Forwarded-For`` (the one that proxy
wrote: anything before it was written by the client and proves nothing) and the last
``X-Forwarded-Proto``.

uvicorn's own proxy-header handling is turned off (``app/serving.py``): with ``*`` it takes the
first, client-written entry, so a client chose its own per-IP rate-limit buckets behind HAProxy
(issue 30). One proxy hop is supported; the proxy should replace the header rather than append to
it (deploy/haproxy.cfg), but even appended, only its own entry counts here."""

from __future__ import annotations

import ipaddress

SCHEMES = {"http": ("http", "ws"), "https": ("https", "wss")}  # forwarded proto -> (http, websocket) scheme


class TrustedProxies:
    """``FORWARDED_ALLOW_IPS``: ``*`` (any peer; only when nothing but the proxy can reach the app)
    or comma-separated addresses and networks (``10.0.0.2``, ``172.31.250.0/24``)."""

    def __init__(self, text: str):
        items = [item.strip() for item in text.split(",") if item.strip()]
        self.anyone = "*" in items
        self.networks = [ipaddress.ip_network(item, strict=False) for item in items if item != "*"]

    def __contains__(self, host: str | None) -> bool:
        if self.anyone:
            return True
        try:
            address = ipaddress.ip_address(host or "")
        except ValueError:
            return False  # (a unix socket's peer, say)
        return any(address in network for network in self.networks)


def _last_entry(headers, name: bytes) -> str | None:
    values = [value.decode("latin-1") for key, value in headers if key == name]
    entries = [entry.strip() for entry in ",".join(values).split(",") if entry.strip()]
    return entries[-1] if entries else None


class ProxyHeadersMiddleware:
    def __init__(self, app, trusted: str):
        self.app = app
        self.trusted = TrustedProxies(trusted)

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            if client and client[0] in self.trusted:
                scope = dict(scope)
                headers = scope.get("headers") or []
                forwarded_for = _last_entry(headers, b"x-forwarded-for")
                if forwarded_for:
                    host = forwarded_for
                    if host.startswith("[") and "]" in host:  # [v6]:port
                        host = host[1:host.index("]")]
                    elif host.count(":") == 1:  # v4:port
                        host = host.partition(":")[0]
                    scope["client"] = (host, 0)
                proto = (_last_entry(headers, b"x-forwarded-proto") or "").lower()
                if proto in SCHEMES:
                    scope["scheme"] = SCHEMES[proto][scope["type"] == "websocket"]
        await self.app(scope, receive, send)
