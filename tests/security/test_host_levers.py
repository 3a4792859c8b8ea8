"""Issue 48, points 1 and 2: a host's levers on a rated result.

1. Timing a host sets (the grace before an away player's seat goes to a bot, the per-decision
   clocks) is 0 or at least a floor, and shown in the room summary before anyone sits: a grace of
   0.05 s made an opponent's half-second reconnect an abandonment, a rated loss however the host
   then resigned or claimed.
2. A host who leaves a lost match cannot seat a bot in their own seat, and a bot seated for a
   leaver never makes the match unrated: leaving never improves a result."""

from __future__ import annotations

import random
import time

import httpx

from tests.platform.test_zombie_seats import no_clocks, room, view, zombies
from tests.support.clients import Api, Socket
from tests.support.driver import play_over_rest
from tests.support.waiting import wait_until_equal

FAST = {**no_clocks("synomilia"), "reveal_delay": 0}


def code(response: httpx.Response) -> str:
    return response.json()["error"]["code"]


def record(server, room_id: str) -> dict:
    return httpx.get(f"{server.base_url}/api/matches/{room(server, room_id)['match_id']}").json()


def deltas(match: dict) -> dict[int, int]:
    return {change["seat"]: change["delta"] for change in match["rating_changes"]}


def test_a_grace_or_clock_too_short_to_reconnect_in_is_refused_and_the_grace_is_shown(fake_clock_server):
    server = fake_clock_server
    aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
    # the lever: a grace shorter than a reload, or a clock shorter than a click over a phone's link
    for game, body in (("synomilia", {"grace_seconds": 0.05}), ("synomilia", {"grace_seconds": 19.5}),
                       ("synomilia", {"options": {"turn_seconds": 1}}), ("three_magic", {"options": {"turn_seconds": 9}}),
                       ("mipolin", {"options": {"turn_seconds": 2}}), ("makelandia", {"options": {"turn_seconds": 3}}),
                       ("peribit", {"options": {"placement_clock": 1}})):
        refused = aki.post("/api/rooms", {"game": game, **body})
        assert refused.status_code == 422, (game, body, refused.text)
        assert code(refused) == "timing_too_short"
    assert aki.get("/api/me/rooms").json()["rooms"] == []  # nothing was made
    # 0 (never, no clock) and the floors themselves are fine; the grace is in the summary
    assert aki.post("/api/rooms", {"game": "synomilia", "grace_seconds": 0}).json()["grace_seconds"] == 0
    assert aki.post("/api/rooms", {"game": "peribit", "options": {"placement_clock": 10}}).status_code == 201
    assert aki.post("/api/rooms", {"game": "synomilia"}).json()["grace_seconds"] == 60  # the server's default
    made = aki.post("/api/rooms", {"game": "synomilia", "grace_seconds": 20, "options": FAST})
    assert made.status_code == 201, made.text
    room_id = made.json()["id"]
    assert room(server, room_id)["grace_seconds"] == 20  # what a joiner reads over REST
    # the lobby cannot shorten a clock either, and a refused change changes nothing
    changed = aki.patch(f"/api/rooms/{room_id}", {"options": {"turn_seconds": 2}})
    assert changed.status_code == 422 and code(changed) == "timing_too_short"
    assert room(server, room_id)["options"] == FAST
    ben_socket = Socket(server.ws_url, room_id, ben.token)
    shown = ben_socket.recv_until(lambda m: m["type"] == "room")["room"]
    assert shown["grace_seconds"] == 20 and shown["bot_think_seconds"] == 0  # and over the socket
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    aki_socket = Socket(server.ws_url, room_id, aki.token)
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    aki_socket.latest_view()
    ben_socket.latest_view()
    # Ben's page reloads: half a second away, then 19 s, each within the grace: no abandonment
    for away in (0.5, 19):
        ben_socket.close()
        aki_socket.recv_until(lambda m: m["type"] == "room" and not m["room"]["seats"][1]["connected"])
        server.clock.advance(away)
        ben_socket = Socket(server.ws_url, room_id, ben.token)
        ben_socket.latest_view()
        assert zombies(server, room_id) == []
    server.clock.advance(60)  # long after: the return reset the grace, nothing is due
    time.sleep(0.1)
    assert zombies(server, room_id) == []
    refused = aki.post(f"/api/rooms/{room_id}/actions", {"action": {"platform": "claim"}, "version": 0})
    assert code(refused) == "cannot_claim"
    # the host resigns: a loss for the host, whatever Ben's reloads
    assert aki.post(f"/api/rooms/{room_id}/actions", {"action": {"platform": "resign"}, "version": 0}).status_code == 200
    match = record(server, room_id)
    assert match["rated"] and [s["abandoned"] for s in match["seats"]] == [False, False]
    assert deltas(match)[0] < 0 < deltas(match)[1]
    assert httpx.get(f"{server.base_url}/api/players/{ben.player_id}").json()["abandoned"] == 0


def started(server) -> tuple[str, Api, Api, Socket]:
    """A rated two-player match, Aki hosting, Aki's socket open."""
    aki, ben = Api.new_player(server.base_url, "Aki"), Api.new_player(server.base_url, "Ben")
    room_id = aki.post("/api/rooms", {"game": "synomilia", "options": FAST}).json()["id"]
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    aki_socket = Socket(server.ws_url, room_id, aki.token)
    aki_socket.latest_view()
    return room_id, aki, ben, aki_socket


def test_a_host_who_left_cannot_seat_a_bot_in_their_own_seat_and_still_loses(fake_clock_server):
    server = fake_clock_server
    room_id, aki, ben, _ = started(server)
    ben_socket = Socket(server.ws_url, room_id, ben.token)
    ben_socket.latest_view()
    assert aki.post(f"/api/rooms/{room_id}/leave").status_code == 200  # the host, losing, leaves
    wait_until_equal(lambda: zombies(server, room_id), [0])
    before = room(server, room_id)
    refused = aki.post(f"/api/rooms/{room_id}/bots", {"seat": 0})
    assert refused.status_code == 409, refused.text
    assert code(refused) == "own_seat"
    after = room(server, room_id)
    assert after["seats"][0]["player_id"] == aki.player_id and not after["seats"][0]["bot"]
    assert after["seats"] == before["seats"]
    # Ben claims the win: rated, the host's loss
    claimed = ben.post(f"/api/rooms/{room_id}/actions", {"action": {"platform": "claim"}, "version": view(server, room_id)["version"]})
    assert claimed.status_code == 200, claimed.text
    match = record(server, room_id)
    assert match["rated"], match.get("unrated_reason")
    assert deltas(match)[0] < 0 < deltas(match)[1]


def test_a_bot_seated_for_a_leaver_keeps_the_match_rated_with_the_leaver_last(fake_clock_server):
    """Ben leaves a lost match; the host seats a bot for him and plays it out: the match stays
    rated and Ben is last (it was "a bot took over a seat", unrated: leaving voided the loss)."""
    server = fake_clock_server
    room_id, aki, ben, _ = started(server)
    assert ben.post(f"/api/rooms/{room_id}/leave").status_code == 200
    seated = aki.post(f"/api/rooms/{room_id}/bots", {"seat": 1})  # at once, before any clock moves
    assert seated.status_code == 200, seated.text
    assert seated.json()["seats"][1]["bot"]
    play_over_rest({0: aki}, room_id, random.Random(3), idle=0.01)
    match = record(server, room_id)
    assert match["status"] == "finished" and match["rated"], match.get("unrated_reason")
    ranks = {s["seat"]: s["rank"] for s in match["seats"]}
    assert ranks[1] > ranks[0] and [s["abandoned"] for s in match["seats"]] == [False, True]
    assert deltas(match)[1] < 0 < deltas(match)[0]
