"""Fast pages (issue 32): against a real server, pages, scripts, stylesheets and pictures go out
gzipped; scripts, stylesheets and pictures have fingerprinted URLs kept for a year, pages are
revalidated; every page has a meta description; the NDJSON stream is not compressed and each line
still arrives on its own."""

from __future__ import annotations

import gzip
import re
import time

import httpx
import pytest

from app.assets import IMMUTABLE
from app.settings import ROOT
from tests.live.helpers import Stream
from tests.support.driver import setup_room

GZIP = {"Accept-Encoding": "gzip"}
# static/index.html is the shell that "/" and "/r/<room>" fill in, static/night.html the one of
# "/n/<night>" (app/page_html.py): not pages of their own
SHELLS = {"index.html", "night.html"}
NOT_FOUND = ["/r/no-such-room", "/no/such/page"]
PAGES = ["/", "ROOM", "NIGHT"] + NOT_FOUND + [
    f"/static/{p.relative_to(ROOT / 'static').as_posix()}" for p in sorted((ROOT / "static").rglob("*.html"))
    if p.name not in SHELLS]


def raw_get(client: httpx.Client, url: str, **headers) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent (httpx would otherwise decode the gzip for us)."""
    with client.stream("GET", url, headers=headers) as response:
        return response, b"".join(response.iter_raw())


def references(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        yield client


def test_pages_point_at_fingerprinted_assets_kept_for_a_year(http):
    response, body = raw_get(http, "/", **GZIP)
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["cache-control"] == "no-cache"
    html = gzip.decompress(body).decode()
    assets = [url for url in references(html) if not url.endswith(".html")]
    kinds = {url.rsplit(".", 1)[1] for url in assets}
    assert {"js", "css"} <= kinds, assets
    fingerprint = re.match(r"/static/v/([0-9a-f]{16})/", assets[0]).group(1)
    assert all(url.startswith(f"/static/v/{fingerprint}/") for url in assets), assets
    # ES modules import each other (and the tables, by template literal) by fingerprinted URL too
    app_js = http.get(f"/static/v/{fingerprint}/app.js").text
    assert f'from "/static/v/{fingerprint}/dom.js"' in app_js
    # every module app.js imports, directly or not, is preloaded with the page: one round trip for
    # the graph rather than one per level (lobby.js comes through room.js)
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert {f"/static/v/{fingerprint}/{m}" for m in ("dom.js", "room.js", "lobby.js")} <= set(preloads), preloads
    assert f"/static/v/{fingerprint}/app.js" not in preloads  # (the page's own script)
    tables_js = http.get(f"/static/v/{fingerprint}/tables.js").text  # a table's module and its stylesheet
    assert f"`/static/v/{fingerprint}/games/${{" in tables_js
    assert f"`/static/v/{fingerprint}/css/games/${{" in tables_js
    game_css = http.get(f"/static/v/{fingerprint}/css/games/peribit.css").text  # its pictures too
    assert f"url(/static/v/{fingerprint}/img/art/bellum.svg)" in game_css
    landing_js = http.get(f"/static/v/{fingerprint}/landing.js").text
    assert f"`/static/v/{fingerprint}/img/${{" in landing_js
    assert "/static/ratings.html" in landing_js  # links to pages keep their plain URLs

    for path in ["app.js", "games/three_magic.js", "css/app.css", "css/games/three_magic.css", "img/peribit.svg"]:
        response, body = raw_get(http, f"/static/v/{fingerprint}/{path}", **GZIP)
        assert response.status_code == 200, path
        assert response.headers["cache-control"] == IMMUTABLE, path
        assert response.headers["content-encoding"] == "gzip", path
        assert gzip.decompress(body) == http.get(f"/static/{path}").content, path
        # without the fingerprint: the same file, revalidated
        plain = http.get(f"/static/{path}")
        assert plain.headers["cache-control"] == "no-cache", path
        again = http.get(f"/static/{path}", headers={"If-None-Match": plain.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", path
    font = http.get(f"/static/v/{fingerprint}/fonts/symbols.woff", headers=GZIP)  # already compressed
    assert font.headers["cache-control"] == IMMUTABLE and font.headers["content-type"] == "font/woff"
    assert "content-encoding" not in font.headers
    assert http.get(f"/static/v/{fingerprint}/app.js").headers["content-type"].startswith("text/javascript")
    assert http.get(f"/static/v/{fingerprint}/img/peribit.svg").headers["content-type"] == "image/svg+xml"

    # another build's fingerprint still gets today's file, but nothing is kept for a year
    old = http.get("/static/v/0123456789abcdef/app.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    assert http.get(f"/static/v/{fingerprint}/nope.js").status_code == 404
    assert http.get("/static/../app/main.py").status_code == 404
    assert http.get(f"/static/v/{fingerprint}/../../app/main.py").status_code == 404
    assert http.post("/static/app.js").status_code == 405


@pytest.mark.parametrize("page", PAGES)
def test_every_page_is_compressed_revalidated_and_described(server, http, page):
    if page == "ROOM":
        room_id, _ = setup_room(server.base_url, "peribit", ["Aki", "Ben"])
        page = f"/r/{room_id}"
    if page == "NIGHT":
        room_id, apis = setup_room(server.base_url, "peribit", ["Aki", "Ben"])
        night = apis[0].post("/api/nights", {"room_id": room_id})
        assert night.status_code == 201, night.text
        page = f"/n/{night.json()['id']}"
    browser = {"Accept": "text/html"}
    response, body = raw_get(http, page, **GZIP, **browser)
    assert response.status_code == (404 if page in NOT_FOUND else 200), page
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["cache-control"] == "no-cache"
    html = gzip.decompress(body).decode()
    match = re.search(r'<meta name="description" content="([^"]{20,300})">', html)
    assert match, f"{page} has no meta description"
    for url in references(html):
        if not url.endswith(".html"):
            assert url.startswith("/static/v/"), (page, url)
            assert http.get(url).status_code == 200, (page, url)
    # uncompressed for a client that does not ask
    plain, body = raw_get(http, page, **{"Accept-Encoding": "identity"}, **browser)
    assert "content-encoding" not in plain.headers and body.decode() == html


def test_api_json_is_compressed(http):
    response, body = raw_get(http, "/openapi.json", **GZIP)
    assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(body).startswith(b"{")


def test_the_ndjson_stream_is_not_compressed_and_each_line_arrives_alone(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    stream = Stream(server.base_url, room_id, guest.token)  # httpx asks for gzip
    try:
        assert "content-encoding" not in stream.response.headers
        assert stream.next()["version"] == 0
        view = host.get(f"/api/rooms/{room_id}/view").json()
        started = time.monotonic()
        assert host.post(f"/api/rooms/{room_id}/actions",
                         {"action": view["legal_actions"][0], "version": 0}).status_code == 200
        assert stream.until(lambda m: m["type"] == "view")["version"] == 1
        assert time.monotonic() - started < 5  # the line came at once, not with a later one
    finally:
        stream.close()


def test_a_table_page_preloads_its_game(server):
    """A room's page names its game's module (and what it imports) and stylesheet in its head, so
    they load with the page's own files instead of after the room is read."""
    room_id, _ = setup_room(server.base_url, "mipolin", ["Aki", "Ben", "Cho"])
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        html = client.get(f"/r/{room_id}").text
    head = html.split("</head>")[0]
    assert re.search(r'<link rel="modulepreload" href="/static/v/[0-9a-f]{16}/games/mipolin\.js">', head), head
    assert re.search(r'<link rel="modulepreload" href="/static/v/[0-9a-f]{16}/motion\.js">', head), head
    assert re.search(r'<link rel="preload" as="style" href="/static/v/[0-9a-f]{16}/css/games/mipolin\.css">', head), head
