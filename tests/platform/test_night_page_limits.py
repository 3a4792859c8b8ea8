"""A night's shareable page (/n/<id>) reads the whole night from the database (its standings for
the link preview) on every request, so it is throttled like the night's API (``nights``, per
token and address): past the limit a 429 with Retry-After, never a database read per request."""

from __future__ import annotations

import threading
import time

from app.nights import charts
from tests.support.clients import Api
from tests.support.server import start_in_thread


def test_the_night_page_is_throttled(database_url):
    server = start_in_thread(database_url, rate_nights_per_ip="4/60", rate_nights_per_token="4/60")
    try:
        aya = Api.new_player(server.base_url, "Aya")
        room = aya.post("/api/rooms", {"game": "synomilia"}).json()
        night = aya.post("/api/nights", {"room_id": room["id"]}).json()
        visitor = Api(server.base_url)
        codes = [visitor.get(f"/n/{night['id']}").status_code for _ in range(6)]
        assert codes[:4] == [200] * 4 and codes[4:] == [429, 429], codes
        assert "Retry-After" in visitor.get(f"/n/{night['id']}").headers
    finally:
        server.stop()


def test_drawing_night_pictures_never_takes_the_shared_threads(database_url, monkeypatch):
    """The link preview of a night is drawn with Pillow off the event loop, in a thread of its own:
    pictures of many nights asked at once must not take the event loop's default executor, which
    the readiness probe's database ping and the hub's writes share. Drawing is made to last until
    the test ends (the one stand-in: a slow draw), so every picture asked is still being drawn."""
    release = threading.Event()
    started = threading.Event()

    def slow_draw(*args):
        started.set()
        release.wait(60)
        return b"\x89PNG"

    monkeypatch.setattr(charts, "standings_png", slow_draw)
    server = start_in_thread(database_url)
    try:
        aya = Api.new_player(server.base_url, "Aya")
        nights = []
        for _ in range(8):
            room = aya.post("/api/rooms", {"game": "synomilia"}).json()
            nights.append(aya.post("/api/nights", {"room_id": room["id"]}).json()["id"])
        viewer = Api(server.base_url)
        threads = [threading.Thread(target=viewer.get, args=(f"/api/nights/{n}/standings.png",), daemon=True)
                   for n in nights]
        for thread in threads:
            thread.start()
        assert started.wait(20), "no picture was drawn"
        deadline = time.monotonic() + 3  # while every draw hangs
        while time.monotonic() < deadline:
            ready = viewer.get("/readyz")
            assert ready.status_code == 200, ready.text
    finally:
        release.set()
        server.stop()
