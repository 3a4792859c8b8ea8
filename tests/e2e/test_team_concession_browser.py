"""Makelandia's team concession in Chromium, as the two players of one team see it: one proposes
(her page says the proposal is hers, with a way to withdraw it), her teammate's page asks him to
agree or keep playing, above the table (it was under the chat on a phone, out of sight), and his
tab's title, icon and status line say his answer is awaited; the other
team's page only hears of it; he agrees, and every page shows the end: the team conceded, nobody
is awaited. Four people, seated by the REST API (the teams come from
the seed); the two teammates play in their own browser contexts, one of the other team in a third."""

from __future__ import annotations

import httpx

from tests.e2e.test_evening_browser import says_the_match_is_over
from tests.support.browser import DESKTOP, PHONE, box_of, wait_for_table, watch_errors
from tests.support.clients import Api
from tests.support.driver import setup_room


def page_of(browser, server, api: Api, room_id: str, viewport: dict):
    """A browser context signed in as ``api``'s player (the page keeps its identity in
    localStorage), on the room's page."""
    page = browser.new_context(viewport=viewport).new_page()
    page.add_init_script(f"""localStorage.setItem("asobiba.token", {api.token!r});
        localStorage.setItem("asobiba.name", {api.name!r}); localStorage.setItem("asobiba.player", {api.player_id!r});""")
    page.goto(f"{server.base_url}/r/{room_id}")
    wait_for_table(page)
    return page


def test_a_team_concedes_when_both_of_its_players_agree(server, browser, shots):
    room_id, apis = setup_room(server.base_url, "makelandia", ["Aki", "Ben", "Cho", "Dai"])
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    teams = httpx.get(f"{server.base_url}/api/rooms/{room_id}/view").json()["view"]["teams"]
    first, mate, opponent = teams[0][0], teams[0][1], teams[1][0]
    proposer = page_of(browser, server, apis[first], room_id, DESKTOP)
    teammate = page_of(browser, server, apis[mate], room_id, PHONE)
    other = page_of(browser, server, apis[opponent], room_id, DESKTOP)
    errors = watch_errors(proposer) + watch_errors(teammate) + watch_errors(other)
    names = {seat: apis[seat].name for seat in range(4)}

    proposer.click("#resign")
    assert "Concede for your team?" in proposer.locator(".confirm").inner_text()
    proposer.click("#resign-confirm")  # "Yes, propose to concede"
    mine = proposer.locator("#concede-proposal")
    mine.wait_for()
    assert "Your team: You proposed to concede." in mine.inner_text()  # her own, said as hers
    assert mine.locator("#concede-agree").count() == 0  # her own proposal: nothing to agree to
    assert mine.locator("#concede-decline").inner_text() == "Withdraw"
    assert proposer.locator("#resign").count() == 0  # her proposal is open: withdrawn above, not proposed again
    asked = teammate.locator("#concede-proposal")
    asked.wait_for()
    assert f"Your team: {names[first]} proposed to concede." in asked.inner_text()
    assert asked.locator("#concede-decline").inner_text() == "Keep playing"
    # his answer is awaited: the tab's title, icon and status line say so (in another tab too)
    assert teammate.title().startswith("● ") and "Answer: concede for your team?" in teammate.title()
    assert teammate.locator("link[rel='icon']").get_attribute("data-badge") == "on"
    status = teammate.locator("#status").inner_text()  # and what else is true: his move, or whose it is
    assert "Answer: concede for your team?" in status and ("Your move" in status or "Waiting for" in status), status
    for page in (proposer, other):  # nothing asked of them
        assert "Answer" not in page.title() and "Answer" not in page.locator("#status").inner_text()
    for page, proposal in ((teammate, asked), (proposer, mine)):  # above the table, not under the chat
        box, table = box_of(proposal), box_of(page.locator("#table"))
        assert box["y"] + box["height"] <= table["y"], (box, table)
    heard = other.locator("#concede-theirs")
    heard.wait_for()
    assert f"The other team: {names[first]} proposed to concede." in heard.inner_text()
    assert other.locator("#concede-agree").count() == 0  # not theirs to agree to
    teammate.screenshot(path=str(shots / "concession-asked-390.png"), full_page=True)
    proposer.screenshot(path=str(shots / "concession-proposed-1280.png"), full_page=True)
    assert httpx.get(f"{server.base_url}/api/rooms/{room_id}/view").json()["outcome"] is None

    asked.locator("#concede-agree").click()
    ended = {f"{names[first]}, {names[mate]} conceded for their team.",
             f"{names[mate]}, {names[first]} conceded for their team."}
    for page in (proposer, teammate, other):
        outcome = page.locator("#outcome")
        outcome.wait_for()
        assert any(sentence in outcome.inner_text() for sentence in ended), outcome.inner_text()
        says_the_match_is_over(page)
    teammate.screenshot(path=str(shots / "concession-ended-390.png"), full_page=True)
    final = httpx.get(f"{server.base_url}/api/rooms/{room_id}/view").json()["outcome"]
    assert final["ending"] == "resigned" and final["teams"] == teams
    assert all(final["ranks"][seat] == 2 for seat in teams[0]) and all(final["ranks"][seat] == 0 for seat in teams[1])
    assert errors == []
