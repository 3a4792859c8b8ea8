"""The room lobby as a first-time host and friend meet it (issue 18), at desktop and phone width:
who must do what next, Start disabled with its reason, seat numbers as the page shows them, a
visitor without a name counted, joining in one step, a status line that says what is true, the
invite box and the buttons laid out for fingers, every control named, then the table first."""

from __future__ import annotations

import re
import time

import pytest

from tests.support.browser import (DESKTOP, PHONE, RoomPushes, add_bot, box_of, create_room, press, room_api,
                                   start_match, unnamed_controls, wait_for_table, watch_errors)
from tests.support.clients import Api, Socket


def boxes_apart(a: dict, b: dict, gap: float) -> bool:
    """Two bounding boxes are at least ``gap`` px apart (horizontally or vertically)."""
    return (a["x"] + a["width"] + gap <= b["x"] or b["x"] + b["width"] + gap <= a["x"]
            or a["y"] + a["height"] + gap <= b["y"] or b["y"] + b["height"] + gap <= a["y"])


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_host_and_friend_are_told_what_to_do(server, browser, viewport, shots):
    host = browser.new_context(viewport=viewport).new_page()
    friend_context = browser.new_context(viewport=viewport)
    friend = friend_context.new_page()
    errors = watch_errors(host) + watch_errors(friend)
    missing = []
    for page in (host, friend):
        page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)

    create_room(host, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    # 3/4: the host is told the seat that is missing, numbered as on the page; Start waits for it
    assert "Seat 2 is empty" in host.locator("#next-step").inner_text()
    start = host.get_by_role("button", name="Start the match")
    assert start.is_disabled()
    assert "Seat 2 is empty" in host.locator("#start-reason").inner_text()
    refused = room_api(host, "/start", "POST")
    assert refused["status"] == 409 and "Seat 2 is empty" in refused["body"]["error"]["message"]
    assert "[1]" not in refused["body"]["error"]["message"]

    # 7: Copy sits beside the link (not wrapped below it) and Leave is well apart from Start
    link = box_of(host.get_by_role("textbox", name="Invite link"))
    copy = box_of(host.get_by_role("button", name="Copy link"))
    if viewport is DESKTOP:
        assert copy["y"] < link["y"] + link["height"] and copy["x"] >= link["x"] + link["width"]
    assert boxes_apart(box_of(start), box_of(host.locator("#leave")), 12)
    assert host.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # 8: every control of the lobby has an accessible name (Playwright's accessibility tree)
    assert unnamed_controls(host) == []

    # 5: a visitor who has not typed a name yet is counted, and the host sees someone joining
    friend.goto(host.locator("#invite-url").input_value())
    host.locator("#visitors", has_text="Someone is joining").wait_for()
    assert room_api(host)["body"]["spectators"] == 1
    friend.locator("#visitors").wait_for()
    assert "joining" not in friend.locator("#visitors").inner_text()  # the visitor is not told of himself
    assert friend.locator("#visitors").inner_text() == "Watching: you"  # nor counted as someone else
    # 6: one step: the name field and "Take seat 2" together
    name = friend.get_by_role("textbox", name="Your name")
    take = friend.get_by_role("button", name="Take seat 2")
    assert name.is_visible() and take.is_visible()
    assert "Enter your name and take a free seat" in friend.locator("#next-step").inner_text()
    assert unnamed_controls(friend) == []
    friend.screenshot(path=shots / f"lobby-friend-{viewport['width']}.png", full_page=True)
    name.fill("Ben")
    take.click()
    host.locator(".seat[data-seat='1'].on", has_text="Ben").wait_for()
    friend.locator(".seat[data-seat='1']", has_text="you").wait_for()
    # 2: the socket is open again at once, so the status line never says "Reconnecting…"
    for _ in range(10):
        assert "Reconnecting" not in friend.locator("#status").inner_text()
        friend.wait_for_timeout(100)
    assert friend.evaluate("localStorage.getItem('asobiba.name')") == "Ben"  # remembered

    # 3: with every seat taken, both pages say who must act
    host.locator("#next-step", has_text="Everyone is here — start when ready").wait_for()
    friend.locator("#next-step", has_text="the host (Aki) starts the match").wait_for()
    assert host.locator("#start-reason").count() == 0
    host.screenshot(path=shots / f"lobby-host-{viewport['width']}.png", full_page=True)
    assert unnamed_controls(host) == [] and unnamed_controls(friend) == []

    # table first: once started, the panel is a compact bar (no invite box above the table)
    start.click()
    for page in (host, friend):
        page.locator(".synomilia-actions button").first.wait_for()
        assert page.locator("#invite-url").count() == 0
        bar = page.locator(".room-bar")
        assert bar.get_by_role("button", name="Copy link").is_visible()
        assert bar.locator(".seat.on").count() == 2
        assert bar.bounding_box()["height"] <= (90 if viewport is DESKTOP else 140)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert unnamed_controls(page) == []
    friend.screenshot(path=shots / f"table-friend-{viewport['width']}.png")
    # the hand is the control: tapping a card of one's own hand places it as the prediction
    friend.get_by_role("button", name="Predict 4", exact=True).click()
    friend.locator(".synomilia-card.synomilia-down", has_text="4").wait_for()
    # the last action is highlighted on the other table: Ben's face-down prediction appeared
    host.locator(".synomilia-card.synomilia-down.just-changed", has_text="?").wait_for()

    # a friend who comes back another day finds their name filled in
    friend.goto(server.base_url + "/")
    assert friend.locator("#name-input").input_value() == "Ben"
    assert missing == [] and errors == []


def test_web_share_button_where_the_browser_has_it(server, browser):
    page = browser.new_context(viewport=PHONE).new_page()
    page.add_init_script("navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };")
    invite = create_room(page, server.base_url, "Aki", "synomilia")
    page.get_by_role("button", name="Share…").click()
    assert page.evaluate("window.__shared.url") == invite
    plain = browser.new_context(viewport=PHONE).new_page()
    plain.goto(invite)
    plain.locator("#invite-url").wait_for()
    has_share = plain.evaluate("typeof navigator.share === 'function'")
    assert plain.locator("#share-invite").count() == (1 if has_share else 0)


def test_japanese_lobby_and_titles(server, browser, shots):
    context = browser.new_context(viewport=DESKTOP, locale="ja-JP")
    page = context.new_page()
    page.add_init_script("localStorage.setItem('asobiba.lang', 'ja')")
    page.goto(server.base_url + "/")
    page.locator("#game-select option").first.wait_for(state="attached")  # the catalog has loaded
    titles = page.locator("#game-select option").all_inner_texts()
    assert "マケランディア" in titles and "Makelandia" not in titles
    create_room(page, server.base_url, "あき", "synomilia", {"reveal_delay": 0})
    assert page.locator("h1").inner_text() == "シノミリア"
    assert "席2が空いています" in page.locator("#next-step").inner_text()
    page.locator(".add-bot[data-seat='1']").click()
    page.locator("#next-step", has_text="全員そろいました").wait_for()
    assert page.get_by_role("button", name="ゲーム開始").is_enabled()
    page.screenshot(path=shots / "lobby-ja.png")
    page.get_by_role("button", name="ゲーム開始").click()
    page.locator(".room-bar").get_by_role("button", name="リンクをコピー").wait_for()
    page.screenshot(path=shots / "table-ja.png")
    games = page.evaluate("fetch('/api/games').then(r => r.json())")
    assert {g["id"]: g["title_ja"] for g in games}["three_magic"] == "スリーマジック"


def test_favicon_is_served_and_other_pages_name_their_controls(server, browser):
    page = browser.new_context().new_page()
    response = page.goto(server.base_url + "/favicon.ico")
    assert response.status == 200 and response.headers["content-type"] == "image/x-icon"
    assert response.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(server.base_url + "/static/ratings.html?game=makelandia")
    page.locator("#board-game").wait_for()
    assert page.locator("link[rel=icon]").get_attribute("href") == "/favicon.ico"
    assert unnamed_controls(page) == []
    assert missing == []


def test_returning_player_joins_with_one_click(server, browser):
    ben = browser.new_context(viewport=PHONE).new_page()
    create_room(ben, server.base_url, "Ben", "synomilia")  # Ben has played here before
    aki = browser.new_context(viewport=DESKTOP).new_page()
    invite = create_room(aki, server.base_url, "Aki", "synomilia")
    ben.goto(invite)
    assert " ".join(ben.locator("#identity").inner_text().split()).startswith("You will sit as Ben")
    assert ben.locator("#next-step").inner_text() == "Take a free seat (Seat 2)."  # his name is known
    assert ben.locator("#name-input").count() == 0  # no field that could drop a saved player
    ben.get_by_role("button", name="Take seat 2").click()
    aki.locator(".seat[data-seat='1'].on", has_text="Ben").wait_for()
    assert "Reconnecting" not in ben.locator("#status").inner_text()


def test_typing_a_name_goes_on_through_room_updates(server, browser):
    """A visitor typing their name while the room changes (a spectator arrives, the host adds a
    bot) keeps typing into the field: the re-drawn panel keeps its focus and caret."""
    aki = browser.new_context(viewport=DESKTOP).new_page()
    invite = create_room(aki, server.base_url, "Aki", "mipolin", seats=3)
    ben = browser.new_context(viewport=PHONE).new_page()
    ben.goto(invite)
    field = ben.locator("#name-input")
    field.click()
    ben.keyboard.type("Be")
    watcher = browser.new_context().new_page()
    watcher.goto(invite)  # a room update: one more visitor
    # both pages have drawn it (a click while the host's panel is re-drawn could miss its button)
    aki.locator("#visitors", has_text="2 visitors").wait_for()
    ben.locator("#visitors", has_text="1 visitor on").wait_for()  # the other one: Ben is not told of himself
    aki.click(".add-bot[data-seat='2']")  # another: a bot sits down
    ben.locator(".seat[data-seat='2']", has_text="bot").wait_for()
    ben.keyboard.type("n")
    assert field.input_value() == "Ben"
    ben.get_by_role("button", name="Take seat 2").click()
    aki.locator(".seat[data-seat='1'].on", has_text="Ben").wait_for()


def test_a_late_answer_does_not_undo_a_newer_room(server, browser):
    """The host adds two bots quickly and the first click's answer is slow (the network held it
    up): the socket has shown both bots meanwhile, and the late answer (one bot) must not draw
    the second seat empty again, which left Start disabled with nothing left to push."""
    aki = browser.new_context(viewport=DESKTOP).new_page()
    aki.add_init_script("""(() => {
      const fetched = window.fetch; let bots = 0;
      window.fetch = async (...args) => {
        const response = await fetched(...args);
        if (String(args[0]).endsWith("/bots") && bots++ === 0) {
          await new Promise((r) => setTimeout(r, 1500));
          // the page has drawn the late answer once the task that read it is over
          const read = response.json.bind(response);
          response.json = async () => {
            const body = await read();
            setTimeout(() => { window.__lateAnswerDrawn = true; }, 0);
            return body;
          };
        }
        return response;
      };
    })();""")
    errors = watch_errors(aki)
    create_room(aki, server.base_url, "Aki", "mipolin", seats=3)
    add_bot(aki, 1)  # shown from the socket's push: the answer is held up
    add_bot(aki, 2)
    aki.wait_for_function("() => window.__lateAnswerDrawn === true")  # the first answer has come meanwhile
    assert aki.locator(".seat[data-seat='2'] .add-bot").count() == 0
    assert aki.get_by_role("button", name="Start the match").is_enabled()
    assert errors == []


def test_a_click_is_not_lost_to_a_room_update_between_press_and_release(server, browser):
    """A room push redraws the seats at any moment; one that came between the press and the
    release of a click used to replace the button under the pointer, and the click went nowhere.
    Redraws wait for the release (and then show what came meanwhile)."""
    aki = browser.new_context(viewport=DESKTOP).new_page()
    pushes = RoomPushes(aki)
    errors = watch_errors(aki)
    invite = create_room(aki, server.base_url, "Aki", "mipolin", seats=3)
    press(aki, aki.locator(".add-bot[data-seat='1']"))
    seen = len(pushes.rooms)
    ben = Api.new_player(server.base_url, "Ben")
    assert ben.post(f"/api/rooms/{invite.rsplit('/', 1)[1]}/join", {"seat": 2}).status_code == 200
    pushes.wait_for(lambda room: room["seats"][2]["name"] == "Ben", after=seen)  # it reached Aki's page
    aki.mouse.up()
    aki.locator(".seat[data-seat='1']:not(:has(.add-bot))", has_text="bot").wait_for(timeout=5000)
    aki.locator(".seat[data-seat='2']", has_text="Ben").wait_for()  # and what came meanwhile is shown
    assert errors == []


def test_a_click_after_the_match_is_not_lost_to_a_room_update(server, browser):
    """The same for the panels under a finished match ("New table with the same people") and the
    match's own controls: every room push redraws them."""
    aki = browser.new_context(viewport=DESKTOP).new_page()
    pushes = RoomPushes(aki)
    errors = watch_errors(aki)
    invite = create_room(aki, server.base_url, "Aki", "synomilia")
    room_id = invite.rsplit("/", 1)[1]
    ben = Api.new_player(server.base_url, "Ben")
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    start_match(aki)
    wait_for_table(aki)
    press_during_a_room_update(aki, pushes, server, room_id, "#resign")
    aki.locator("#resign-confirm").click()
    aki.locator("#outcome").wait_for()
    press_during_a_room_update(aki, pushes, server, room_id, "#next-table")
    aki.wait_for_url(lambda url: "/r/" in url and room_id not in url, timeout=10_000)
    assert errors == []


def press_during_a_room_update(page, pushes, server, room_id: str, selector: str) -> None:
    """Press ``selector``, let a room push reach the page (a visitor's socket opens: the
    spectators count goes up), then release."""
    press(page, page.locator(selector))
    seen = len(pushes.rooms)
    visitor = Socket(server.ws_url, room_id)
    pushes.wait_for(lambda room: room["spectators"] >= 1, after=seen)
    page.mouse.up()
    visitor.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_visitor_sees_no_my_tables_link_and_a_player_does(server, browser, viewport):
    """"My tables" is for someone who plays here: hidden for a first visitor at both widths (the
    phone's layout rule for top-bar links once showed it), shown once they have a player."""
    page = browser.new_context(viewport=viewport).new_page()
    for path in ("/", "/static/ratings.html", "/static/replay.html?match=none"):
        page.goto(server.base_url + path)
        page.locator("#tables-link").wait_for(state="attached")
        assert not page.locator("#tables-link").is_visible(), path
    create_room(page, server.base_url, "Aki", "synomilia")
    page.goto(server.base_url + "/static/ratings.html")
    page.locator("#tables-link").wait_for(state="visible")
    assert page.locator("#me").inner_text() == "Aki"


TOP_BAR = """() => ({
  links: [...document.querySelectorAll(".topbar > *")].map((e) => e.id || e.className),
  height: document.querySelector(".topbar").getBoundingClientRect().height,
})"""


def test_every_page_has_the_same_top_bar_and_a_count_in_it_does_not_make_it_taller(server, browser):
    """The site's pages share one top bar (the game-night page once had an older one without "My
    tables"); on the narrowest phone in Japanese, "My tables" with its count still fits the first
    row (the count appearing once pushed the bar a row taller: a 48 px jump of the whole page)."""
    page = browser.new_context(viewport={"width": 320, "height": 640}, locale="ja-JP").new_page()
    errors = watch_errors(page)
    create_room(page, server.base_url, "Akiko", "synomilia", {"reveal_delay": 0})
    add_bot(page, 1)
    start_match(page)
    wait_for_table(page)  # both predict at once: her table waits for her, the count is 1
    expected = ["brand", "me", "tables-link", "account-link", "notify-link", "lang-toggle"]
    # the games' list comes late, as on a slow link: a page that titles itself after it must keep
    # the count the top bar brought in the meantime (the ratings page dropped it)
    page.route("**/api/games", lambda route: (time.sleep(0.3), route.continue_()))
    for path in ("/", "/static/ratings.html", "/static/my_tables.html", "/static/notifications.html",
                 "/static/account.html", "/static/night.html?id=none", "/static/replay.html?match=none"):
        page.goto(server.base_url + path)
        page.locator("#tables-badge:not([hidden])").wait_for()
        with_count = page.evaluate(TOP_BAR)
        assert with_count["links"] == expected, path
        assert page.locator("#me").inner_text() == "Akiko", path
        page.wait_for_function("() => document.title.startsWith('(1) ')")  # the tab counts it too
        page.evaluate("document.getElementById('tables-badge').hidden = true")
        assert page.evaluate(TOP_BAR)["height"] == with_count["height"], path
    assert errors == []


def test_empty_seats_are_said_as_a_person_would(server, browser):
    """"Seats 3 and 4 are empty", 「席3と4が空いています」 (it said "Seat 3, Seat 4 are empty"); a
    bot named "Bot 2" is not also tagged "(bot)"; the host's tab names the table."""
    en = browser.new_context(viewport=DESKTOP).new_page()
    create_room(en, server.base_url, "Aki", "makelandia")
    assert en.title() == "Makelandia — Asobiba"  # (the tab names the table from the lobby on)
    step = en.locator("#next-step")
    step.filter(has_text="Seats 2, 3 and 4 are empty").wait_for()
    add_bot(en, 1)
    step.filter(has_text="Seats 3 and 4 are empty").wait_for()
    assert "(bot)" not in en.locator(".seat[data-seat='1']").inner_text()
    add_bot(en, 2)
    step.filter(has_text="Seat 4 is empty").wait_for()
    ja = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    create_room(ja, server.base_url, "Ben", "makelandia")
    add_bot(ja, 1)
    ja.locator("#next-step").filter(has_text="席3と4が空いています").wait_for()
    assert ja.title() == "マケランディア — Asobiba"
    assert "(ボット)" not in ja.locator(".seat[data-seat='1']").inner_text()


def test_the_ratings_tab_speaks_the_pages_language(server, browser):
    """The leaderboard's tab says what its heading says, in Japanese on a Japanese page (it kept
    the HTML's English "Asobiba — ratings"); the landing's Japanese ranges read 4〜8人."""
    page = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    page.goto(server.base_url + "/static/ratings.html")
    page.locator("h1", has_text="ランキング").wait_for()
    assert page.title() == "ランキング — Asobiba"
    page.goto(server.base_url + "/")
    page.locator(".game-card").first.wait_for()
    text = page.locator("main").inner_text()
    assert re.search(r"\d〜\d+人", text) and not re.search(r"\d–\d+人", text), text  # 4〜8人, as 10〜20分


def test_an_option_whose_numbers_stand_for_words_is_offered_in_words(server, browser):
    """Mipolin's provisional dealer is chosen by name (Random, Seat 1, …), never as "-1", on the
    landing page and in the lobby's summary of the table's settings."""
    page = browser.new_context(viewport=PHONE, locale="ja-JP").new_page()
    page.goto(server.base_url + "/")
    page.select_option("#game-select", "mipolin")
    choice = page.locator("#game-options select[data-option='provisional_dealer']")
    assert choice.locator("option").all_inner_texts() == ["ランダム", "席1", "席2", "席3"]
    choice.select_option(label="席2")
    page.fill("#name-input", "Aki")
    page.click("#create-room")
    page.locator("#invite-url").wait_for()
    # the host may still change it in the lobby: the same words
    assert page.locator("#table-settings select[data-option='provisional_dealer'] option:checked").inner_text() == "席2"
    assert room_api(page)["body"]["options"]["provisional_dealer"] == 1
    friend = browser.new_context(viewport=DESKTOP).new_page()  # a friend reads the summary
    friend.goto(page.locator("#invite-url").input_value())
    friend.locator("#table-settings", has_text="Provisional dealer (to give it to the previous winner or dealer): Seat 2").wait_for()
    for reader in (page, friend):
        assert "-1" not in reader.locator("main").inner_text()
