"""The account flow in two browsers: a rated guest claims their name on the account page, logs
out, logs in on another device and finds the same rating and matches; the first device's old token
no longer works."""

from __future__ import annotations

import random

from tests.support.browser import unnamed_controls, watch_errors
from tests.support.clients import Api
from tests.support.driver import play_over_rest, setup_room

PASSWORD = "kurumi-no-ki 42"


def test_claim_log_out_and_log_in_on_another_device(server, browser):
    room_id, (aki, ben) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    aki.post(f"/api/rooms/{room_id}/start")
    play_over_rest({0: aki, 1: ben}, room_id, random.Random(6))
    # The figure the player page shows for it ("1500?" while provisional: issue 29.8).
    rating = aki.get(f"/api/players/{aki.player_id}").json()["ratings"][0]["shown"]

    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    laptop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(phone) + watch_errors(laptop)
    # the guest's own browser already holds their token (as after playing there)
    phone.goto(server.base_url + "/")
    phone.evaluate("([t, n, p]) => { localStorage.setItem('asobiba.token', t); localStorage.setItem('asobiba.name', n); localStorage.setItem('asobiba.player', p); }",
                   [aki.token, "Aki", aki.player_id])
    phone.reload()
    phone.click("#account-link")
    phone.locator("#claim-form").wait_for()
    assert unnamed_controls(phone) == []
    phone.get_by_label("Password (8 characters or more)").fill(PASSWORD)
    phone.get_by_label("Password again").fill(PASSWORD)
    phone.click("#claim-submit")
    phone.locator("#account-status", has_text="Logged in as Aki").wait_for()
    assert phone.locator("#sessions .session").count() == 1
    assert Api(server.base_url, aki.token).get("/api/players/me").status_code == 401  # guest token retired
    phone.click("#logout")
    phone.locator("#login-form").wait_for()
    assert phone.evaluate("localStorage.getItem('asobiba.token')") is None

    laptop.goto(server.base_url + "/")
    laptop.click("#account-link")
    laptop.get_by_label("Name").fill("aki")
    laptop.get_by_label("Password").fill(PASSWORD)
    laptop.click("#login-submit")
    laptop.wait_for_url(server.base_url + "/")
    assert laptop.locator("#account-link").inner_text() == "Account"
    laptop.locator("#my-rooms .my-room-finished").wait_for()  # history came along
    laptop.goto(f"{server.base_url}/static/ratings.html?player={aki.player_id}")
    laptop.locator("#player table.ratings").wait_for()
    assert rating in laptop.locator("#player table.ratings").inner_text()
    assert laptop.evaluate("localStorage.getItem('asobiba.player')") == aki.player_id
    assert errors == []


def test_changing_the_password_on_the_laptop_shuts_the_phone_out(server, browser, tmp_path):
    """Issue 30, points 4 and 5: the laptop changes the password on the account page (in
    Japanese); the phone, at the table, is told its session ended and watches as a visitor."""
    aki = Api.new_player(server.base_url, "Aki")
    session = aki.post("/api/accounts", {"password": PASSWORD}).json()
    room_id = Api(server.base_url, session["token"]).post("/api/rooms", {"game": "synomilia"}).json()["id"]
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    laptop = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP").new_page()
    errors = watch_errors(phone) + watch_errors(laptop)
    phone.goto(server.base_url + "/")
    phone.evaluate("([t, n, p]) => { localStorage.setItem('asobiba.token', t); localStorage.setItem('asobiba.name', n); localStorage.setItem('asobiba.player', p); }",
                   [session["token"], "Aki", aki.player_id])
    phone.goto(f"{server.base_url}/r/{room_id}")
    phone.locator(".seat", has_text="Aki").first.wait_for()

    laptop.goto(server.base_url + "/static/account.html")
    laptop.get_by_label("名前").fill("Aki")
    laptop.get_by_label("パスワード", exact=True).fill(PASSWORD)
    laptop.click("#login-submit")
    laptop.wait_for_url(server.base_url + "/")
    laptop.goto(server.base_url + "/static/account.html")
    laptop.locator("#password-form").wait_for()
    assert unnamed_controls(laptop) == []
    laptop.get_by_label("現在のパスワード").fill("wrong password")
    laptop.get_by_label("新しいパスワード（8文字以上）").fill("new-password-42")
    laptop.get_by_label("新しいパスワード（確認）").fill("new-password-42")
    laptop.click("#password-submit")
    laptop.locator("#toast", has_text="現在のパスワードが違います").wait_for()
    laptop.get_by_label("現在のパスワード").fill(PASSWORD)
    laptop.click("#password-submit")
    laptop.locator("#toast", has_text="パスワードを変更しました").wait_for()
    laptop.screenshot(path=str(tmp_path / "laptop-ja.png"), full_page=True)

    phone.locator("#toast", has_text="Your session ended").wait_for()
    phone.screenshot(path=str(tmp_path / "phone-en.png"), full_page=True)
    assert phone.evaluate("localStorage.getItem('asobiba.token')") is None
    assert Api(server.base_url, session["token"]).get("/api/players/me").status_code == 401
    assert errors == []
