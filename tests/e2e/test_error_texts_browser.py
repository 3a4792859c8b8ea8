"""A refusal is said in the page's language (static/error_texts.js): a host who already has as many
unstarted rooms as allowed and creates one more is told why in Japanese on a Japanese page, in
English on an English one — never the server's English message on a Japanese page."""

from __future__ import annotations

import pytest

from tests.support.axe import severe_violations
from tests.support.browser import DESKTOP, PHONE, create_room, watch_errors
from tests.support.server import start_in_thread


@pytest.fixture
def one_room_each(database_url):
    running = start_in_thread(database_url, max_open_rooms_per_player=1)
    yield running
    running.stop()


@pytest.mark.parametrize("locale,viewport,expected", [
    ("ja-JP", PHONE, "開始していない部屋をもうたくさん持っています"),
    ("en-US", DESKTOP, "You already host many rooms that have not started"),
], ids=["ja-phone", "en-desktop"])
def test_too_many_rooms_is_said_in_the_pages_language(one_room_each, browser, locale, viewport, expected, shots):
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(page)
    create_room(page, one_room_each.base_url, "Aki", "synomilia")  # the one unstarted room allowed
    page.goto(one_room_each.base_url + "/")
    page.click("#create-room")
    toast = page.locator("#toast")
    toast.wait_for()
    text = toast.inner_text()
    assert expected in text, text
    assert "you already host" not in text or locale == "en-US", text  # not the server's own words
    assert severe_violations(page) == []
    page.screenshot(path=shots / f"refusal-too-many-rooms-{locale}.png")
    assert errors == [], errors
