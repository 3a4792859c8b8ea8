"""Headless Chromium (Debian's package) driven by Playwright. Without /usr/bin/chromium a browser
test fails (never skips), so a missing browser cannot pass unnoticed."""

from __future__ import annotations

import os
import time
from contextlib import contextmanager

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@contextmanager
def chromium():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs it (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def watch_errors(page) -> list[str]:
    """Collect uncaught page errors so a test can assert the client never crashed."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def create_room(page, base_url: str, name: str, game: str, options: dict | None = None) -> str:
    """On the landing page: name yourself, pick the game (and room options), create; returns the invite link."""
    page.goto(base_url + "/")
    page.fill("#name-input", name)
    page.select_option("#game-select", game)
    for option, value in (options or {}).items():
        page.fill(f"#game-options [data-option='{option}']", str(value))
    page.click("#create-room")
    invite = page.locator("#invite-url").input_value()
    assert "/r/" in invite
    return invite


def join_room(page, host_page, invite: str, name: str, seat: int) -> None:
    """Open the invite link as a new visitor, name yourself, take ``seat``; wait until the host sees it."""
    page.goto(invite)
    page.fill("#name-input", name)
    page.press("#name-input", "Enter")
    page.click(f".take-seat[data-seat='{seat}']")
    host_page.locator(f".seat[data-seat='{seat}'].on").wait_for()


def click_until_outcome(pages, selector: str, rng, seconds: float = 240) -> int:
    """Each page in turn clicks one random offered control until every page shows the outcome;
    returns how many clicks it took."""
    clicks = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(page.locator("#outcome").count() for page in pages):
            return clicks
        for page in pages:
            targets = page.locator(selector)
            count = targets.count()
            if count:
                try:
                    targets.nth(rng.randrange(count)).click(timeout=1000)
                    clicks += 1
                except Exception:
                    pass  # the table was redrawn under the click; try again
        pages[0].wait_for_timeout(50)
    raise AssertionError("the match did not end in the browsers")
