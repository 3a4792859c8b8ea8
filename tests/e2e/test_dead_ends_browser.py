"""No dead ends (issue 29, point 9): an unknown room or address opened in a browser answers a page
in the site's look with a way back (the API keeps answering JSON); invite links and the landing
carry Open Graph tags for link previews, with nothing a seat could hide; rules pages open in the
reader's language with a way back to the table, and Three Magic's page says one thing about the
dealer's hand at an exhaustive draw."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import DESKTOP, PHONE, create_room, unnamed_controls, watch_errors
from tests.support.clients import Api


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("ja-JP", PHONE)], ids=["en-desktop", "ja-phone"])
def test_unknown_room_and_address_answer_the_sites_page_with_a_way_back(server, browser, locale, viewport, shots):
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(page)
    ja = locale.startswith("ja")
    for path, what in (("/r/NoSuchRoom42", "room"), ("/no/such/page", "page")):
        response = page.goto(server.base_url + path)
        assert response.status == 404
        assert "text/html" in response.headers["content-type"]
        page.locator(".topbar .brand").wait_for()  # the site's header
        found = page.locator("#not-found")
        heading = found.locator("h1").inner_text()
        assert ("見つかりません" in heading) if ja else ("Not found" in heading)
        first = found.locator("p").first.inner_text()
        if what == "room":
            assert ("部屋はありません" in first) if ja else ("no table at this address" in first)
        assert page.locator("#lang-toggle").inner_text() in ("English", "日本語")  # the header is drawn
        assert unnamed_controls(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=shots / f"not-found-{what}-{locale}-{viewport['width']}.png", full_page=True)
    # the way back: the landing, where a game can be started
    page.locator("#not-found a.primary-link").click()
    page.locator(".game-card").first.wait_for()
    assert page.url.rstrip("/") == server.base_url
    assert errors == []

    # API clients still get JSON, even when they say they take HTML
    for path in ("/api/rooms/NoSuchRoom42", "/api/no-such-thing"):
        answer = page.request.get(server.base_url + path, headers={"Accept": "text/html,application/json"})
        assert answer.status == 404
        assert answer.headers["content-type"].startswith("application/json")
        assert answer.json()["error"]["code"] == "not_found"
    # ... and so does a script asking for JSON at any address
    answer = page.request.get(server.base_url + "/no/such/page", headers={"Accept": "application/json"})
    assert answer.status == 404 and answer.json()["error"]["code"] == "not_found"


def og_tags(html: str) -> dict[str, str]:
    return dict(re.findall(r'<meta property="(og:[a-z:_]+)" content="([^"]*)"', html))


def test_landing_and_invite_links_carry_open_graph_previews(server, browser):
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    # the landing: served with the tags in its HTML (a chat app's crawler runs no script)
    landing = page.request.get(server.base_url + "/").text()
    tags = og_tags(landing)
    assert tags["og:title"].startswith("Asobiba")
    assert "Makelandia" in tags["og:description"]
    assert tags["og:url"] == server.base_url + "/"
    image = page.request.get(tags["og:image"])
    assert tags["og:image"].startswith("http") and image.status == 200
    assert image.headers["content-type"] == "image/png"
    assert image.body()[:8] == b"\x89PNG\r\n\x1a\n"

    # a room link: the game, its size, seats free; no name, nothing of a match
    host = Api.new_player(server.base_url, "Akihiro")
    room = host.post("/api/rooms", {"game": "makelandia", "seats": 6}).json()
    html = page.request.get(room["invite_url"]).text()
    tags = og_tags(html)
    assert "Makelandia" in tags["og:title"] and "6" in tags["og:title"]
    assert "5 of 6 seats free" in tags["og:description"]
    assert tags["og:url"] == room["invite_url"]
    assert tags["og:image"].endswith("/static/img/og/makelandia.png")
    assert page.request.get(tags["og:image"]).status == 200
    assert "Akihiro" not in html
    assert re.search(r'<meta name="twitter:card" content="summary_large_image">', html)
    # the page itself still works as the room page
    page.goto(room["invite_url"])
    page.locator(".seat-list").wait_for()
    assert page.locator("meta[property='og:title']").get_attribute("content") == tags["og:title"]

    # a Japanese browser's preview is in Japanese; once started, it says a match runs (no more)
    ja = page.request.get(room["invite_url"], headers={"Accept-Language": "ja-JP,ja;q=0.9"}).text()
    assert "マケランディア" in og_tags(ja)["og:title"]
    for seat in range(1, 6):
        host.post(f"/api/rooms/{room['id']}/bots", {"seat": seat})
    assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    tags = og_tags(page.request.get(room["invite_url"]).text())
    assert tags["og:description"] == "A match is being played: open the link to watch."


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("ja-JP", PHONE)], ids=["en-desktop", "ja-phone"])
def test_rules_open_in_the_readers_language_with_a_way_back_to_the_table(server, browser, locale, viewport, shots):
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    ja = locale.startswith("ja")
    invite = create_room(page, server.base_url, "Aki", "three_magic")
    room_path = "/r/" + invite.rsplit("/r/", 1)[1]
    with context.expect_page() as opened:
        page.locator("#rules-link").click()
    rules = opened.value
    errors = watch_errors(rules)
    rules.wait_for_load_state()
    back = rules.locator("#rules-back")
    back.wait_for()
    mine, other = ("#ja", "#en") if ja else ("#en", "#ja")
    assert rules.locator(mine).is_visible() and not rules.locator(other).is_visible()
    assert rules.evaluate("document.documentElement.lang") == ("ja" if ja else "en")
    assert back.inner_text() == ("← テーブルに戻る" if ja else "← Back to the table")
    assert unnamed_controls(rules) == []
    rules.screenshot(path=shots / f"rules-{locale}-{viewport['width']}.png")

    # one rule about the exhaustive draw, in both languages: the tenpai dealer's hand is not shown
    english = rules.locator("#en").text_content()
    japanese = rules.locator("#ja").text_content()
    assert "hand is shown" not in english and "hand is not shown" in english
    assert "手札を公開します" not in japanese and "手札は公開しません" in japanese

    # the other language is one click away; the way back leads to the table
    rules.locator("#rules-language").click()
    assert rules.locator(other).is_visible() and not rules.locator(mine).is_visible()
    back.click()
    rules.locator(".seat-list").wait_for()
    assert rules.url == server.base_url + room_path
    assert errors == []

    # a table's own Rules link (no room in it) leads back to the last table of that game too
    table_rules = context.new_page()
    table_rules.goto(server.base_url + "/static/rules/three_magic.html")
    assert table_rules.locator("#rules-back").get_attribute("href") == room_path
    # opened for another game, or from the landing, the way back is to the landing
    landing_rules = context.new_page()
    landing_rules.goto(server.base_url + "/static/rules/makelandia.html")
    assert landing_rules.locator("#rules-back").get_attribute("href") == "/"
