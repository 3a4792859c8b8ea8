"""A browser tester's game night (Aki in English at 1280 px, Ben in Japanese at 390 px, Chika in
English at 390 px; Synomilia, then Makelandia with a bot), and what they found wrong:

1. the night's page offered every player an "Admin replay" link (admin.html asks for a token no
   player has): a player's page has the replay only;
2. the table's game-night box said "the first match is next" while match 1 was being played: it
   says the match in play, "next" only between matches;
3. Makelandia's losing team was shown "Rank 2" but got 3rd place's point: the team's place gives
   the points (2 each), and the night's page says the place beside the points;
4. the night's chart on a Japanese page said "Bot 1" and "points 累計得点": ボット1 and 累計得点;
5. a bot (and a late joiner) had a place in the standings before playing a match: no place (–)
   until a match they played is over."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_game_night_browser import check_page, fetch_json, night_of, page_in, resign, room_id
from tests.support.browser import DESKTOP, PHONE, add_bot, create_room, join_room, start_match, watch_errors


def place_cell(page, player_id: str, table: str = "#night-scores"):
    return page.locator(f"{table} tbody tr[data-player='{player_id}'] .night-place")


def test_synomilia_then_makelandia_with_a_bot(server, browser, shots):
    aki, ben, chika = page_in(browser, DESKTOP), page_in(browser, PHONE, japanese=True), page_in(browser, PHONE)
    errors = watch_errors(aki) + watch_errors(ben) + watch_errors(chika)
    invite = create_room(aki, server.base_url, "Aki", "synomilia")
    join_room(ben, aki, invite, "Ben", 1)
    aki.locator("#make-night").click()
    for page in (aki, ben):
        page.locator("#night-scores").wait_for()
    expect(aki.locator("#night-board-title")).to_have_text("Game night — the first match is next")
    start_match(aki)
    for page in (aki, ben):
        page.locator(".game-synomilia").wait_for()
    # 2. match 1 is being played: said so, in each page's language
    expect(aki.locator("#night-board-title")).to_have_text("Game night — match 1 in play")
    expect(ben.locator("#night-board-title")).to_have_text("ゲームナイト — 第1戦の最中")

    # Chika joins on the night's page during match 1; she has no place before she has played
    night = night_of(aki)
    chika.goto(f"{server.base_url}/n/{night['id']}")
    chika.fill("#night-name", "Chika")
    chika.click("#night-join")
    chika.locator("#night-join").wait_for(state="detached")
    chika_id = chika.evaluate("() => localStorage.getItem('asobiba.player')")
    chika.locator("#night-matches li").first.wait_for()
    # 1. no admin replay on a player's page (nor for the match in play)
    assert chika.locator(".night-admin-replay, #night-matches a[href*='admin']").count() == 0

    resign(ben)
    night = night_of(aki)
    aki_id, ben_id = aki.evaluate("() => localStorage.getItem('asobiba.player')"), ben.evaluate(
        "() => localStorage.getItem('asobiba.player')")
    assert night["totals"] == {aki_id: 3, ben_id: 2, chika_id: 0}
    assert [(s["place"], s["player_id"]) for s in night["standings"]] == [(1, aki_id), (2, ben_id), (None, chika_id)]
    expect(aki.locator("#night-board-title")).to_have_text("Game night — after 1 match")
    expect(place_cell(aki, chika_id)).to_have_text(re.compile(r"^–"))
    expect(place_cell(aki, ben_id)).to_have_text("2")

    # the next table: Makelandia for four, the three people and a bot the host adds
    # (a free seat: the table waits for its start; next_game would wait for the game to show)
    before = {page: page.url for page in (aki, ben)}
    aki.select_option("#night-next-game", "makelandia")
    aki.click("#night-next")
    for page in (aki, ben):
        page.wait_for_url(lambda url, old=before[page]: url != old and "/r/" in url)
    table = room_id(aki)
    chika.locator(f"#night-table[href='/r/{table}']").wait_for()
    chika.locator("#night-table").click()
    chika.wait_for_url(f"**/r/{table}")
    chika.locator("#night-scores").wait_for()
    seats = fetch_json(aki, f"/api/rooms/{table}")["body"]["seats"]
    free = next(s["seat"] for s in seats if not s["player_id"])
    add_bot(aki, free)
    start_match(aki)
    for page in (aki, ben, chika):
        page.locator(".game-makelandia").wait_for()
    expect(ben.locator("#night-board-title")).to_have_text("ゲームナイト — 第2戦の最中")
    night = night_of(aki)
    bot = next(p for p in night["players"] if p["bot"])
    # 5. the bot plays its first match: on the board, without a place
    assert next(s for s in night["standings"] if s["player_id"] == bot["player_id"])["place"] is None
    expect(place_cell(aki, bot["player_id"])).to_have_text(re.compile(r"^–"))
    expect(place_cell(aki, chika_id)).to_have_text(re.compile(r"^–"))

    # the team of two people concedes (each of them votes to)
    teams = night["matches"][1]["teams"]
    losers = next(team for team in teams if bot["player_id"] not in team)
    pages = {aki_id: aki, ben_id: ben, chika_id: chika}
    for player_id in losers:
        answer = fetch_json(pages[player_id], f"/api/rooms/{table}/actions", "POST",
                            {"action": {"platform": "resign"}, "version": 0})
        assert answer["status"] == 200, answer
    for page in (aki, ben, chika):
        page.locator("#outcome").wait_for()
    # 3. the losing team is 2nd on the end panel, and 2nd place's points are what the night counts
    loser_page = pages[losers[0]]
    seat_of = {s["player_id"]: s["seat"] for s in seats if s["player_id"]}
    expect(loser_page.locator(f"#outcome .place[data-seat='{seat_of[losers[0]]}'] b")).to_have_text(
        re.compile(r"^(Rank 2|2位)$"))
    night = night_of(aki)
    match = night["matches"][1]
    assert {p: (match["places"][p], match["points"][p]) for p in losers} == {p: (2, 2) for p in losers}
    assert {match["points"][p] for p in match["points"] if p not in losers} == {3}
    assert all(s["place"] is not None for s in night["standings"])

    # 4. the night's page in Japanese on a phone: one language, bots as ボット<n>
    ben.goto(f"{server.base_url}/n/{night['id']}")
    ben.locator("#night-chart svg polyline.series").first.wait_for()
    texts = ben.locator("#night-chart svg text").all_text_contents()
    assert any(re.fullmatch(r"ボット\d+", text) for text in texts), texts
    assert not [text for text in texts if re.search(r"Bot|points", text)], texts
    assert "累計得点" in texts
    assert ben.locator("#night-chart svg polyline.series").count() == 4
    assert ben.locator(".night-admin-replay, #night-matches a[href*='admin']").count() == 0
    assert "2位(2点)" in ben.locator("#night-matches").inner_text()
    png = ben.evaluate("""async (url) => { const r = await fetch(url);
        return [r.status, r.headers.get('content-type')]; }""", f"/api/nights/{night['id']}/standings.png?lang=ja")
    assert png == [200, "image/png"]
    check_page(ben, shots, "night-fixes-page-390-ja")
    aki.goto(f"{server.base_url}/n/{night['id']}")
    aki.locator("#night-chart svg polyline.series").first.wait_for()
    assert "2nd (2 pts)" in aki.locator("#night-matches").inner_text()
    check_page(aki, shots, "night-fixes-page-1280-en")
    assert errors == []
