"""The installable app (issue 31.5): the web app manifest and the service worker, both at the root
(a service worker controls only the paths below its own URL, so it is served at ``/sw.js``).

The service worker is ``static/sw.js`` with this build's fingerprint and app shell written in: a
deploy changes the fingerprint, so browsers install the new worker, cache the new shell and drop
the old one. Both are revalidated on every visit (``no-cache``), like pages."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import Response

router = APIRouter(include_in_schema=False)

OFFLINE = "/static/offline.html"
# What the app shell is: the client's scripts, stylesheets, fonts and pictures (~ the first visit's
# download). Not the vendored API-docs bundles nor the link-preview pictures, which pages never show.
SHELL_SUFFIXES = (".js", ".css", ".woff", ".woff2", ".svg", ".png")
NOT_SHELL = ("vendor/", "img/og/", "sw.js", "api-docs.js")


def shell(assets) -> list[str]:
    names = sorted(name for name in assets.files
                   if name.endswith(SHELL_SUFFIXES) and not name.startswith(NOT_SHELL))
    return [OFFLINE, *(assets.url(name) for name in names)]


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    assets = request.app.state.assets
    cached = getattr(request.app.state, "service_worker", None)
    if cached is None:  # made once per process: the files do not change while it runs
        source = assets.files["sw.js"].body.decode()
        cached = request.app.state.service_worker = (
            source.replace('"__BUILD__"', json.dumps(assets.fingerprint), 1)
            .replace('"__SHELL__"', json.dumps(json.dumps(shell(assets))), 1).encode())
    return Response(cached, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/manifest.webmanifest")
def manifest(request: Request) -> Response:
    return Response(request.app.state.assets.files["manifest.webmanifest"].body,
                    media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})
