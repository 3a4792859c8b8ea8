"""Keyboard alone: a player reaches the quick start with Tab, starts Synomilia against a bot with
Enter and plays the whole match with Tab and Enter only; after each move the focus stays in the
table. Mipolin's map areas and notebook cells are keyboard controls too."""

from __future__ import annotations

import random

from tests.support.browser import PHONE, watch_errors

IN_TABLE = "el => !!el.closest('.game') && (el.matches('button:not([disabled])') || el.getAttribute('role') === 'button')"


def active(page, script: str):
    return page.evaluate(f"() => {{ const el = document.activeElement; return el && ({script})(el); }}")


def tab_to(page, script: str, limit: int = 80) -> None:
    for _ in range(limit):
        if active(page, script):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {script}; focus on " + page.evaluate(
        "() => document.activeElement.outerHTML.slice(0, 200)") + "; table: " + page.locator(".game").inner_text()[:500])


def test_a_whole_match_by_keyboard(server, browser):
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch_errors(page)
    page.goto(server.base_url + "/")
    page.locator(".game-card").first.wait_for()
    tab_to(page, "el => el.id === 'name-input'")
    page.keyboard.type("Aki")
    tab_to(page, "el => el.matches(\".game-card[data-game='synomilia'] button.quick-start\")")
    page.keyboard.press("Enter")
    page.locator(".synomilia-root").wait_for()

    rng = random.Random(4)
    moves = lost = 0
    for _ in range(3000):
        if page.locator("#outcome").count():
            break
        if not page.title().startswith("●"):
            page.wait_for_timeout(50)  # the bot's move
            continue
        if not active(page, IN_TABLE):
            lost += moves > 0  # after the first move the focus should come back by itself
            tab_to(page, IN_TABLE)
        for _ in range(rng.randrange(3)):  # another control of the table, never out of it
            page.keyboard.press("Tab")
            if not active(page, IN_TABLE):
                page.keyboard.press("Shift+Tab")
                break
        if active(page, IN_TABLE):
            page.keyboard.press("Enter")
            moves += 1
            page.wait_for_timeout(60)
    assert page.locator("#outcome").count() == 1, "the match did not end"
    assert moves >= 5
    assert lost <= moves // 10, f"the focus left the table {lost} times in {moves} moves"
    assert errors == []


def test_mipolin_map_and_notebook_take_the_keyboard(server, browser):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.base_url + "/")
    page.fill("#name-input", "Aki")
    page.locator(".game-card[data-game='mipolin'] button.quick-start").click()
    cell = page.locator(".mipolin-nb td").first
    cell.wait_for()
    assert cell.get_attribute("role") == "button" and cell.get_attribute("tabindex") == "0"
    assert cell.get_attribute("aria-label")
    cell.focus()
    page.keyboard.press("Enter")
    page.locator(".mipolin-nb td", has_text="✗").first.wait_for()
    for area in page.locator(".mipolin-area.can").all():
        assert area.get_attribute("role") == "button" and area.get_attribute("tabindex") == "0"
