"""Drive a whole match through the server: players choose from the legal actions the server sent
them, one action at a time, and every message each socket received is kept for later checks."""

from __future__ import annotations

import random

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

import engines
from app.models import Match, MatchAction
from tests.support.clients import Api, Socket


def setup_room(base_url: str, game: str, names: list[str], options: dict | None = None) -> tuple[str, list[Api]]:
    """Host creates the room (seat 0), the others join by the invite link's id; returns room id, apis."""
    apis = [Api.new_player(base_url, name) for name in names]
    room = apis[0].post("/api/rooms", {"game": game, "options": options or {}, "seats": len(names)}).json()
    room_id = room["invite_url"].rsplit("/", 1)[-1]
    for api in apis[1:]:
        assert api.post(f"/api/rooms/{room_id}/join").status_code == 200
    return room_id, apis


def choose(legal: list[dict], rng: random.Random) -> dict:
    return rng.choice(legal)


def play_over_sockets(api: Api, room_id: str, sockets: dict[int, Socket], rng: random.Random,
                      max_steps: int = 5000, policy=choose) -> dict:
    """Play until the outcome arrives; ``sockets`` maps seat -> socket. Returns the final view message."""
    for _ in range(max_steps):
        current = api.get(f"/api/rooms/{room_id}/view").json()["version"]
        latest = {seat: sock.latest_view(version=current) for seat, sock in sockets.items()}
        message = next(iter(latest.values()))
        if message["outcome"] is not None and message["version"] == current:
            return message
        actors = [s for s in message["awaiting"] if s >= 0 and latest[s]["version"] == current and latest[s]["legal_actions"]]
        if not actors:
            continue  # an automatic step is due; poll again
        seat = rng.choice(actors)
        sockets[seat].send({"type": "action", "action": policy(latest[seat]["legal_actions"], rng), "version": current})
        reply = sockets[seat].recv_until(lambda m: m["type"] == "error" or (m["type"] == "view" and m["version"] > current))
        if reply["type"] == "error":
            assert reply["code"] == "stale_version", reply
    raise AssertionError("match did not end")


def play_over_rest(apis: dict[int, Api], room_id: str, rng: random.Random, max_steps: int = 5000) -> list[tuple[int, dict]]:
    """Play only through REST: GET the view, POST an action. Returns (seat, view message) seen."""
    seen = []
    for _ in range(max_steps):
        views = {seat: api.get(f"/api/rooms/{room_id}/view").json() for seat, api in apis.items()}
        seen.extend(views.items())
        any_view = next(iter(views.values()))
        if any_view["outcome"] is not None:
            return seen
        for seat, message in views.items():
            if message["legal_actions"]:
                response = apis[seat].post(f"/api/rooms/{room_id}/actions",
                                           {"action": rng.choice(message["legal_actions"]), "version": message["version"]})
                assert response.status_code in (200, 409), response.text
                if response.status_code == 409:
                    assert response.json()["error"]["code"] == "stale_version"
                break
    raise AssertionError("match did not end")


def stored_match(database_url: str, match_id: str) -> tuple[Match, list[tuple[int, dict]]]:
    db = create_engine(database_url)
    with Session(db) as session:
        match = session.get(Match, match_id)
        log = [(a.seat, a.action) for a in session.scalars(
            select(MatchAction).where(MatchAction.match_id == match_id).order_by(MatchAction.idx))]
        session.expunge_all()
    db.dispose()
    return match, log


def states_by_version(match: Match, log: list[tuple[int, dict]]) -> list:
    """states[n] is the state at version n, recomputed from seed + options + log."""
    engine = engines.get(match.game)
    state = engine.new_game(len(match.seats), match.seed, match.options)
    states = [state]
    for seat, action in log:
        state = engine.apply(state, seat, action)
        states.append(state)
    return states
