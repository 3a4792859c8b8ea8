"""A night's shareable page (/n/<id>) reads the whole night from the database (its standings for
the link preview) on every request, so it is throttled like the night's API (``nights``, per
token and address): past the limit a 429 with Retry-After, never a database read per request."""

from __future__ import annotations

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
