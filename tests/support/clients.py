"""Thin test clients: REST calls with a player's token, and a WebSocket that collects messages."""

from __future__ import annotations

import json
import ssl
import time
from collections import deque

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


# One SSL context for every test client: httpx makes a new one for each client (or each call of
# ``httpx.get``), loading the CA bundle, 28 ms of CPU even for an http:// URL; the tests make
# thousands, and a server start's readiness poll made one every 50 ms.
TLS = ssl.create_default_context()


def client_from(address: str, base_url: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any of 127.0.0.0/8 works on
    loopback), so a test can be two clients with two IP addresses."""
    return httpx.Client(base_url=base_url, timeout=30, transport=httpx.HTTPTransport(local_address=address, verify=TLS))


class Api:
    def __init__(self, base_url: str, token: str | None = None):
        self.base_url = base_url
        self.token = token
        self.http = httpx.Client(base_url=base_url, timeout=10, verify=TLS)

    @classmethod
    def new_player(cls, base_url: str, name: str) -> "Api":
        api = cls(base_url)
        body = api.post("/api/players", {"name": name}).json()
        api.token, api.player_id, api.name = body["token"], body["id"], body["name"]
        return api

    def _headers(self):
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str, **kw) -> httpx.Response:
        return self.http.get(path, headers=self._headers(), **kw)

    def post(self, path: str, body=None, **kw) -> httpx.Response:
        return self.http.post(path, json=body, headers=self._headers(), **kw)

    def put(self, path: str, body=None, **kw) -> httpx.Response:
        return self.http.put(path, json=body, headers=self._headers(), **kw)

    def patch(self, path: str, body=None, **kw) -> httpx.Response:
        return self.http.patch(path, json=body, headers=self._headers(), **kw)

    def delete(self, path: str, **kw) -> httpx.Response:
        return self.http.delete(path, headers=self._headers(), **kw)


class Socket:
    """A live connection; ``received`` keeps every message in order.

    It says who it is in a ``hello`` first frame (the token never goes in the URL), then waits
    until the server has put it in the room (the ``room`` summary every new socket gets first), so
    anything that happens after the constructor returns reaches it. Messages read while waiting
    are handed out by ``recv`` in order, as if just received; a socket the server closes instead
    raises ``ConnectionClosed`` at its first ``recv``."""

    def __init__(self, ws_url: str, room_id: str, token: str | None = None, version: int | None = None,
                 headers: dict | None = None, token_in_url: bool = False):
        query = []
        if token and token_in_url:  # the deprecated way, for the tests of its deprecation period
            query.append(f"token={token}")
        if version is not None:
            query.append(f"version={version}")
        self.url = f"{ws_url}/ws/rooms/{room_id}" + ("?" + "&".join(query) if query else "")
        # Test clients buffer everything they are sent (a socket read only at the end, like a
        # spectator checked after the match, must not look like a slow consumer to the server).
        self.ws = connect(self.url, open_timeout=10, max_size=2**22, max_queue=None,
                          additional_headers=headers).__enter__()
        self.received: list[dict] = []
        self.last_view: dict | None = None
        self._early: deque[str] = deque()
        try:
            if not token_in_url:
                self.ws.send(json.dumps({"type": "hello", "token": token}))
        except ConnectionClosed:
            return  # refused before the hello (an unknown room): recv() raises
        self._wait_until_joined()

    def _wait_until_joined(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        try:
            while True:
                text = self.ws.recv(timeout=max(deadline - time.monotonic(), 0.001))
                self._early.append(text)
                if json.loads(text)["type"] == "room":
                    return
        except ConnectionClosed:
            return  # refused: the test reads the error and the close code with recv()

    def send(self, message) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = 10.0) -> dict:
        message = json.loads(self._early.popleft() if self._early else self.ws.recv(timeout=timeout))
        self.received.append(message)
        if message["type"] == "view":
            self.last_view = message
        return message

    def recv_until(self, predicate, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no matching message")
            message = self.recv(timeout=remaining)
            if predicate(message):
                return message

    def latest_view(self, timeout: float = 10.0, version: int | None = None) -> dict:
        """The newest view at ``version`` or later (already received or waited for); without a
        version, the next view message."""
        if version is not None and self.last_view and self.last_view["version"] >= version:
            return self.last_view
        return self.recv_until(lambda m: m["type"] == "view" and (version is None or m["version"] >= version), timeout)

    def close(self) -> None:
        self.ws.close()
