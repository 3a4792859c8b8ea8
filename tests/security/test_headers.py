"""Security basics against the real server: security headers and a Content-Security-Policy without
inline script on every page and API answer; no served page carries inline script or inline event
handlers; bearer tokens are stored only as hashes; the admin token check."""

from __future__ import annotations

from html.parser import HTMLParser

import httpx
from sqlalchemy import MetaData, create_engine, select

from app.security import same_secret
from app.settings import ROOT
from tests.support.driver import setup_room

PAGES = ["/", "/static/index.html"] + [f"/static/{p.name}" for p in sorted((ROOT / "static").glob("*.html"))] \
    + [f"/static/rules/{p.name}" for p in sorted((ROOT / "static" / "rules").glob("*.html"))]


class InlineScriptFinder(HTMLParser):
    def __init__(self):
        super().__init__()
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self._in_script = "src" not in attrs
        for name, value in attrs.items():
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:...>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.problems.append(f"inline <script>: {data.strip()[:40]}")


def assert_secured(response: httpx.Response) -> None:
    headers = response.headers
    csp = {d.split()[0]: d.split()[1:] for d in headers["content-security-policy"].split("; ")}
    assert csp["script-src"] == ["'self'"] and csp["object-src"] == ["'none'"], csp
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"


def test_every_page_has_security_headers_and_no_inline_script(server):
    room_id, (host, _) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    http = httpx.Client(base_url=server.base_url)
    assert len(PAGES) > 8
    for path in PAGES + [f"/r/{room_id}"]:
        response = http.get(path)
        assert response.status_code == 200, path
        assert_secured(response)
        finder = InlineScriptFinder()
        finder.feed(response.text)
        assert finder.problems == [], (path, finder.problems)
    for response in (http.get("/api/games"), http.get("/api/rooms/nope"), http.get("/static/app.js"),
                     http.get("/openapi.json"), http.post("/api/players", json={})):
        assert_secured(response)


def test_api_docs_get_their_own_narrow_policy(server):
    response = httpx.get(f"{server.base_url}/docs")
    csp = response.headers["content-security-policy"]
    # (Issue 30: the docs' bundles are ours now, pinned; no CDN in either policy.)
    assert "worker-src 'self' blob:" in csp and "script-src 'self';" in csp and "frame-ancestors 'none'" in csp
    assert "cdn.jsdelivr.net" not in csp + httpx.get(f"{server.base_url}/").headers["content-security-policy"]


def test_tokens_are_stored_only_as_hashes(server, database_url):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    tokens = {host.token, guest.token}
    db = create_engine(database_url)
    metadata = MetaData()
    metadata.reflect(db)
    with db.connect() as connection:
        stored = " ".join(str(value) for table in metadata.sorted_tables
                          for row in connection.execute(select(table)) for value in row)
    db.dispose()
    assert host.player_id in stored  # the scan sees the rows
    assert not any(token in stored for token in tokens)


def test_admin_token_check():
    assert same_secret("s3cret", "s3cret")
    assert not same_secret("s3cre", "s3cret") and not same_secret("s3cret-and-more", "s3cret")
    assert not same_secret("", "") and not same_secret("anything", "")
