"""Keyboard alone: a player reaches a game's quick start with Tab, starts it against bots with
Enter and plays the whole match (Three Magic: its first hand) with Tab and Enter only; after each
move the focus stays in the table. Mipolin's map areas and notebook cells are keyboard controls too, the notebook one tab stop
with the arrow keys inside (a hundred cells are not a hundred Tabs)."""

from __future__ import annotations

import random

import pytest

import engines

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


# What a player may choose on a turn: the table's controls, but not the notes kept for oneself.
PICK = """(n) => {
  for (const el of document.querySelectorAll("[data-kb-pick]")) el.removeAttribute("data-kb-pick");
  const all = [...document.querySelectorAll(".game button:not([disabled]), .game [role=button][tabindex]")]
    .filter((el) => !el.closest(".mipolin-nb, .mipolin-nb-clear") && el.offsetParent !== null);
  if (all.length) all[n % all.length].setAttribute("data-kb-pick", "");
  return all.length;
}"""
WHERE = """() => { const pick = document.querySelector("[data-kb-pick]");
  return !pick ? "gone" : document.activeElement === pick ? "here" : "on"; }"""


def tab_to_pick(page, limit: int = 200) -> bool:
    """Tab (forward only) to the control marked by ``PICK``; False when a redraw took it away."""
    for _ in range(limit):
        where = page.evaluate(WHERE)
        if where != "on":
            return where == "here"
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the chosen control: " + page.evaluate(
        "() => document.querySelector('[data-kb-pick]').outerHTML.slice(0, 200)"))


# When the test has seen enough: the match's outcome; in Three Magic, whose game is a series of
# matches (hands) dealt 6 s apart, each played like the first, the end of the first match.
OVER = "() => !!document.querySelector('#outcome')"
FIRST_HAND_OVER = "() => !!document.querySelector('#outcome') || document.querySelector('.game').innerText.includes('Match over')"


@pytest.mark.parametrize("game", engines.ids())
def test_a_whole_match_by_keyboard(server, browser, game):
    """Each turn a control of the table is chosen at random and reached with Tab alone (as a
    keyboard player would look for it), then pressed with Enter."""
    over = FIRST_HAND_OVER if game == "three_magic" else OVER
    page = browser.new_context(viewport=PHONE).new_page()
    errors = watch_errors(page)
    page.goto(server.base_url + "/")
    page.locator(".game-card").first.wait_for()
    tab_to(page, "el => el.id === 'name-input'")
    page.keyboard.type("Aki")
    tab_to(page, f"el => el.matches(\".game-card[data-game='{game}'] button.quick-start\")")
    page.keyboard.press("Enter")
    page.locator(".game").wait_for()

    rng = random.Random(4)
    moves = lost = 0
    for _ in range(3000):
        if page.evaluate(over):
            break
        if not page.title().startswith("●") or not page.evaluate(PICK, rng.randrange(10**6)):
            page.wait_for_timeout(50)  # the bots' move
            continue
        lost += moves > 0 and not active(page, IN_TABLE)  # after a move the focus should stay in the table
        if tab_to_pick(page):
            page.keyboard.press("Enter")
            moves += 1
            page.wait_for_timeout(60)
    assert page.evaluate(over), f"the match did not end in {moves} moves: " + \
        page.locator(".game").inner_text()[:600]
    # At least one move by keyboard, not more: the match's seed is random, and a Makelandia match
    # can end after the human's fourth decision (CI saw it; "at least 5" failed on such a seed).
    assert moves >= 1
    assert lost <= moves // 10, f"the focus left the table {lost} times in {moves} moves"
    assert errors == []


def test_mipolin_map_and_notebook_take_the_keyboard(server, browser, shots):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.base_url + "/")
    page.fill("#name-input", "Aki")
    page.locator(".game-card[data-game='mipolin'] button.quick-start").click()
    cell = page.locator(".mipolin-nb td").first
    cell.wait_for()
    assert cell.get_attribute("role") == "button" and cell.get_attribute("tabindex") == "0"
    assert cell.get_attribute("aria-label")
    # the notebook is one tab stop: the other cells wait for the arrow keys
    stops = page.locator(".mipolin-nb [role=button][tabindex='0']")
    assert stops.count() == 1 and page.locator(".mipolin-nb [role=button]").count() > 50
    cell.focus()
    page.keyboard.press("Enter")
    page.locator(".mipolin-nb td", has_text="✗").first.wait_for()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    marked = page.locator(".mipolin-nb tr").nth(2).locator("td").nth(1)
    assert marked.inner_text().strip() == "?"  # one right and one down, marked twice
    assert active(page, "el => el.matches('.mipolin-nb td')") and stops.count() == 1
    marked.screenshot(path=str(shots / "mipolin-notebook-focus.png"))  # the focus ring shows where the arrows went
    page.locator(".mipolin-nb").screenshot(path=str(shots / "mipolin-notebook.png"))
    page.keyboard.press("Tab")  # out of the notebook at once
    assert active(page, "el => !el.closest('.mipolin-nb')")
    for area in page.locator(".mipolin-area.can").all():
        assert area.get_attribute("role") == "button" and area.get_attribute("tabindex") == "0"
