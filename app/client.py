"""A reference client for the streaming API: ``python -m app.client <invite-url> --name NAME``.

It shows, in one small file, everything a program needs to play: create a guest player, join the
room from its invite link, read ``GET /api/rooms/{id}/stream`` line by line, and answer each view
that awaits its seat with ``POST /api/rooms/{id}/actions``, choosing with the game's bot policy
(``engines.bots``; uniformly random for a game without one). It exits 0 after printing the
outcome as the last line (JSON)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from urllib.parse import urlsplit

import httpx

from engines.bots import get as get_policy, random_policy


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
    """Join and play until the outcome; returns the final view message."""
    base_url, room_id = parse_invite(invite_url)
    rng = random.Random(seed)
    with httpx.Client(base_url=base_url, timeout=httpx.Timeout(30, read=60)) as http:
        me = _ok(http.post("/api/players", json={"name": name}))
        http.headers["Authorization"] = f"Bearer {me['token']}"
        room = _ok(http.post(f"/api/rooms/{room_id}/join", json={"seat": seat} if seat is not None else None))
        my_seat = next(s["seat"] for s in room["seats"] if s["player_id"] == me["id"])
        try:
            policy = get_policy(room["game"])
        except ValueError:
            policy = random_policy
        log(f"{name}: seat {my_seat} in a {room['game']} room")
        answered = -1
        with http.stream("GET", f"/api/rooms/{room_id}/stream") as stream:
            if stream.status_code != 200:
                stream.read()
                _ok(stream)
            for line in stream.iter_lines():
                if not line.strip():
                    continue
                message = json.loads(line)
                if message["type"] != "view":
                    continue
                if message["outcome"] is not None:
                    return message
                if message["version"] > answered and message["legal_actions"]:
                    answered = message["version"]
                    _act(http, room_id, message, policy, rng, log)
    raise SystemExit("the stream ended before the outcome")


def _act(http: httpx.Client, room_id: str, message: dict, policy, rng: random.Random, log) -> None:
    """Answer one view; a refused action is fine when it is stale (a newer view is on its way)."""
    legal = message["legal_actions"]
    action = policy(message["view"], legal, rng)
    for attempt in (action, rng.choice(legal)):
        response = http.post(f"/api/rooms/{room_id}/actions", json={"action": attempt, "version": message["version"]})
        if response.status_code == 200:
            return
        code = response.json().get("error", {}).get("code")
        if code in ("stale_version", "not_your_turn", "match_over"):
            return
        log(f"action {attempt} refused ({code}); trying a random legal one")


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
