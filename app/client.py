"""A reference client for the streaming API: ``python -m app.client <invite-url> --name NAME``.

It shows, in one small file, everything a program needs to play: create a guest player, join the
room from its invite link, read ``GET /api/rooms/{id}/stream`` line by line, and answer each view
that awaits its seat with ``POST /api/rooms/{id}/actions``, choosing with the game's bot policy
(``engines.bots``; uniformly random for a game without one). It exits 0 after printing the
outcome as the last line (JSON). When the server restarts it reconnects by itself and resumes."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from urllib.parse import urlsplit

import httpx

from engines.bots import get as get_policy, random_policy

# Reconnections before giving up (the pause grows to 2.5-5 s: one to two minutes of server downtime).
RECONNECT_ATTEMPTS = 30


def parse_invite(url: str) -> tuple[str, str]:
    """``http://host:port/r/<room id>`` -> (base url, room id)."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if not parts.scheme or "/r/" not in path:
        raise SystemExit(f"not an invite link: {url!r} (expected http(s)://host/r/<room id>)")
    prefix, room_id = path.rsplit("/r/", 1)
    return f"{parts.scheme}://{parts.netloc}{prefix}", room_id


def play(invite_url: str, name: str, seat: int | None = None, seed: int | None = None,
         log=lambda text: print(text, file=sys.stderr, flush=True)) -> dict:
    """Join and play until the outcome; returns the final view message. When the server restarts
    (the stream ends early, the connection drops, or it answers 503 ``shutting_down``), reconnect
    within a second and then with a growing pause, each a random part of its length: the stream's
    first line is the full current view, so nothing is missed and nothing is answered twice."""
    base_url, room_id = parse_invite(invite_url)
    rng = random.Random(seed)
    with httpx.Client(base_url=base_url, timeout=httpx.Timeout(30, read=60)) as http:
        me = _ok(http.post("/api/players", json={"name": name}))
        http.headers["Authorization"] = f"Bearer {me['token']}"
        room = _ok(http.post(f"/api/rooms/{room_id}/join", json={"seat": seat} if seat is not None else None))
        my_seat = next(s for s in room["seats"] if s["player_id"] == me["id"])["seat"]
        try:
            policy = get_policy(room["game"])
        except ValueError:
            policy = random_policy
        log(f"{name}: seat {my_seat} in a {room['game']} room")
        answered = [-1]  # the last version this client has answered
        failures = 0  # reconnections in a row that brought nothing
        while failures < RECONNECT_ATTEMPTS:
            lines = [0]
            try:
                final = _follow(http, room_id, policy, rng, log, answered, lines)
            except (httpx.TransportError, ServerRestarting) as exc:
                final = None
                log(f"{name}: connection lost ({type(exc).__name__}); reconnecting")
            if final is not None:
                return final
            failures = 0 if lines[0] else failures + 1
            # Within a second at first, then a growing pause, each a random part of its length: a
            # restart drops every client at once, and they should not all knock again together.
            # (Not ``rng``: the seeded choices of a game stay as they were.)
            time.sleep(random.uniform(0, 1) if failures <= 1 else min(5.0, 0.2 * 2 ** failures) * random.uniform(0.5, 1))
    raise SystemExit(f"gave up after {RECONNECT_ATTEMPTS} reconnections in a row")


class ServerRestarting(Exception):
    """The server answered 503: it is draining for a restart; try again."""


def _follow(http: httpx.Client, room_id: str, policy, rng: random.Random, log, answered: list[int],
            lines: list[int]) -> dict | None:
    """Read one stream until the outcome (returned) or until it ends early (None); counts its lines."""
    with http.stream("GET", f"/api/rooms/{room_id}/stream") as stream:
        if stream.status_code == 503:
            raise ServerRestarting()
        if stream.status_code != 200:
            stream.read()
            _ok(stream)
        for line in stream.iter_lines():
            if not line.strip():
                continue
            lines[0] += 1
            message = json.loads(line)
            if message["type"] != "view":
                continue
            if message["outcome"] is not None:
                return message
            if message["version"] > answered[0] and message["legal_actions"] and _act(http, room_id, message, policy, rng, log):
                answered[0] = message["version"]
    return None


def _act(http: httpx.Client, room_id: str, message: dict, policy, rng: random.Random, log) -> bool:
    """Answer one view; a refused action is fine when it is stale (a newer view is on its way).
    False when the server is restarting: the view is answered again once the stream is back."""
    legal = message["legal_actions"]
    action = policy(message["view"], legal, rng)
    for attempt in (action, rng.choice(legal)):
        try:
            response = http.post(f"/api/rooms/{room_id}/actions", json={"action": attempt, "version": message["version"]})
        except httpx.TransportError:
            return False
        if response.status_code == 200:
            return True
        if response.status_code == 503:
            return False
        code = response.json().get("error", {}).get("code")
        if code in ("stale_version", "not_your_turn", "match_over"):
            return True
        log(f"action {attempt} refused ({code}); trying a random legal one")
    return True


def _ok(response: httpx.Response) -> dict:
    if response.status_code >= 400:
        raise SystemExit(f"{response.request.method} {response.request.url.path}: {response.status_code} {response.text}")
    return response.json()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.client", description=__doc__.split("\n\n")[0])
    parser.add_argument("invite_url", help="the room's invite link, e.g. http://127.0.0.1:8000/r/<id>")
    parser.add_argument("--name", required=True, help="the guest player's name")
    parser.add_argument("--seat", type=int, default=None, help="the seat to take (default: the first free one)")
    parser.add_argument("--seed", type=int, default=None, help="seed the policy's choices")
    args = parser.parse_args(argv)
    final = play(args.invite_url, args.name, args.seat, args.seed)
    print(json.dumps({"version": final["version"], "seat": final["seat"], "outcome": final["outcome"]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
