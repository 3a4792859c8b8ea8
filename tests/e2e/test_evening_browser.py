"""Issue 29 in Chromium, friends in separate browser contexts: an evening never gets stuck.

- After a match, a friend closes the tab; the other two start the next match within 30 s, with a
  bot in her seat (the host's choice) or at a new table with the same people, which the old link
  leads to (point 1).
- During a match: abort proposed and declined, then agreed (unrated); leave the table (a bot plays
  at once, said in the chat and on the seat, in English and in Japanese) and take the seat back;
  resign (point 2, point 3).
- The host makes the table casual in the lobby; the leaderboard tells two players of the same name
  apart and shows a new player "1500?"-style figures, never a negative one (point 8)."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.support.browser import (DESKTOP, PHONE, add_bot, create_room, friends_at_synomilia, join_room, start_match,
                                   wait_for_table, watch_errors)
from tests.support.clients import Api


@pytest.fixture
def database_url(database_url_of_every_kind):
    """Whole evenings on PostgreSQL too (this folder's other browser tests run on SQLite only)."""
    return database_url_of_every_kind


def at_three_magic(server, browser, ben: dict, cho: dict):
    """Aya (English, 1280 px) hosts Three Magic; Ben and Cho join in browsers of their own
    (``ben``, ``cho``: their contexts' options); the match is started and drawn on all three.
    Returns the invite link, the three pages and a list gathering their errors."""
    aya = browser.new_context(viewport=DESKTOP).new_page()
    ben_page, cho_page = browser.new_context(**ben).new_page(), browser.new_context(**cho).new_page()
    errors = watch_errors(aya) + watch_errors(ben_page) + watch_errors(cho_page)
    invite = create_room(aya, server.base_url, "Aya", "three_magic")
    join_room(ben_page, aya, invite, "Ben", 1)
    join_room(cho_page, aya, invite, "Cho", 2)
    start_match(aya)
    for page in (aya, ben_page, cho_page):
        wait_for_table(page)
    return invite, aya, ben_page, cho_page, errors


def three_friends(server, browser):
    invite, aya, ben, cho, errors = at_three_magic(server, browser, {"viewport": PHONE},
                                                   {"viewport": DESKTOP, "locale": "ja-JP"})
    # Aya resigns: the quickest end of a match
    aya.click("#resign")
    aya.click("#resign-confirm")
    for page in (aya, ben, cho):
        page.locator("#outcome").wait_for()
    assert "Aya resigned." in aya.locator("#outcome").inner_text()
    says_the_match_is_over(ben)
    # who is asked, in each page's words: names listed with 、 on a Japanese page, the reader as あなた
    cho.locator(".rematch-waiting", has_text="返事待ち：Aya、Ben、あなた").wait_for()
    assert ben.locator(".rematch-waiting").inner_text() == "… Waiting for: Aya, you, Cho"
    return invite, aya, ben, cho, errors


def says_the_match_is_over(page, over: str = "Game over.") -> None:
    """The table under the end panel says the match is over, and waits for nobody: a resignation or
    an abort ends a match in whatever phase the game's own view was."""
    page.locator(".game", has_text=over).wait_for()
    text = page.locator(".game").inner_text()
    assert "Waiting for" not in text and "待っています" not in text and "待ち" not in text, text


def match_id(page) -> str:
    return page.evaluate("() => fetch(location.pathname.replace('/r/', '/api/rooms/')).then((r) => r.json()).then((r) => r.match_id)")


def test_a_friend_left_the_host_plays_on_with_a_bot_in_her_seat(server, browser):
    invite, aya, ben, cho, errors = three_friends(server, browser)
    old = match_id(aya)
    cho.context.close()  # Cho closes the tab after the match
    gone = time.monotonic()
    bot_button = aya.locator(".bot-for-absent[data-seat='2']")
    bot_button.wait_for()
    assert bot_button.inner_text() == "Play on with a bot for Cho"
    assert ben.locator(".bot-for-absent").count() == 0  # only the host chooses
    bot_button.click()
    ben.click("#rematch-button")
    for page in (aya, ben):
        page.wait_for_function("() => !document.querySelector('#outcome') && document.querySelector('.game')")
    assert time.monotonic() - gone < 30
    assert match_id(aya) != old
    chip = aya.locator(".seat[data-seat='2']")  # (its text may start "▶ to play:" when the bot is awaited)
    assert re.fullmatch(r"Bot \d+", chip.locator("b").inner_text())
    assert not re.search(r"\bbot\b", chip.inner_text())  # named as a bot already: not "Bot 1 bot"
    assert errors == []


def test_a_friend_left_the_others_open_a_new_table_her_link_still_leads_to(server, browser):
    invite, aya, ben, cho, errors = three_friends(server, browser)
    cho.context.close()
    gone = time.monotonic()
    ben.locator("#next-table").wait_for()
    ben.click("#next-table")
    for page in (aya, ben):  # both pages follow to the new table
        page.wait_for_url(lambda url: "/r/" in url and url != invite)
    new_url = ben.url
    assert aya.url == new_url
    assert [aya.locator(f".seat[data-seat='{i}']").inner_text().split(": ")[1].split(" ")[0] for i in (0, 1)] == ["Aya", "Ben"]
    add_bot(ben, 2)  # Ben hosts the new table
    start_match(ben)
    for page in (aya, ben):
        wait_for_table(page)
    assert time.monotonic() - gone < 30
    # Cho comes back later through the old link: it leads to the new table
    back = browser.new_context(viewport=PHONE).new_page()
    back.goto(invite)
    back.wait_for_url(new_url)
    assert errors == []


def test_abort_leave_take_back_and_resign_in_english_and_japanese(server, browser):
    aki, ben, errors = friends_at_synomilia(server, browser)
    # abort: proposed, declined, proposed again and agreed
    aki.click("#abort-propose")
    ben.locator("#abort-proposal").wait_for()
    assert "Akiさんが対戦の中止を提案しました" in ben.locator("#abort-proposal").inner_text()
    assert "返事待ち：あなた" in ben.locator("#abort-proposal").inner_text()  # he is "you" on his own page
    assert "You proposed to abort the match" in aki.locator("#abort-proposal").inner_text()  # hers, said so
    assert ben.locator("#abort-agree").inner_text() == "中止に賛成"
    assert ben.title().startswith("● ") and "あなたの返事待ち：対戦の中止に賛成しますか？" in ben.title()  # his answer is awaited
    assert "返事待ち" not in aki.title() and "Answer" not in aki.title()  # hers is given
    ben.click("#abort-decline")
    aki.locator("#abort-proposal").wait_for(state="detached")
    # Aki is told, not left to notice that the proposal vanished; Ben, who answered, is not
    aki.locator("#toast:not([hidden])", has_text="Ben declined the proposal to abort: the match goes on.").wait_for()
    assert "中止の提案" not in ben.locator("#toast").inner_text()
    ben.locator("#abort-proposal").wait_for(state="detached")
    # proposed again and withdrawn: Ben reads that Aki took it back (not that someone declined)
    aki.click("#abort-propose")
    ben.locator("#abort-proposal").wait_for()
    aki.locator("#abort-decline", has_text="Withdraw").click()
    ben.locator("#toast:not([hidden])", has_text="Akiさんが中止の提案を取り下げました。対戦を続けます。").wait_for()
    ben.locator("#abort-proposal").wait_for(state="detached")
    assert "返事待ち" not in ben.title()  # answered: no longer asked
    # Ben leaves the table: a bot plays for him at once; said in the chat and on his seat
    ben.click("#leave-match")
    aki.locator("#chat-log li.notice[data-notice='bot_plays']").wait_for()
    assert aki.locator("#chat-log li.notice").inner_text() == "⚙ A bot plays for Ben until they are back."
    aki.locator(".seat[data-seat='1']", has_text="a bot plays for now").wait_for()
    assert "A bot plays for Ben until they are back." in aki.locator(".zombie-notice").inner_text()
    ben.locator("#chat-log li.notice[data-notice='bot_plays']", has_text="Benさんが戻るまでボットが代わりに打ちます。").wait_for()
    ben.locator(".zombie-notice", has_text="あなたが戻るまでボットが代わりに打ちます。").wait_for()  # his own seat
    ben.locator("#take-back", has_text="席に戻る").click()
    aki.locator("#chat-log li.notice[data-notice='back']", has_text="Ben is back and plays again.").wait_for()
    aki.locator(".zombie-notice").wait_for(state="detached")
    ben.locator("#chat-log li.notice[data-notice='back']", has_text="Benさんが戻り、自分で打っています。").wait_for()
    # now both agree to abort: not rated
    ben.click("#abort-propose")
    aki.click("#abort-agree")
    for page in (aki, ben):
        page.locator("#outcome[data-ending='aborted']").wait_for()
    assert "Match aborted" in aki.locator("#outcome").inner_text() and "Not rated." in aki.locator("#outcome").inner_text()
    assert "対戦中止" in ben.locator("#outcome").inner_text() and "合意により中止。" in ben.locator("#outcome").inner_text()
    says_the_match_is_over(aki)
    says_the_match_is_over(ben, "ゲーム終了。")
    record = httpx.get(f"{server.base_url}/api/matches/{match_id(aki)}").json()
    assert record["status"] == "aborted" and not record["rated"] and record["ending"] == "aborted"
    # the rematch, then Ben resigns (in Japanese)
    aki.click("#rematch-button")
    ben.click("#rematch-button")
    for page in (aki, ben):
        page.wait_for_function("() => !document.querySelector('#outcome') && document.querySelector('.game')")
    ben.locator("#resign", has_text="投了…").click()
    ben.click("#resign-confirm")
    aki.locator("#outcome[data-ending='resigned']", has_text="Ben resigned.").wait_for()
    ben.locator("#outcome", has_text="Benが投了しました。").wait_for()
    says_the_match_is_over(aki)
    says_the_match_is_over(ben, "ゲーム終了。")
    assert errors == []


def test_a_casual_table_and_a_leaderboard_that_tells_players_apart(open_board_server, browser):
    server = open_board_server  # guests on the board: every rated player is listed
    aki = browser.new_context(viewport=DESKTOP).new_page()
    ben = browser.new_context(viewport=PHONE).new_page()
    errors = watch_errors(aki) + watch_errors(ben)
    invite = create_room(aki, server.base_url, "Aki", "synomilia")
    aki.locator("#room-rated").uncheck()
    join_room(ben, aki, invite, "Ben", 1)
    ben.locator("#table-settings", has_text="casual (unrated)").wait_for()
    start_match(aki)
    for page in (aki, ben):
        wait_for_table(page)
    aki.click("#resign")
    aki.click("#resign-confirm")
    ben.locator("#outcome").wait_for()
    record = httpx.get(f"{server.base_url}/api/matches/{match_id(aki)}").json()
    assert not record["rated"] and record["unrated_reason"] == "the table was unrated"

    # two players named Aya, each rated once against Dee (one won, one lost): told apart, no negative figure
    from tests.platform.test_endings import rated_match
    ayas = [Api.new_player(server.base_url, "Aya"), Api.new_player(server.base_url, "Aya")]
    dee = Api.new_player(server.base_url, "Dee")
    rated_match(ayas[0], dee)
    rated_match(dee, ayas[1])
    aki.goto(server.base_url + "/static/ratings.html?game=synomilia")
    rows = aki.locator("#leaderboard tr")
    rows.nth(3).wait_for()
    texts = [rows.nth(i).inner_text() for i in (1, 2, 3) if "Aya" in rows.nth(i).inner_text()]
    assert len(texts) == 2
    tags = [re.search(r"Aya\s+(#\S+)", text).group(1) for text in texts]
    assert tags[0] != tags[1]
    figures = [re.search(r"\t(\d+)\?\t", text) for text in texts]
    assert all(figures), texts  # "1500?"-style while provisional
    assert not any("-" in text.split("\t")[2] for text in texts)
    aki.set_viewport_size(PHONE)
    aki.screenshot(path="/tmp/leaderboard-phone.png")
    assert errors == []


def test_the_last_one_here_claims_the_win_after_the_grace_period(database_url, browser):
    """Ben closes his tab mid-match; past the grace period (2 s here) a bot plays for him, which
    Aki's page says, and Aki may claim the win (rated; Ben's abandonment counts as his loss)."""
    from tests.support.server import start_in_thread

    server = start_in_thread(database_url, zombie_grace_seconds=2)
    try:
        aki = browser.new_context(viewport=PHONE).new_page()
        ben = browser.new_context(viewport=DESKTOP).new_page()
        errors = watch_errors(aki)
        invite = create_room(aki, server.base_url, "Aki", "synomilia")
        join_room(ben, aki, invite, "Ben", 1)
        start_match(aki)
        for page in (aki, ben):
            wait_for_table(page)
        assert aki.locator("#claim").count() == 0  # Ben is here
        ben.context.close()
        aki.locator(".zombie-notice", has_text="A bot plays for Ben until they are back.").wait_for()
        aki.locator("#chat-log li.notice[data-notice='bot_plays']").wait_for()
        assert aki.locator("#abort-propose").inner_text() == "End the match (no result)"
        aki.click("#claim")
        aki.locator("#outcome[data-ending='claimed']", has_text="Aki claimed the win: every other player was gone.").wait_for()
        record = httpx.get(f"{server.base_url}/api/matches/{match_id(aki)}").json()
        assert record["ending"] == "claimed" and record["rated"]
        assert [s["abandoned"] for s in record["seats"]] == [False, True]
        assert errors == []
    finally:
        server.stop()


def test_the_match_menu_keeps_a_keyboard_players_focus_while_others_move(server, browser, shots):
    """Every view redraws the match menu: a focused "Resign…" keeps the focus when the other
    player moves; pressed, the focus goes to the confirmation's "No" (never to a neighbour such as
    "Leave the table"), and "No" gives it back to "Resign…"."""
    aki = browser.new_context(viewport=DESKTOP).new_page()
    ben = browser.new_context(viewport=PHONE).new_page()
    errors = watch_errors(aki) + watch_errors(ben)
    invite = create_room(aki, server.base_url, "Aki", "synomilia", {"reveal_delay": 0})
    join_room(ben, aki, invite, "Ben", 1)
    start_match(aki)
    for page in (aki, ben):
        wait_for_table(page)
    aki.locator("#resign").focus()
    aki.evaluate("""() => { window.__redrawn = 0; new MutationObserver(() => { window.__redrawn += 1; })
        .observe(document.getElementById('match-controls'), { childList: true, subtree: true }); }""")
    ben.locator(".synomilia-root button").first.click()  # Ben's prediction: a new view for Aki
    aki.wait_for_function("() => window.__redrawn > 0")
    assert aki.evaluate("() => document.activeElement.id") == "resign"
    aki.keyboard.press("Enter")
    aki.locator("#resign-confirm").wait_for()
    assert aki.evaluate("() => document.activeElement.id") == "resign-cancel"
    aki.locator("#match-controls").screenshot(path=str(shots / "menu-focus-after-resign-1280.png"))
    aki.keyboard.press("Enter")  # "No"
    aki.locator("#resign-confirm").wait_for(state="detached")
    assert aki.evaluate("() => document.activeElement.id") == "resign"
    assert errors == []


def test_an_abort_two_want_is_not_said_to_be_proposed_by_both(server, browser):
    """Cho proposes to abort and Ben agrees: Aya reads that both want it, not that both proposed
    it (the view says who voted, not who was first); Ben's Japanese page says the same."""
    _, aya, ben, cho, errors = at_three_magic(server, browser, {"viewport": PHONE, "locale": "ja-JP"},
                                              {"viewport": PHONE})
    cho.click("#abort-propose")
    aya.locator("#abort-proposal", has_text="Cho proposed to abort the match").wait_for()  # one vote: a proposal
    ben.locator("#abort-agree").click()
    aya.locator("#abort-proposal", has_text="Ben and Cho want to abort the match").wait_for()
    assert "proposed" not in aya.locator("#abort-proposal").inner_text()
    ben.locator("#abort-proposal", has_text="あなたとChoさんが対戦の中止に賛成しています").wait_for()
    assert errors == []
