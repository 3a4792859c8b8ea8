"""Every page that draws itself once has the top bar's language switch (static/lang_toggle.js): the
leaderboard and a player's page, the account page. The switch names the other language, and the
page comes back in it, with <html lang> saying which (a screen reader reads Japanese with a
Japanese voice)."""

from __future__ import annotations

import pytest

from tests.support.axe import severe_violations
from tests.support.browser import DESKTOP, PHONE, unnamed_controls, watch_errors
from tests.support.clients import Api

PAGES = [("/static/ratings.html?game=synomilia", "h1", "Leaderboard", "ランキング"),
         ("/static/account.html", "h1", "Account", "アカウント")]


@pytest.mark.parametrize("path,heading,english,japanese", PAGES, ids=["leaderboard", "account"])
def test_the_language_switch_turns_the_page_japanese_and_back(server, browser, path, heading, english, japanese, shots):
    page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    errors = watch_errors(page)
    page.goto(server.base_url + path)
    toggle = page.get_by_role("button", name="日本語に切り替える")
    toggle.wait_for()
    assert toggle.inner_text() == "日本語"
    assert page.locator(heading).first.inner_text().startswith(english)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert severe_violations(page) == []
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=shots / f"language-switch-{english.lower()}-en-1280.png")
    page.set_viewport_size(PHONE)
    toggle.click()
    page.get_by_role("button", name="Switch to English").wait_for()
    assert page.locator(heading).first.inner_text().startswith(japanese)
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert unnamed_controls(page) == [] and severe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the bar fits a phone
    page.screenshot(path=shots / f"language-switch-{english.lower()}-ja-390.png")
    page.get_by_role("button", name="Switch to English").click()
    page.get_by_role("button", name="日本語に切り替える").wait_for()
    assert page.locator(heading).first.inner_text().startswith(english)
    assert errors == []


def test_a_players_page_follows_the_readers_language(server, browser):
    aki = Api.new_player(server.base_url, "Aki")
    page = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    page.goto(f"{server.base_url}/static/ratings.html?player={aki.player_id}")
    page.get_by_role("button", name="Switch to English").wait_for()
    assert page.evaluate("document.documentElement.lang") == "ja"
