"""Security headers on every HTTP response, and a Content-Security-Policy that lets pages run only
the scripts served from this origin (no inline script, no eval, no plugins, no framing).

Styles may be inline (``style-src 'unsafe-inline'``): a few elements get a ``style`` attribute
(a bar's width, a stone's colour); CSS cannot run script. Stylesheets are files (static/css/). The interactive API
docs (``/docs``, ``/redoc``) run only our vendored, pinned bundles (app/api_docs.py) and get the
same script policy, plus a worker from a blob for ReDoc's search. Over HTTPS every answer carries
``Strict-Transport-Security``."""

from __future__ import annotations

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
# The API docs (app/api_docs.py): our own pinned bundles, no inline script, but Swagger UI and
# ReDoc write inline styles and ReDoc searches in a worker it starts from a blob.
DOCS_CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
# Sent only over HTTPS (the connection's, or a trusted proxy's X-Forwarded-Proto: app/proxy.py):
# browsers ignore it over HTTP, and a site reached by plain HTTP must not pin itself to HTTPS.
HSTS = (b"strict-transport-security", b"max-age=31536000")
COMMON = [
    (b"x-content-type-options", b"nosniff"),
    # Room ids are the secret of an invite link: never send page URLs to other sites.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
DOCS_PATHS = ("/docs", "/redoc")


class SecurityHeadersMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        csp = (DOCS_CSP if scope.get("path", "").startswith(DOCS_PATHS) else CSP).encode()
        https = scope.get("scheme") == "https"

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                ours = COMMON + [(b"content-security-policy", csp)] + ([HSTS] if https else [])
                extra = [(n, v) for n, v in ours if n not in present]
                message = dict(message, headers=list(message.get("headers", [])) + extra)
            await send(message)

        await self.app(scope, receive, send_with_headers)
