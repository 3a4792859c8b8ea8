"""The replay page in headless Chromium: a finished match is stepped through with the game's table
module (first/prev/next/last, slider, autoplay), falls back to JSON without a module, and the
admin page replays omnisciently."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.history.helpers import play_match, session_factory_for
from tests.support.clients import Api
from tests.support.server import ADMIN_TOKEN, start_in_thread


@pytest.fixture
def sqlite_server(tmp_path):
    running = start_in_thread(f"sqlite:///{tmp_path / 'browser.db'}", leaderboard_min_opponents=0)  # guests listed
    yield running
    running.stop()


def open_page(browser, base_url, token=None, storage_key="asobiba.token", storage="localStorage",
              service_workers="allow"):
    context = browser.new_context(base_url=base_url, service_workers=service_workers)
    if token:
        context.add_init_script(f"window.{storage}.setItem({storage_key!r}, {token!r});")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def expect_step(page, text: str, timeout: float = 10_000) -> None:
    """The step label reads ``text``; if it never does, say what the page shows instead (an
    error of the step's fetch, the step it holds). (Once it stayed at "Step 0" after "Next".)"""
    try:
        expect(page.locator("#replay-step")).to_have_text(text, timeout=timeout)
    except AssertionError:
        problem = page.locator(".replay-error")
        shown = problem.inner_text() if problem.count() and problem.is_visible() else None
        raise AssertionError(f"the replay never showed {text!r}: it shows "
                             f"{page.locator('#replay-step').inner_text()!r}, error {shown!r}") from None


def test_replay_page_steps_through_a_match(sqlite_server, browser):
    base = sqlite_server.base_url
    host, guest = Api.new_player(base, "Aki"), Api.new_player(base, "Ben")
    # Recorded through the store's write path into the server's database (faster than REST play).
    db, factory = session_factory_for(sqlite_server.app.state.settings.database_url)
    match_id = play_match(factory, "synomilia", [host.player_id, guest.player_id], random.Random(9), {"reveal_delay": 0})
    db.dispose()
    steps = host.get(f"/api/matches/{match_id}").json()["steps"]

    page, errors = open_page(browser, base, host.token)
    page.goto(f"/static/replay.html?match={match_id}")
    expect_step(page, f"Step 0 / {steps}")
    expect(page.locator("#replay-seat")).to_have_value("0")  # the player's own seat first
    expect(page.locator("#replay-table .synomilia-root")).to_be_visible()
    expect(page.locator(".replay-players li")).to_have_count(2)
    # each rating as players read it elsewhere ("1523?", moved by a whole number), not the
    # conservative figure the leaderboard orders by
    for seat in host.get(f"/api/matches/{match_id}").json()["seats"]:
        change = seat["rating_change"]
        sign = "+" if change["shown_delta"] >= 0 else ""
        expect(page.locator(".replay-players li").nth(seat["seat"])).to_contain_text(
            f"{change['after']['shown']} ({sign}{change['shown_delta']})")
    page.click("#replay-next")
    expect_step(page, f"Step 1 / {steps}")
    page.click("#replay-next")
    page.click("#replay-prev")
    expect_step(page, f"Step 1 / {steps}")
    page.click("#replay-last")
    expect_step(page, f"Step {steps} / {steps}")
    expect(page.locator("#replay-table .replay-outcome")).to_be_visible()
    # the table's result names the players (the engine's own text says "P1"/"P2")
    result = page.locator("#replay-table .synomilia-win").first.inner_text()
    assert re.match(r"(Aki|Ben) wins with \d+ chips to \d+\.|Draw: both hold \d+ chips\.", result), result
    page.click("#replay-first")
    expect_step(page, f"Step 0 / {steps}")
    page.locator("#replay-slider").fill("5")
    expect_step(page, f"Step 5 / {steps}")
    page.select_option("#replay-seat", "")  # spectator view
    expect_step(page, f"Step 5 / {steps}")
    page.click("#replay-play")
    expect(page.locator("#replay")).to_have_attribute("data-step", "7", timeout=10_000)
    page.click("#replay-play")
    assert errors == []

    # Without the table module the step is still readable, as JSON.
    # Service workers blocked: Playwright's routes do not see a request the page's service worker
    # answers, and once it took the page (a race with the module's fetch) the module loaded anyway.
    page2, errors2 = open_page(browser, base, service_workers="block")
    page2.route("**/games/synomilia.js", lambda route: route.fulfill(status=404, body="missing"))
    page2.goto(f"/static/replay.html?match={match_id}&seat=&step=3")  # the spectator view
    expect(page2.locator("#replay-step")).to_have_text(f"Step 3 / {steps}", timeout=10_000)
    expect(page2.locator("#replay-table .replay-json")).to_contain_text('"phase"')
    # after the end, everything: spectator, every hand at once, and each seat, for anyone
    assert page2.locator("#replay-seat option").count() == 2 + 2
    # someone who did not play opens on everything (public after the end): every step in words
    page3, errors3 = open_page(browser, base)
    page3.goto(f"/static/replay.html?match={match_id}&step=1")
    expect(page3.locator("#replay-seat")).to_have_value("all")
    expect(page3.locator("#replay-action")).to_contain_text(re.compile(r"^(Aki|Ben): put down a prediction: \d"))
    expect(page3.locator("#replay-action")).not_to_contain_text("hidden")

    # Quick clicks count from the step asked for, not the one shown yet (each step's answer is
    # held up here): Next, Next, Previous ends one step on, Next twice two steps on.
    page4, errors4 = open_page(browser, base)
    page4.add_init_script("""(() => {
      const fetched = window.fetch;
      window.fetch = async (...args) => {
        const response = await fetched(...args);
        if (String(args[0]).includes("/replay?")) await new Promise((r) => setTimeout(r, 400));
        return response;
      };
    })();""")
    page4.goto(f"/static/replay.html?match={match_id}&step=3")
    expect_step(page4, f"Step 3 / {steps}")
    for button in ("#replay-next", "#replay-next", "#replay-prev"):
        page4.click(button)
    expect_step(page4, f"Step 4 / {steps}")
    page4.click("#replay-next")
    page4.click("#replay-next")
    expect_step(page4, f"Step 6 / {steps}")
    page4.wait_for_timeout(1000)  # no older answer comes after and draws its step
    assert page4.locator("#replay-step").inner_text() == f"Step 6 / {steps}"

    # Admin page: the match is listed; the replay shows every seat and the full state.
    page3, errors3 = open_page(browser, base, ADMIN_TOKEN, "asobiba.admin_token", "sessionStorage")
    page3.goto("/static/admin.html")
    row = page3.locator(f"tr[data-match='{match_id}']")
    expect(row).to_be_visible(timeout=10_000)
    row.locator("button").first.click()
    expect(page3.locator("#replay-step")).to_have_text(f"Step {steps} / {steps}", timeout=10_000)
    expect(page3.locator("#replay-table .synomilia-root")).to_have_count(3)  # spectator + 2 seats
    expect(page3.locator("#replay-table details.replay-state")).to_have_count(1)
    assert errors2 == [] and errors3 == [] and errors4 == []


def test_leaderboard_and_player_pages(sqlite_server, browser):
    """Rated matches show up on the game's leaderboard page and on each player's page, with the
    provisional mark, and the player's recent matches link to their replays."""
    base = sqlite_server.base_url
    aki, ben = Api.new_player(base, "Aki"), Api.new_player(base, "Ben<script>")
    db, factory = session_factory_for(sqlite_server.app.state.settings.database_url)
    match_ids = [play_match(factory, "synomilia", [aki.player_id, ben.player_id], random.Random(i), {"reveal_delay": 0})
                 for i in range(3)]
    db.dispose()
    board = aki.get("/api/games/synomilia/leaderboard?include_provisional=true").json()["entries"]
    assert {e["name"] for e in board} == {"Aki", "Ben<script>"}

    page, errors = open_page(browser, base)
    page.goto("/")
    page.locator("a[href='/static/ratings.html?game=synomilia']").click()
    table = page.locator("#leaderboard")
    expect(table.locator("tr")).to_have_count(3)  # header + two players
    first = board[0]
    expect(table.locator("tr").nth(1)).to_contain_text(first["name"])
    expect(table.locator("tr").nth(1)).to_contain_text(first["shown"])  # issue 29.8: "1500?"-style, never negative
    assert "?" in table.locator("tr").nth(1).inner_text()  # three games: still provisional
    page.locator("#leaderboard a", has_text="Ben<script>").click()  # a name is text, never markup
    expect(page.locator("#player h1")).to_have_text("Ben<script>")
    expect(page.locator("#player li")).to_have_count(3)
    hrefs = {page.locator("#player li a").nth(i).get_attribute("href") for i in range(3)}
    assert hrefs == {f"/static/replay.html?match={m}" for m in match_ids}
    assert errors == []


def test_the_last_step_of_a_resigned_match_waits_for_nobody(sqlite_server, browser):
    """A resignation ends a match in whatever phase the game's view was (here Synomilia's first
    predictions): the replay's last step says the game is over and names nobody as awaited."""
    base = sqlite_server.base_url
    host, guest = Api.new_player(base, "Aki"), Api.new_player(base, "Ben")
    room = host.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}}).json()
    assert guest.post(f"/api/rooms/{room['id']}/join").status_code == 200
    assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    view = guest.get(f"/api/rooms/{room['id']}/view").json()
    assert guest.post(f"/api/rooms/{room['id']}/actions",
                      {"action": {"platform": "resign"}, "version": view["version"]}).status_code == 200
    match_id = view["match_id"]
    steps = host.get(f"/api/matches/{match_id}").json()["steps"]

    page, errors = open_page(browser, base, host.token)
    page.goto(f"/static/replay.html?match={match_id}")
    page.click("#replay-last")
    expect_step(page, f"Step {steps} / {steps}")
    expect(page.locator("#replay-table .synomilia-status")).to_have_text("Game over.")
    assert "Waiting for" not in page.locator("#replay-table").inner_text()
    assert errors == []


def test_the_replay_says_the_rank_the_table_gave_when_a_player_left(sqlite_server, browser):
    """A player who left was counted last for the ratings; the replay says the rank the game gave
    (as the end panel did) and marks the leaver, not a third place in a two-player game."""
    from app.live.zombies import record_abandonment
    from tests.history.helpers import play, start

    base = sqlite_server.base_url
    host, guest = Api.new_player(base, "Aki"), Api.new_player(base, "Ben")
    db, factory = session_factory_for(sqlite_server.app.state.settings.database_url)
    match_id = start(factory, "synomilia", [host.player_id, guest.player_id], {"reveal_delay": 0})
    with factory() as session:
        record_abandonment(session, match_id, guest.player_id, 1)  # a bot finished it for Ben
    play(factory, match_id, random.Random(4))
    db.dispose()
    record = host.get(f"/api/matches/{match_id}").json()
    ranks = record["outcome"]["ranks"]
    page, errors = open_page(browser, base, host.token)
    page.goto(f"/static/replay.html?match={match_id}")
    players = page.locator(".replay-players li")
    expect(players).to_have_count(2)
    for seat in (0, 1):
        expect(players.nth(seat)).to_contain_text(f"Rank {ranks[seat] + 1}")
    expect(players.nth(1)).to_contain_text("left; a bot played for them")
    assert "Rank 3" not in page.locator(".replay-players").inner_text()
    assert errors == []

