"""Touch targets (issue 32, WCAG 2.5.5): on a 390 px phone every visible control of the page (the
header, the room bar, the table, the chat) is at least 44×44 CSS px and no two overlap, for each
game's table with its first decision on screen. Links inside a sentence are the rule's own
exception (they would break the line); a link standing alone is a control like any other."""

from __future__ import annotations

import pytest

from tests.support.browser import PHONE, add_bot, create_room, start_match, wait_for_table


CASES = [("synomilia", 2, {"reveal_delay": 0}), ("peribit", 2, {}), ("three_magic", 3, {}),
         ("mipolin", 3, {}), ("makelandia", 4, {})]
CONTROLS = "#table button, #table .mipolin-area.can"
MIN = 44
# every visible control's box (page coordinates), skipping links that sit inside running text
MEASURE = """(min) => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden') continue;
    if (el.closest('[hidden], .sr-only')) continue;
    if (el.tagName === 'A' && style.display === 'inline') {
      const around = (el.parentElement.textContent || '').trim().length;
      if (around > (el.textContent || '').trim().length + 1) continue;  // a link in a sentence
    }
    const name = (el.getAttribute('aria-label') || el.textContent || el.id || el.className || '').trim().slice(0, 40);
    out.push({tag: el.tagName.toLowerCase(), name, cls: String(el.className).slice(0, 40),
              x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height});
  }
  return out;
}"""


def small_and_overlapping(boxes: list[dict]) -> tuple[list[str], list[str]]:
    small = [f"{b['tag']}.{b['cls']} {b['name']!r}: {b['w']:.0f}×{b['h']:.0f}" for b in boxes
             if b["w"] < MIN - 0.5 or b["h"] < MIN - 0.5]
    overlaps = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > 1 and dy > 1:
                inner = (a["x"] <= b["x"] and a["y"] <= b["y"] and a["x"] + a["w"] >= b["x"] + b["w"]
                         and a["y"] + a["h"] >= b["y"] + b["h"])
                outer = (b["x"] <= a["x"] and b["y"] <= a["y"] and b["x"] + b["w"] >= a["x"] + a["w"]
                         and b["y"] + b["h"] >= a["y"] + a["h"])
                if not (inner or outer):  # a control inside another (a label's box) is one target
                    overlaps.append(f"{a['name']!r} and {b['name']!r}")
    return small, overlaps


@pytest.mark.parametrize("game,seats,options", CASES, ids=[c[0] for c in CASES])
def test_every_control_is_a_finger_wide(server, browser, game, seats, options, shots):
    page = browser.new_context(viewport=PHONE).new_page()
    create_room(page, server.base_url, "Aki", game, options, seats=seats)
    for seat in range(1, seats):
        add_bot(page, seat)
    start_match(page)
    wait_for_table(page, CONTROLS)
    page.wait_for_timeout(500)
    page.screenshot(path=shots / f"{game}-touch.png", full_page=True)
    small, overlaps = small_and_overlapping(page.evaluate(MEASURE, MIN))
    assert small == [], f"{game}: {len(small)} controls under {MIN} px: {small}"
    assert overlaps == [], f"{game}: overlapping controls: {overlaps}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_message_never_stands_between_a_finger_and_a_control(server, browser):
    """The message that pops up at the bottom of a phone's screen for a few seconds (an error, say)
    lies over whatever is there, the chat's Send button at times: a tap on its spot reaches the
    control under it."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.base_url + "/")
    page.locator(".game-card").first.wait_for()
    page.evaluate("import('/static/client.js').then((m) => m.toast('The server is restarting: try again'))")
    toast = page.locator("#toast")
    toast.wait_for()
    box = toast.bounding_box()
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.id ?? ''",
                        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert hit != "toast"
