"""A night's link preview picture costs CPU to draw, so it must not be a lever on the server's CPU
(issue 48, point 7): each picture is drawn once per night state and language however many nights
are asked in turn, requests for a picture being drawn wait for that drawing, and the picture has
a rate limit of its own per address, far below the night's reads."""

from __future__ import annotations

import secrets
import threading
import time

from app.nights import charts
from app.routers import nights as nights_router
from tests.support.clients import Api, client_from

NIGHTS = 40  # × 2 languages: more pictures than a cache of 64 kept


def new_night(base_url: str, name: str) -> str:
    host = Api.new_player(base_url, name)
    room = host.post("/api/rooms", {"game": "synomilia"}).json()
    response = host.post("/api/nights", {"room_id": room["id"]})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def counted_drawing(monkeypatch, hold: threading.Event | None = None) -> list:
    """Count the real drawings (and, given ``hold``, keep the first one waiting for it)."""
    calls: list = []
    draw = charts.standings_png

    def counting(*args):
        calls.append(args)
        if hold is not None and len(calls) == 1:
            assert hold.wait(30)
        return draw(*args)

    monkeypatch.setattr(charts, "standings_png", counting)
    return calls


def test_previews_have_a_rate_limit_of_their_own(fake_clock_server):
    server = fake_clock_server  # (the buckets refill only as the test says)
    night_id = new_night(server.base_url, "Aya")
    visitor = Api(server.base_url)
    codes = [visitor.get(f"/api/nights/{night_id}/standings.png").status_code for _ in range(61)]
    assert codes[:60] == [200] * 60 and codes[60] == 429, codes
    refused = visitor.get(f"/api/nights/{night_id}/standings.png?lang=ja")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["error"]["code"] == "rate_limited"
    assert visitor.get(f"/api/nights/{night_id}").status_code == 200  # the night's reads go on


def test_each_picture_is_drawn_once_however_many_nights_are_asked(server, monkeypatch):
    tag = secrets.token_hex(4)  # pictures drawn by no other test
    night_ids = [new_night(server.base_url, f"Host {n} {tag}") for n in range(NIGHTS)]
    calls = counted_drawing(monkeypatch)
    # scrapers at four addresses, each within the pictures' own limit, ask every picture twice
    scrapers = [client_from(f"127.0.0.{n}", server.base_url) for n in range(2, 6)]
    for round_ in range(2):
        for n, night_id in enumerate(night_ids):
            for lang in ("en", "ja"):
                response = scrapers[n % 4].get(f"/api/nights/{night_id}/standings.png?lang={lang}")
                assert response.status_code == 200 and response.content[:4] == b"\x89PNG", response.text
        assert len(calls) == 2 * NIGHTS, f"round {round_ + 1}: {len(calls)} drawings"
    for scraper in scrapers:
        scraper.close()


def test_requests_for_a_picture_being_drawn_wait_for_that_drawing(server, monkeypatch):
    night_id = new_night(server.base_url, f"Aya {secrets.token_hex(4)}")  # a picture drawn by no other test
    hold = threading.Event()
    calls = counted_drawing(monkeypatch, hold)
    read = nights_router._night
    arrived = []

    async def counting_read(*args):  # the night's read, the step before its picture
        night = await read(*args)
        arrived.append(1)
        return night

    monkeypatch.setattr(nights_router, "_night", counting_read)
    visitor = Api(server.base_url)
    answers: list = []
    threads = [threading.Thread(target=lambda: answers.append(visitor.get(f"/api/nights/{night_id}/standings.png")))
               for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while len(arrived) < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(arrived) == 8
    finally:
        hold.set()
        for thread in threads:
            thread.join(30)
    assert [a.status_code for a in answers] == [200] * 8
    assert len({a.content for a in answers}) == 1
    assert len(calls) == 1
