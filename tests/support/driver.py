"""Drive a whole match through the server: players choose from the legal actions the server sent
them, one action at a time, and every message each socket received is kept for later checks."""

from __future__ import annotations

import random
import time

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

import engines
from app.models import Match, MatchAction
from tests.support.clients import Api, Socket
from tests.support.waiting import wait_for


# Options that shorten a match where a test needs a whole match through the platform, not the
# game's full length (engine tests play full games): Three Magic's one round of dealers is about
# 440 steps instead of 800.
SHORT_MATCH = {"three_magic": {"short_game": True}}


def setup_room(base_url: str, game: str, names: list[str], options: dict | None = None) -> tuple[str, list[Api]]:
    """Host creates the room (seat 0), the others join by the invite link's id; returns room id, apis."""
    apis = [Api.new_player(base_url, name) for name in names]
    room = apis[0].post("/api/rooms", {"game": game, "options": options or {}, "seats": len(names)}).json()
    room_id = room["invite_url"].rsplit("/", 1)[-1]
    for api in apis[1:]:
        assert api.post(f"/api/rooms/{room_id}/join").status_code == 200
    return room_id, apis


def wait_for_version(api: Api, room_id: str, version: int, timeout: float = 10.0) -> dict:
    """The room's view message once it reaches ``version`` (a timed step was applied)."""
    def reached() -> dict | None:
        message = api.get(f"/api/rooms/{room_id}/view").json()
        return message if message["version"] >= version else None
    return wait_for(reached, timeout, interval=0.02, what=f"room {room_id} to reach version {version}")


def choose(message: dict, rng: random.Random) -> dict:
    """Uniformly random among the legal actions the server sent."""
    return rng.choice(message["legal_actions"])


def play_over_sockets(api: Api, room_id: str, sockets: dict[int, Socket], rng: random.Random,
                      max_steps: int = 20000, policy=choose, on_idle=None) -> dict:
    """Play until the outcome arrives; ``sockets`` maps seat -> socket; ``policy(message, rng)``
    picks an action from a pushed view message. ``on_idle()`` runs when only an automatic step is
    due (e.g. to advance a fake clock). Returns the final view message."""
    for _ in range(max_steps):
        current = api.get(f"/api/rooms/{room_id}/view").json()["version"]
        latest = {seat: sock.latest_view(version=current) for seat, sock in sockets.items()}
        message = next(iter(latest.values()))
        if message["outcome"] is not None and message["version"] == current:
            return message
        actors = [s for s in message["awaiting"] if s >= 0 and latest[s]["version"] == current and latest[s]["legal_actions"]]
        if not actors:
            if on_idle:
                on_idle()
            continue  # an automatic step is due; poll again
        seat = rng.choice(actors)
        sockets[seat].send({"type": "action", "action": policy(latest[seat], rng), "version": current})
        reply = sockets[seat].recv_until(lambda m: m["type"] == "error" or (m["type"] == "view" and m["version"] > current))
        if reply["type"] == "error":
            assert reply["code"] == "stale_version", reply
    raise AssertionError("match did not end")


def play_over_rest(apis: dict[int, Api], room_id: str, rng: random.Random, max_steps: int = 5000,
                   idle: float = 0.0) -> list[tuple[int, dict]]:
    """Play to the match's end only through REST: GET each seat's view, POST a random legal action
    for the first seat that has one. Seats not in ``apis`` (bots, zombie seats) play on their own;
    ``idle`` seconds pass between polls while none of ``apis`` has a move. Returns every
    (seat, view message) seen; the last is a view of the end."""
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
        else:
            if idle:
                time.sleep(idle)
    raise AssertionError("match did not end")


def play_steps_over_rest(apis, room_id: str, rng: random.Random, steps: int) -> None:
    """Take ``steps`` random legal actions through REST, each by the first seat that has one."""
    for _ in range(steps):
        for api in apis:
            view = api.get(f"/api/rooms/{room_id}/view").json()
            if view["legal_actions"]:
                response = api.post(f"/api/rooms/{room_id}/actions",
                                    {"action": rng.choice(view["legal_actions"]), "version": view["version"]})
                assert response.status_code == 200, response.text
                break


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


def status_before_first_view(sock: Socket) -> str | None:
    """The room status this socket last heard before its first view of the match (the room page
    draws its lobby from the room message and the table from the view: "open" here would show a
    table beside the lobby's invite box)."""
    first_view = sock.recv_until(lambda m: m["type"] == "view")
    before = sock.received[:sock.received.index(first_view)]
    return next((m["room"]["status"] for m in reversed(before) if m["type"] == "room"), None)


def drain(sock: Socket, quiet: float = 0.2) -> None:
    """Read whatever the server still has to say to this socket."""
    for _ in range(100_000):
        try:
            sock.recv(timeout=quiet)
        except TimeoutError:
            return


def check_pushed_views(database_url: str, match_id: str, sockets: dict) -> tuple[Match, list]:
    """Every view pushed to a socket is exactly ``engine.view`` for that socket's seat at that
    version (recomputed from seed + options + log), with the right awaited seats and legal actions.
    ``sockets`` maps seat (None = spectator) -> socket. Returns the stored match and its states."""
    match, log = stored_match(database_url, match_id)
    engine = engines.get(match.game)
    states = states_by_version(match, log)
    assert engine.state_to_json(states[-1]) == match.state
    for seat, sock in sockets.items():
        drain(sock)
        views = [m for m in sock.received if m["type"] == "view"]
        assert views and views[-1]["version"] == len(log)
        for message in views:
            state = states[message["version"]]
            awaited = engine.awaiting(state)
            assert message["view"] == engine.view(state, seat)
            # the seats the table shows as awaited (Three Magic's call window: every seat that has
            # not acted, whoever answered; ``Engine.shown_awaiting``), which are a superset of those
            # really awaited; the legal actions follow the real ones
            assert message["awaiting"] == sorted(engine.shown_awaiting(state) if awaited else awaited)
            assert set(awaited) <= set(message["awaiting"])
            assert message["legal_actions"] == (engine.legal_actions(state, seat) if seat in awaited else [])
    return match, states
