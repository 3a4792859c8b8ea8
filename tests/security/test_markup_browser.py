"""Player names carrying markup, in headless Chromium on every page that shows names (room lobby,
game table, leaderboard, player page, replay, admin): shown as text, never parsed or executed, and
the pages work under the Content-Security-Policy (no violation reported). Room options cannot carry
markup: every game's options are numbers or booleans, checked when the room is created."""

from __future__ import annotations

import json
import random

import pytest

from tests.history.helpers import play_match, session_factory_for
from tests.support.clients import Api
from tests.support.server import ADMIN_TOKEN, start_in_thread

HOST = "<img src=x onerror=__xss=1>Aki"  # names are at most 40 characters
GUEST = "<script>__xss=2</script><b>Ben</b>"
INJECTED = """() => document.querySelectorAll("img[src='x']").length
                 + [...document.querySelectorAll("b")].filter((b) => b.textContent === "Ben").length
                 + [...document.scripts].filter((s) => s.textContent.includes("__xss")).length"""


@pytest.fixture
def sqlite_server(tmp_path):
    running = start_in_thread(f"sqlite:///{tmp_path / 'markup.db'}", leaderboard_min_opponents=0)  # guests listed
    yield running
    running.stop()


def test_names_with_markup_are_text_on_every_page(sqlite_server, browser):
    base = sqlite_server.base_url
    host, guest = Api.new_player(base, HOST), Api.new_player(base, GUEST)
    assert host.name == HOST  # stored as typed: escaping is the pages' job
    db, factory = session_factory_for(sqlite_server.app.state.settings.database_url)
    match_id = play_match(factory, "synomilia", [host.player_id, guest.player_id], random.Random(3), {"reveal_delay": 0})
    db.dispose()
    lobby = host.post("/api/rooms", {"game": "synomilia", "seats": 2}).json()["id"]
    table = host.post("/api/rooms", {"game": "synomilia", "seats": 2}).json()["id"]
    assert guest.post(f"/api/rooms/{lobby}/join").status_code == 200
    assert guest.post(f"/api/rooms/{table}/join").status_code == 200
    assert host.post(f"/api/rooms/{table}/start").status_code == 200

    pages = [f"/r/{lobby}", f"/r/{table}", "/static/ratings.html?game=synomilia",
             f"/static/ratings.html?player={host.player_id}", f"/static/replay.html?match={match_id}",
             "/static/admin.html"]
    context = browser.new_context(base_url=base)
    context.add_init_script(
        f"localStorage.setItem('asobiba.token', {json.dumps(host.token)});"
        f"localStorage.setItem('asobiba.name', {json.dumps(host.name)});"
        f"localStorage.setItem('asobiba.player', {json.dumps(host.player_id)});"
        f"sessionStorage.setItem('asobiba.admin_token', {json.dumps(ADMIN_TOKEN)});")
    page = context.new_page()
    errors, violations = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    for path in pages:
        page.goto(path)
        page.wait_for_function("([a, b]) => document.body.innerText.includes(a) && document.body.innerText.includes(b)",
                               arg=["Aki", "Ben"], timeout=15_000)
        text = page.evaluate("document.body.innerText")
        assert HOST in text or GUEST in text, path  # the markup itself is what shows
        assert page.evaluate(INJECTED) == 0, path
        assert page.evaluate("window.__xss") is None, path
    assert errors == [] and violations == [], (errors, violations)
    context.close()
