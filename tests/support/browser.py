"""Headless Chromium (Debian's package) driven by Playwright. Without /usr/bin/chromium a browser
test fails (never skips), so a missing browser cannot pass unnoticed."""

from __future__ import annotations

import os
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
