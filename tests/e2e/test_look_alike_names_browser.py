"""Look-alike names in the browser (issue 30, point 11): at a friend's invite, a visitor typing a
name that looks like a seat-mate's, like an account's, or one with invisible characters is told
why in the page's language, and sits nowhere until the name is plain and distinct."""

from __future__ import annotations

import pytest

from tests.support.browser import DESKTOP, PHONE, create_room, room_api, watch_errors
from tests.support.clients import Api

MESSAGES = {
    "en-US": {"name_confusable_in_room": "looks the same", "name_confusable": "looks like an account",
              "name_invisible": "invisible"},
    "ja-JP": {"name_confusable_in_room": "まぎらわしい名前の人", "name_confusable": "アカウントの名前とまぎらわしい",
              "name_invisible": "見えない文字"},
}


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("ja-JP", PHONE)], ids=["en-desktop", "ja-phone"])
def test_a_look_alike_name_is_refused_at_the_invite_in_the_readers_language(server, browser, locale, viewport, shots):
    words = MESSAGES[locale]
    owner = Api.new_player(server.base_url, "Hanako")
    assert owner.post("/api/accounts", {"password": "correct horse battery"}).status_code == 201
    host = browser.new_context(viewport=viewport, locale=locale).new_page()
    visitor = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(host) + watch_errors(visitor)
    invite = create_room(host, server.base_url, "Aki", "synomilia")

    visitor.goto(invite)
    visitor.locator(".take-seat[data-seat='1']").wait_for()
    for name, code in (("\u0410ki", "name_confusable_in_room"),  # Cyrillic А: Aki is seated already
                       ("\u041d\u0430nako", "name_confusable"),  # Cyrillic Н and а: Hanako's account
                       ("Han\u200bako", "name_invisible")):  # a zero-width space
        if visitor.locator("#rename").count() or visitor.locator("#rename-input").count():
            if not visitor.locator("#rename-input").count():  # once the browser knows a guest, it renames that guest
                visitor.locator("#rename").click()
            visitor.fill("#rename-input", name)
            visitor.locator("#rename-save").click()
        else:
            visitor.fill("#name-input", name)
            visitor.click(".take-seat[data-seat='1']")
        visitor.locator("#toast", has_text=words[code]).wait_for()
        visitor.screenshot(path=shots / f"look-alike-{code}-{locale}-{viewport['width']}.png", full_page=True)
        assert room_api(host)["body"]["seats"][1]["player_id"] is None  # seated nowhere
    assert errors == []
