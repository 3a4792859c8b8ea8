"""Transport (issue 30, point 14): HSTS exactly when the request came over HTTPS (as a trusted
proxy says), and the API docs run only our own pinned bundles, checked by Subresource Integrity,
under the site's script policy (no CDN, no inline script)."""

from __future__ import annotations

import base64
import hashlib
import re

import httpx

from app.settings import ROOT
from tests.security.test_headers import InlineScriptFinder
from tests.support.clients import client_from



def test_hsts_only_over_https_from_the_trusted_proxy(server):
    proxy, stranger = client_from("127.0.0.1", server.base_url), client_from("127.0.0.2", server.base_url)
    https = {"X-Forwarded-Proto": "https"}
    for path in ("/", "/api/games", "/docs", "/api/rooms/nope"):
        assert proxy.get(path, headers=https).headers.get("strict-transport-security") == "max-age=31536000", path
        assert "strict-transport-security" not in proxy.get(path).headers
        assert "strict-transport-security" not in proxy.get(path, headers={"X-Forwarded-Proto": "http"}).headers
        # Anyone else's X-Forwarded-Proto proves nothing.
        assert "strict-transport-security" not in stranger.get(path, headers=https).headers


def sri(body: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(body).digest()).decode()


def test_the_api_docs_run_only_our_pinned_bundles(server):
    http = httpx.Client(base_url=server.base_url, timeout=30)
    for page in ("/docs", "/redoc"):
        response = http.get(page)
        assert response.status_code == 200
        csp = {d.split()[0]: d.split()[1:] for d in response.headers["content-security-policy"].split("; ")}
        assert csp["script-src"] == ["'self'"] and csp["default-src"] == ["'self'"], csp
        assert not re.search(r"https?://", response.headers["content-security-policy"])
        finder = InlineScriptFinder()
        finder.feed(response.text)
        assert finder.problems == [], finder.problems
        scripts = re.findall(r"<(?:script|link)\b[^>]*>", response.text)
        assert not re.search(r"""(src|href)="(https?:)?//""", response.text), scripts
        pinned = [(m.group(1), m.group(2)) for m in
                  re.finditer(r'(?:src|href)="(/static/[^"]*/vendor/[^"]+)" integrity="([^"]+)"', response.text)]
        assert pinned, scripts
        for url, integrity in pinned:
            assert sri(http.get(url).content) == integrity, url
    # The vendored files are the ones static/vendor/README.md records.
    recorded = re.findall(r"^    ([0-9a-f]{64})  (\S+)$", (ROOT / "static/vendor/README.md").read_text(), re.M)
    assert len(recorded) == 3
    for digest, name in recorded:
        assert hashlib.sha256((ROOT / "static/vendor" / name).read_bytes()).hexdigest() == digest, name
