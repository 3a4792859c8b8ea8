"""Small helpers shared by the live tests: polling the room, and a room the host filled with bots."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx

from app.settings import ROOT
from tests.support.clients import Api
from tests.support.waiting import wait_for


def room_id_of(summary: dict) -> str:
    return summary["invite_url"].rsplit("/", 1)[-1]


def wait_for_status(api: Api, room_id: str, status: str, timeout: float = 20.0) -> dict:
    def check():
        room = api.get(f"/api/rooms/{room_id}").json()
        assert room["status"] not in ("aborted",), room
        return room if room["status"] == status else None
    return wait_for(check, timeout, what=f"room {room_id} to be {status}")


def bots_only_room(base_url: str, game: str, seats: int, options: dict | None = None) -> tuple[Api, str]:
    """The host creates the room (sitting in seat 0), leaves it, and fills every seat with a bot."""
    host = Api.new_player(base_url, "Host")
    created = host.post("/api/rooms", {"game": game, "options": options or {}, "seats": seats,
                                       "bot_think_seconds": 0})
    assert created.status_code == 201, created.text
    room_id = room_id_of(created.json())
    assert host.post(f"/api/rooms/{room_id}/leave").status_code == 200
    for seat in range(seats):
        response = host.post(f"/api/rooms/{room_id}/bots", {"seat": seat})
        assert response.status_code == 200, response.text
    return host, room_id


def reference_client_against_a_bot(base_url: str, bot_think_seconds: float = 0, seed: int = 7):
    """A Synomilia room with a bot in seat 0 and ``python -m app.client`` joining seat 1 (a
    separate process that knows only the invite link), once it streams. Returns (host, room id,
    the client's process); the host has not started the match."""
    host = Api.new_player(base_url, "Aki")
    room = host.post("/api/rooms", {"game": "synomilia", "seats": 2, "options": {"reveal_delay": 0},
                                    "bot_think_seconds": bot_think_seconds}).json()
    room_id = room_id_of(room)
    assert host.post(f"/api/rooms/{room_id}/leave").status_code == 200
    assert host.post(f"/api/rooms/{room_id}/bots", {"seat": 0}).status_code == 200
    client = subprocess.Popen([sys.executable, "-m", "app.client", room["invite_url"], "--name", "Cli", "--seed", str(seed)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(lambda: host.get(f"/api/rooms/{room_id}").json()["seats"][1]["connected"] or client.poll() is not None,
             what="the client to join and stream")
    assert client.poll() is None, client.communicate()
    return host, room_id, client


class Stream:
    """``GET /api/rooms/{id}/stream`` read line by line (blocking, with a read timeout)."""

    def __init__(self, base_url: str, room_id: str, token: str, read_timeout: float = 15.0,
                 headers: dict | None = None):
        self.http = httpx.Client(base_url=base_url, timeout=httpx.Timeout(10, read=read_timeout))
        self.response = self.http.send(
            self.http.build_request("GET", f"/api/rooms/{room_id}/stream",
                                    headers={"Authorization": f"Bearer {token}", **(headers or {})}), stream=True)
        self._lines = self.response.iter_lines()

    def next(self) -> dict:
        for line in self._lines:
            if line.strip():
                return json.loads(line)
        raise EOFError("the stream ended")

    def until(self, predicate) -> dict:
        while True:
            message = self.next()
            if predicate(message):
                return message

    def rest(self) -> list[dict]:
        """Every remaining line until the server ends the stream."""
        return [json.loads(line) for line in self._lines if line.strip()]

    def close(self) -> None:
        self.response.close()
        self.http.close()
