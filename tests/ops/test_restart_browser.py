"""A browser player through a server restart: on SIGTERM the page says "Server restarting,
reconnecting…" (not an error), keeps trying while the server is down, and when the server is back
it resumes from its version and plays on — in real Chromium against the server process."""

from __future__ import annotations

import signal

from tests.support.browser import create_room, join_room, start_match, watch_errors
from tests.support.server import ServerProcess


def test_browser_says_restarting_and_resumes(database_url, browser):
    server = ServerProcess(database_url)
    server.start()
    try:
        host = browser.new_context().new_page()
        guest = browser.new_context().new_page()
        errors = watch_errors(host) + watch_errors(guest)
        invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
        join_room(guest, host, invite, "Ben", 1)
        start_match(host)
        guest.locator(".synomilia-actions button").first.wait_for()
        host.locator(".synomilia-actions button[title='Predict 4']").click()  # version 1, committed
        host.locator(".synomilia-actions button").first.wait_for(state="detached")

        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=15) == 0
        for page in (host, guest):
            page.locator("#status.offline", has_text="Server restarting, reconnecting…").wait_for(timeout=5000)

        server.start()  # same port: the pages find it by themselves
        for page in (host, guest):
            page.locator("#status:not(.offline)").wait_for(timeout=15000)
        # The guest plays on from where it was: the host's card face down, its own choice open.
        guest.locator(".synomilia-card.synomilia-down", has_text="?").wait_for()
        guest.locator(".synomilia-actions button[title='Predict 6']").click()
        guest.locator(".synomilia-actions button[title='Predict 6']").wait_for(state="detached")
        assert errors == []
    finally:
        server.stop()
