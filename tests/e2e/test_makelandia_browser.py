"""Makelandia at a table of four (the host and three bots), at desktop and phone width: when it is
the host's turn the decision comes first on screen (no scrolling), the hand is the control (tap
cards, pick the target, confirm), every play says what it does, the last action is highlighted,
the table fits a phone, and every control has an accessible name."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import (DESKTOP, PHONE, add_bot, create_room, in_first_viewport, room_api, start_match,
                                   unnamed_controls, watch_errors)

VAGUE = re.compile(r"\((Kill|strength \d+)\)")  # the old labels: "Kill (Kill)", "Boost (strength 0)"


def wait_for_my_move(page, seconds: float = 60) -> bool:
    """Wait until the host must decide; False if the match ended first."""
    page.locator("#my-move, #outcome").first.wait_for(timeout=seconds * 1000)
    page.wait_for_timeout(200)  # let the view settle (bots answer at once)
    page.locator("#my-move, #outcome").first.wait_for()
    return page.locator("#outcome").count() == 0


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_decision_comes_first_and_the_hand_plays(server, browser, viewport, shots):
    page = browser.new_context(viewport=viewport).new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Aki", "makelandia")
    for seat in (1, 2, 3):
        add_bot(page, seat)
    start_match(page)

    for turn in range(2):
        if not wait_for_my_move(page):
            assert turn > 0, "the match ended before the host's first decision"
            break
        page.evaluate("window.scrollTo(0, 0)")
        move = page.locator("#my-move")
        plays = move.locator(".makelandia-plays button, .makelandia-whom button")
        assert plays.count() >= 1
        # the decision and its first plays are on the first screen, phone included
        assert in_first_viewport(page, move.locator("h2"))
        assert in_first_viewport(page, move.locator(".makelandia-hand"))
        assert in_first_viewport(page, plays.first)
        if turn == 0:
            page.screenshot(path=shots / f"makelandia-move-{viewport['width']}.png")
        labels = [b.inner_text() for b in move.locator("button").all()]
        assert not any(VAGUE.search(label) for label in labels), labels
        assert unnamed_controls(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        # the hand is the control: tap a card, pick the target (on the ring when attacking), confirm
        card = move.locator(".makelandia-handcard").first
        card.click()
        card = page.locator("#my-move .makelandia-handcard").first
        assert card.get_attribute("aria-pressed") == "true"
        defending = page.locator(".makelandia-ring button.makelandia-pick").count() == 0
        if not defending:
            page.locator(".makelandia-ring button.makelandia-pick[aria-label^='Attack']").first.click()
        confirm = page.locator("#makelandia-confirm")
        text = confirm.inner_text()
        assert ("Defend with" if defending else "Attack") in text and ("strength" in text or "wins" in text)
        log_size = page.locator(".makelandia-log div").count()
        confirm.click()
        page.locator("#last-action").wait_for()
        page.wait_for_function(f"() => document.querySelectorAll('.makelandia-log div').length > {log_size}")
        if page.locator("#outcome").count():
            break
    if wait_for_my_move(page):  # a still position (nothing moves until the host decides):
        # the seats the latest event names are marked on the ring, those still on it (an "out"
        # event's seat may have left the ring; "start" and "end" name none)
        view = room_api(page, "/view")["body"]["view"]
        last = view["log"][-1]
        named = set() if last["event"] in ("start", "end") else {last.get("seat"), last.get("target")} - {None}
        assert page.locator(".makelandia-last").count() == sum(1 for seat in view["ring"] if seat in named), last
    houses = page.locator(".makelandia-root").inner_text()
    assert "Boost Boost" not in houses and "Kill Kill" not in houses
    assert page.get_by_role("combobox", name="Send to").is_visible()  # team chat channel picker
    assert errors == []
