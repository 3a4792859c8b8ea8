"""Three Magic in a phone-width browser against two bots: the table shows the fixed-order hand,
indicators and the rules link; the opening turns are played through the UI (insert slot, discard,
pass on calls) and the host's discards appear on the table."""

from __future__ import annotations

import time

from tests.support.browser import add_bot, create_room, start_match, watch_errors


def test_opening_turns_through_the_table(server, browser):
    host = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
    errors = watch_errors(host)
    create_room(host, server.base_url, "Aki", "three_magic")
    for seat in (1, 2):
        add_bot(host, seat)
    start_match(host)

    root = host.locator(".three_magic-root")
    root.wait_for()
    assert host.locator(".three_magic-root a[href='/static/rules/three_magic.html']").count() == 1
    assert host.locator(".three_magic-root", has_text="Catalyst indicators").count() == 1
    me = host.locator(".three_magic-hand")  # the hand box (above the players' rows while the host decides)
    assert me.locator(".three_magic-card").count() >= 8

    discarded = 0
    told = False
    deadline = time.monotonic() + 120
    while discarded < 3 and time.monotonic() < deadline:
        slots = host.locator("button.three_magic-slot")
        cards = host.locator("button.three_magic-card")
        passes = host.locator("button.three_magic-btn", has_text="Pass")
        if slots.count() and not told:
            # the host's own draw: told it is her move, never that the table waits for Aki
            root.filter(has_text="Your move.").wait_for(timeout=5000)
            text = root.inner_text()
            assert "Waiting for Aki" not in text and "Aki (you)" in text and "your move" in text, text
            told = True
        try:
            if slots.count():
                slots.last.click(timeout=1000)  # insert the drawn card at the end
            elif cards.count():
                cards.last.click(timeout=1000)  # discard the last card
                discarded += 1
            elif passes.count():
                passes.first.click(timeout=1000)
        except Exception:
            pass  # the table was redrawn under the click; try again
        host.wait_for_timeout(100)
    assert discarded == 3, "the host never got three turns"
    assert told
    # the host's own player box (the viewer's row, not the hand box) shows its discards
    pond = host.locator(".three_magic-box.three_magic-me:not(.three_magic-hand)").locator(".three_magic-small .three_magic-card")
    pond.first.wait_for()  # (drawn with the view that took the third discard)
    assert pond.count() >= 1
    width = host.evaluate("document.documentElement.scrollWidth")
    assert width <= 380, f"table overflows a phone screen: {width}px"
    assert errors == []
