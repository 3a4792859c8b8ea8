"""Headless Chromium (Debian's package) driven by Playwright. Without it a browser test fails (never
skips), so a missing browser cannot pass unnoticed.

The browser is Chromium's headless shell (Debian's ``chromium-headless-shell``, the build Playwright
itself runs headless tests with): the same Blink and V8 as ``/usr/bin/chromium`` without the full
browser's processes and services. The suite is CPU-bound on two cores and Chromium was half of its
CPU time; measured on the same two test files, the shell took 35 % less Chromium CPU (56 s against
86 s) and 27 % less time. ``TEST_CHROMIUM=/usr/bin/chromium`` runs the tests in the full browser. Pages run under the server's
Content-Security-Policy (no 'unsafe-eval'): give ``wait_for_function`` a function ("() => ..."),
not a bare expression, which Playwright would have to eval in the page."""

from __future__ import annotations

import json
import os
import re
import time
from contextlib import contextmanager

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect, sync_playwright

CHROMIUM = os.environ.get("TEST_CHROMIUM", "/usr/bin/chromium-headless-shell")
# The shell has no Push API (no ``PushManager``): the installable app's tests (Web Push, a
# notification that opens its table) run in the full browser.
FULL_CHROMIUM = os.environ.get("TEST_FULL_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# How long an ``expect`` waits for the page to get there (Playwright's default is 5 s). CI runs the
# browser tests beside the rest of the suite on two cores: a step that takes 50 ms alone can take
# seconds there. A page that never gets there still fails, only later.
EXPECT_TIMEOUT_MS = 15_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


class Chromium:
    """The launched browser, whose new contexts block service workers unless a test asks for them
    (``service_workers="allow"``). The app's worker precaches the whole app shell (about 40 files)
    when a context first opens a page and then answers every request of that page: measured, it
    doubled the browser's CPU for a page load (0.19 to 0.40 s of a core) and added 40 requests to
    the server, for every context of every test. The worker's own behaviour (installing, offline,
    notifications) is tested where it matters with it allowed: tests/e2e/test_installable_browser.py,
    a whole Synomilia match (tests/e2e/test_synomilia_browser.py) and the replay page; a page without
    a worker is also what a browser without one (or a private window) runs."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("service_workers", "block")
        return self._browser.new_context(**options)

    def new_page(self, **options):
        options.setdefault("service_workers", "block")
        return self._browser.new_page(**options)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@contextmanager
def chromium():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs it (apt-get install -y chromium-headless-shell)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield Chromium(browser)
        finally:
            browser.close()


def watch_errors(page) -> list[str]:
    """Collect uncaught page errors so a test can assert the client never crashed."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CONTROL_ROLES = ("button", "textbox", "combobox", "link", "checkbox", "spinbutton", "listbox", "radio", "slider")
UNNAMED = re.compile(r"^\s*- (%s)(\s*\[[^\]]*\])*\s*(:.*)?$" % "|".join(CONTROL_ROLES))


def unnamed_controls(page, selector: str = "body") -> list[str]:
    """Controls in Playwright's accessibility tree (ARIA snapshot) that have no accessible name."""
    return [line.strip() for line in page.locator(selector).aria_snapshot().splitlines() if UNNAMED.match(line)]


def in_first_viewport(page, locator) -> bool:
    """The element lies within the first screen of the page (no scrolling needed to reach it)."""
    box = locator.bounding_box()
    scroll_y = page.evaluate("window.scrollY")
    height = page.viewport_size["height"]
    return box is not None and box["y"] + scroll_y >= 0 and box["y"] + scroll_y + box["height"] <= height


def box_of(locator, timeout: float = 5.0) -> dict:
    """``locator``'s bounding box once it is on screen: a page that re-renders on each room push
    replaces its elements, and a box read in between is None."""
    deadline = time.monotonic() + timeout
    while True:
        box = locator.bounding_box()
        if box is not None or time.monotonic() > deadline:
            assert box is not None, f"{locator} never on screen"
            return box
        time.sleep(0.05)


class RoomPushes:
    """The room summaries a page's WebSockets receive (Playwright sees each frame as it arrives):
    a test waits for the one it caused instead of waiting a fixed time and hoping it came. Make it
    before the page opens its socket."""

    def __init__(self, page):
        self.page = page
        self.rooms: list[dict] = []
        page.on("websocket", lambda socket: socket.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        try:
            message = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(message, dict) and message.get("type") == "room":
            self.rooms.append(message["room"])

    def wait_for(self, check, after: int, seconds: float = 15.0) -> None:
        """Until a room received after the first ``after`` ones passes ``check`` (events are
        delivered while the page waits)."""
        deadline = time.monotonic() + seconds
        while not any(check(room) for room in self.rooms[after:]):
            assert time.monotonic() < deadline, f"no such room push: {self.rooms[after:]}"
            self.page.wait_for_timeout(20)


def press(page, locator):
    """Press the mouse on ``locator`` (once Playwright finds it visible, stable and the one under
    the pointer: a box read while the page still lays out can miss), without releasing it."""
    locator.hover()
    page.mouse.down()


def room_api(page, path: str = "", method: str = "GET") -> dict:
    """Call the REST API for the page's room with the page's saved token: {"status", "body"}."""
    return page.evaluate(
        """([path, method]) => fetch(location.pathname.replace('/r/', '/api/rooms/') + path, {method,
             headers: {Authorization: 'Bearer ' + localStorage.getItem('asobiba.token')}})
           .then(async (r) => ({status: r.status, body: await r.json()}))""", [path, method])


def wait_for_table(page, selector: str = ".game", timeout: float = 30_000) -> None:
    """Wait for the match's table (``selector``) after a start; on a timeout, fail with what the
    page shows: its status line, the room as the REST API has it, the table's text, page errors.
    (A table that never came after Start failed CI twice without saying why.)"""
    try:
        page.locator(selector).first.wait_for(timeout=timeout)
    except PlaywrightTimeoutError:
        status = page.locator("#status").inner_text() if page.locator("#status").count() else None
        table = page.locator("#table").inner_text()[:600] if page.locator("#table").count() else None
        raise AssertionError(f"no {selector} after {timeout / 1000:g} s; status {status!r}, "
                             f"room {room_api(page)}, table {table!r}") from None


def add_bot(page, seat: int) -> None:
    """The host's "Add a bot" in ``seat``, then wait until the page shows the seat taken (an empty
    seat's own "Add a bot" button says "bot" too: a wait on the text alone is met at once, and
    the next click then raced the page's redraw)."""
    page.click(f".add-bot[data-seat='{seat}']")
    page.locator(f".seat[data-seat='{seat}']:not(:has(.add-bot))", has_text=re.compile("bot|ボット", re.IGNORECASE)).wait_for()


def start_match(page, timeout: float = 30_000) -> None:
    """The host's "Start" once it is enabled; on a timeout, fail with why the page keeps it
    disabled (its reason and seat list) beside the room as the REST API has it: a page showing a
    seat empty that the server has filled is the page's fault, not the server's. (Start stayed
    disabled for 30 s once in CI after three bots were seated, without saying why.)"""
    start = page.locator("#start:not([disabled])")
    try:
        start.wait_for(timeout=timeout)
    except PlaywrightTimeoutError:
        reason = page.locator("#start-reason").inner_text() if page.locator("#start-reason").count() else None
        seats = page.locator(".seat-list").inner_text() if page.locator(".seat-list").count() else None
        raise AssertionError(f"Start still disabled after {timeout / 1000:g} s: {reason!r}; seats on the page "
                             f"{seats!r}; room {room_api(page)}") from None
    start.click()


def create_room(page, base_url: str, name: str, game: str, options: dict | None = None,
                seats: int | None = None) -> str:
    """On the landing page: name yourself, pick the game, the number of seats and room options,
    create; returns the invite link."""
    page.goto(base_url + "/")
    page.fill("#name-input", name)
    page.select_option("#game-select", game)
    if seats is not None:
        page.select_option("#seats-select", str(seats))
    for option, value in (options or {}).items():
        field = page.locator(f"#game-options [data-option='{option}']")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(str(value))
    page.click("#create-room")
    invite = page.locator("#invite-url").input_value()
    assert "/r/" in invite
    return invite


def join_room(page, host_page, invite: str, name: str, seat: int) -> None:
    """Open the invite link as a new visitor and, in one step, name yourself and take ``seat``;
    wait until the host sees it."""
    page.goto(invite)
    page.fill("#name-input", name)
    page.click(f".take-seat[data-seat='{seat}']")
    try:
        host_page.locator(f".seat[data-seat='{seat}'].on").wait_for()
    except Exception as exc:  # say what each side and the server showed
        raise AssertionError(
            f"the host never saw seat {seat} online: host seats {host_page.locator('.seat').all_inner_texts()}, "
            f"guest seats {page.locator('.seat').all_inner_texts()}, guest toast "
            f"{page.locator('#toast').inner_text()!r}, server says {room_api(page)}") from exc


def friends_at_synomilia(server, browser):
    """Aki (English, 1280 px) and Ben (Japanese, 390 px) in their own browsers, their Synomilia
    match started and drawn on both pages; returns both pages and a list gathering their errors."""
    aki = browser.new_context(viewport=DESKTOP).new_page()
    ben = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    errors = watch_errors(aki) + watch_errors(ben)
    invite = create_room(aki, server.base_url, "Aki", "synomilia")
    join_room(ben, aki, invite, "Ben", 1)
    start_match(aki)
    for page in (aki, ben):
        wait_for_table(page)
    return aki, ben, errors


def click_until_outcome(pages, selector: str, rng, seconds: float = 240, check=None) -> int:
    """Each page in turn clicks one random offered control until every page shows the outcome;
    returns how many clicks it took. ``check(page)``, if given, runs on each page before each click."""
    clicks = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(page.locator("#outcome").count() for page in pages):
            return clicks
        before = clicks
        for page in pages:
            if check:
                check(page)
            targets = page.locator(selector)
            count = targets.count()
            if count:
                try:
                    targets.nth(rng.randrange(count)).click(timeout=1000)
                    clicks += 1
                except Exception:
                    pass  # the table was redrawn under the click; try again
        # Soon again after a click (the next decision may be ours at once); while others decide
        # (bots, a Three Magic call window), less often: each look is a round trip through
        # Playwright to every page, and at 50 ms they were a third of a whole match's CPU.
        pages[0].wait_for_timeout(50 if clicks > before else 200)
    raise AssertionError("the match did not end in the browsers")
