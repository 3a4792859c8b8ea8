"""Motion (issue 32): in every game the newest play moves once — it lands on the table from the
hand's side, or a card turned face up flips — in 300 ms or less, and stays marked until the next
play; with prefers-reduced-motion nothing moves and the mark stays. A redraw that brings no new
play (Mipolin's notebook) moves nothing again (static/motion.js)."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import DESKTOP, add_bot, create_room, start_match, wait_for_table, watch_errors
from tests.support.databases import fresh_database


@pytest.fixture
def database_url(tmp_path):
    """SQLite only: what the page draws does not depend on the database."""
    with fresh_database("sqlite", tmp_path) as url:
        yield url


CASES = [("synomilia", 2, {"reveal_delay": 0}), ("peribit", 2, {}), ("three_magic", 3, {"call_window": 0.5}),
         ("mipolin", 3, {}), ("makelandia", 4, {})]
MOVING = "#table .art-played, #table .art-reveal"
CONTROLS = ".game button:not(.mipolin-nb-clear):not([disabled]), .mipolin-area.can"
# Until the table shows a play that moves, Aki plays a random offered control (the bots wait for
# her when the decision is hers); then what the newest play's element looks like, read at once.
PLAY_UNTIL_MOTION = """([moving, controls]) => {
  const found = document.querySelector(moving);
  if (found) return true;
  const mine = [...document.querySelectorAll(controls)];
  if (mine.length) mine[Math.floor(Math.random() * mine.length)].click();
  return false;
}"""
LOOK = """sel => [...document.querySelectorAll(sel)].map(e => { const s = getComputedStyle(e);
  return [e.className, s.animationName, s.animationDuration, s.outlineStyle]; })"""


def seconds(duration: str) -> float:
    return float(re.fullmatch(r"([\d.]+)s", duration).group(1))


@pytest.mark.parametrize("game,seats,options", CASES, ids=[c[0] for c in CASES])
def test_the_newest_play_moves_once_and_stays_marked(server, browser, game, seats, options):
    page = browser.new_context(viewport=DESKTOP, reduced_motion="no-preference").new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Aki", game, options, seats=seats)
    for seat in range(1, seats):
        add_bot(page, seat)
    start_match(page)
    wait_for_table(page, ".game")
    page.wait_for_function(PLAY_UNTIL_MOTION, arg=[MOVING, CONTROLS], polling=400, timeout=90_000)
    looks = page.evaluate(LOOK, MOVING)
    assert looks, game
    for classes, name, duration, outline in looks:
        if "art-still" in classes:
            assert name == "none", looks  # a redraw of a play already seen
        else:
            assert name in ("art-land", "art-flip"), looks
            assert 0 < seconds(duration) <= 0.3, looks
        if "art-played" in classes:
            assert outline == "solid", looks  # marked until the next play
    page.emulate_media(reduced_motion="reduce")
    for classes, name, _, outline in page.evaluate(LOOK, MOVING):
        assert name == "none", classes
        if "art-played" in classes:
            assert outline == "solid", classes
    assert errors == []


def test_a_redraw_without_a_new_play_moves_nothing(server, browser):
    """Mipolin redraws its table when a notebook cell is marked: the marked newest play stays,
    still."""
    page = browser.new_context(viewport=DESKTOP, reduced_motion="no-preference").new_page()
    create_room(page, server.base_url, "Aki", "mipolin", seats=3)
    add_bot(page, 1)
    add_bot(page, 2)
    start_match(page)
    wait_for_table(page, ".mipolin-nb td")
    page.wait_for_function(PLAY_UNTIL_MOTION, arg=["#table .art-played", CONTROLS], polling=400, timeout=90_000)
    # mark a cell and read the table in the same evaluation, before any bot's view can arrive
    after = page.evaluate("""() => { document.querySelector('.mipolin-nb td[role=button]').click();
      return [...document.querySelectorAll('#table .art-played')].map(e => [e.className, getComputedStyle(e).animationName]); }""")
    assert after and all("art-still" in classes and name == "none" for classes, name in after), after


MARK_CHANGES = """async () => {
  const { h, markChanges } = await import('/static/dom.js');
  const marked = (root) => [...root.querySelectorAll('.just-changed')].map((e) => e.textContent);
  const board = (notice, chips, slot) => h('div', {},
    notice ? h('p', { class: 'notice' }, notice) : '',
    h('div', { class: 'row' }, h('span', {}, 'Aki'), h('span', { class: 'chips' }, chips)),
    h('div', { class: 'row turn' }, h('span', {}, 'Ben'), h('span', { class: 'chips' }, '7')),
    h('div', { class: 'slots' }, slot ? h('div', { class: 'card down' }, '?') : h('div', { class: 'slot' }, '·')));
  const first = board('', '5', false);
  const texts = markChanges(first, null);
  const noticeAbove = board('A bot plays for Ben', '5', false);  // a paragraph appears above the rows
  const chipsChanged = board('', '4', false);
  const cardInSlot = board('', '5', true);  // a face-down card takes the empty slot's place
  markChanges(noticeAbove, texts); markChanges(chipsChanged, texts); markChanges(cardInSlot, texts);
  return { first: marked(first), noticeAbove: marked(noticeAbove), chipsChanged: marked(chipsChanged),
           cardInSlot: marked(cardInSlot) };
}"""


def test_only_what_changed_is_marked_when_the_table_changes_shape(server, browser):
    """``markChanges`` (static/dom.js) marks a leaf whose text changed at its place on the table; a
    paragraph of another kind appearing above the rows moves no place (an index among all children
    once marked every unchanged row below it), while a card taking an empty slot's place is marked."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.base_url + "/")
    assert page.evaluate(MARK_CHANGES) == {"first": [], "noticeAbove": [], "chipsChanged": ["4"], "cardInSlot": ["?"]}


SCROLL_CUE = """async () => {
  const { h, scrollCue } = await import('/static/dom.js');
  const frames = (n) => new Promise((done) => { const next = (k) => (k ? requestAnimationFrame(() => next(k - 1)) : done()); next(n); });
  let observing = 0;  // boxes that a ResizeObserver watches
  const Original = window.ResizeObserver;
  window.ResizeObserver = class extends Original {
    observe(target) { observing += 1; super.observe(target); }
    disconnect() { observing -= 1; super.disconnect(); }
  };
  const box = () => h('div', { style: { width: '100px', overflowX: 'auto' } }, h('div', { style: { width: '400px' } }, 'wide'));
  const first = scrollCue(box());
  document.body.append(first);
  await frames(3);
  const shown = [observing, first.className];
  const second = scrollCue(box());
  first.replaceWith(second);  // the table drawn again at a move
  await frames(3);
  window.ResizeObserver = Original;
  return { shown, redrawn: [observing, second.className] };
}"""


def test_a_scroll_cue_stops_watching_a_box_that_left_the_page(server, browser):
    """``scrollCue`` (static/dom.js) marks a box with more to its right; when the table is drawn
    again, the old box's ResizeObserver is disconnected (one per redraw was kept, every move)."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.base_url + "/")
    assert page.evaluate(SCROLL_CUE) == {"shown": [1, "more-right"], "redrawn": [1, "more-right"]}
