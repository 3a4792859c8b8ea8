"""Names and identity (issue 29, point 5): one identity per browser, renamed anywhere. A returning
guest changes their name at a friend's invite, and every table they sit at shows the new name at
once; a new name typed on the landing renames the saved player (an account stays logged in and
keeps its id); "Not you? Switch" asks before this browser forgets anyone; a name another
account holds is refused and changes nothing."""

from __future__ import annotations

import pytest

from tests.support.browser import DESKTOP, PHONE, create_room, room_api, unnamed_controls, watch_errors
from tests.support.clients import Api


def saved_player(page, base_url: str, player: dict) -> None:
    """The browser already knows this player, as after an earlier visit."""
    page.goto(base_url + "/static/account.html")
    page.evaluate("""(p) => { localStorage.setItem('asobiba.token', p.token);
        localStorage.setItem('asobiba.name', p.name); localStorage.setItem('asobiba.player', p.id); }""", player)


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("ja-JP", PHONE)], ids=["en-desktop", "ja-phone"])
def test_a_returning_guest_renames_at_an_invite_and_every_table_follows(server, browser, locale, viewport, shots):
    ja = locale.startswith("ja")
    host = browser.new_context(viewport=viewport, locale=locale).new_page()
    friend = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(host) + watch_errors(friend)
    ben = Api.new_player(server.base_url, "Ben")  # Ben played here before: this browser knows him
    saved_player(friend, server.base_url, {"token": ben.token, "name": "Ben", "id": ben.player_id})
    # Ben already sits at another table, hosted by Chika
    chika = Api.new_player(server.base_url, "Chika")
    other = chika.post("/api/rooms", {"game": "synomilia"}).json()
    assert ben.post(f"/api/rooms/{other['id']}/join", {"seat": 1}).status_code == 200

    invite = create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    friend.goto(invite)
    identity = friend.locator("#identity")
    identity.wait_for()
    assert "Ben" in identity.inner_text()
    assert unnamed_controls(friend) == []
    friend.locator("#rename").click()
    friend.fill("#rename-input", "Benjiro")
    friend.screenshot(path=shots / f"identity-rename-{locale}-{viewport['width']}.png", full_page=True)
    friend.locator("#rename-save").click()
    friend.locator("#identity-name", has_text="Benjiro").wait_for()
    # one line says the name and what is true of it here: he is about to sit down
    assert " ".join(friend.locator("#identity").inner_text().split()).startswith("着席する名前: Benjiro" if ja else "You will sit as Benjiro")
    assert friend.locator(".join-name").count() == 0  # (not said twice: "You will sit as" and "You play as")
    assert friend.evaluate("localStorage.getItem('asobiba.player')") == ben.player_id  # the same player
    friend.click(".take-seat[data-seat='1']")
    host.locator(".seat[data-seat='1']", has_text="Benjiro").wait_for()
    friend.locator("#identity", has_text="プレイヤー名: Benjiro" if ja else "You play as Benjiro").wait_for()

    # seated, he renames again: the host's page shows it live, and so does the other table
    friend.locator("#rename").click()
    friend.fill("#rename-input", "Ben J.")
    friend.locator("#rename-save").click()
    host.locator(".seat[data-seat='1']", has_text="Ben J.").wait_for()
    assert friend.locator("#me").inner_text() == "Ben J."  # the header too
    assert chika.get(f"/api/rooms/{other['id']}").json()["seats"][1]["name"] == "Ben J."
    assert room_api(host)["body"]["seats"][1]["player_id"] == ben.player_id
    # seated, nobody offers to switch him out of his own seat
    assert friend.locator("#switch-player").count() == 0

    # a name an account holds is refused, and nothing changes
    owner = Api.new_player(server.base_url, "Daiki")
    assert owner.post("/api/accounts", {"password": "correct horse battery"}).status_code in (200, 201)
    friend.locator("#rename").click()
    friend.fill("#rename-input", "daiki")
    friend.locator("#rename-save").click()
    friend.locator("#toast", has_text="アカウント" if ja else "belongs to an account").wait_for()
    assert room_api(host)["body"]["seats"][1]["name"] == "Ben J."
    assert friend.evaluate("localStorage.getItem('asobiba.name')") == "Ben J."
    friend.screenshot(path=shots / f"identity-seated-{locale}-{viewport['width']}.png", full_page=True)
    assert errors == []


@pytest.mark.parametrize("locale,viewport", [("en-US", DESKTOP), ("ja-JP", PHONE)], ids=["en-desktop", "ja-phone"])
def test_an_account_survives_a_new_name_typed_on_the_landing(server, browser, locale, viewport, shots):
    ja = locale.startswith("ja")
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    errors = watch_errors(page)
    aki = Api.new_player(server.base_url, "Aki")
    session = aki.post("/api/accounts", {"password": "correct horse battery"}).json()
    saved_player(page, server.base_url, {"token": session["token"], "name": "Aki", "id": aki.player_id})

    # a new name typed on the landing, then a room: the same account, renamed, still logged in
    page.goto(server.base_url + "/")
    page.locator("#identity", has_text="Aki").wait_for()
    create_room(page, server.base_url, "Akira", "synomilia")
    assert page.evaluate("localStorage.getItem('asobiba.player')") == aki.player_id
    me = Api(server.base_url, page.evaluate("localStorage.getItem('asobiba.token')")).get("/api/accounts/me").json()
    assert me["claimed"] is True and me["id"] == aki.player_id and me["name"] == "Akira"
    assert room_api(page)["body"]["seats"][0]["player_id"] == aki.player_id
    # the account's log-in name is the new one
    assert Api(server.base_url).post("/api/accounts/login", {"name": "Akira", "password": "correct horse battery"}).status_code == 200

    # "Not you? Switch" says what happens and asks first; only then does the browser forget
    page.goto(server.base_url + "/")
    page.locator("#switch-player").click()
    warning = page.locator("#switch-warning").inner_text()
    assert ("パスワード" in warning) if ja else ("log in again with the password" in warning)
    assert page.evaluate("localStorage.getItem('asobiba.token')") is not None  # nothing forgotten yet
    page.screenshot(path=shots / f"identity-switch-{locale}-{viewport['width']}.png", full_page=True)
    assert unnamed_controls(page) == []
    page.locator("#switch-confirm").click()
    page.locator("#identity").wait_for(state="detached")
    assert page.evaluate("localStorage.getItem('asobiba.token')") is None
    assert page.locator("#name-input").input_value() == ""
    assert errors == []
