"""Ending a match early, in the platform (app/endings), over REST and the socket on a real server:
resign (a team concedes by its members' votes), abort by agreement (unrated), leave mid-match (a
bot at once, the seat taken back on return), claim the win once everyone else is gone; each is a
logged platform action that replays exactly; ratings and history say what happened. Also: zombie
notices in the chat, grace 0 for REST players, unrated tables, and rage-quitting counts as a loss."""

from __future__ import annotations

import json
import random
import time

import httpx

from app import history
from app.endings import actions as platform
from tests.platform.test_zombie_seats import no_clocks, room, view, zombies
from tests.support.clients import Api, Socket
from tests.support.driver import play_over_rest, setup_room, stored_match
from tests.support.waiting import wait_until_equal


def started(server, game="synomilia", names=("Aki", "Ben"), options=None, **room_options):
    host = Api.new_player(server.base_url, names[0])
    body = {"game": game, "seats": len(names), "options": options if options is not None else no_clocks(game), **room_options}
    room_id = host.post("/api/rooms", body).json()["id"]
    apis = [host]
    for name in names[1:]:
        api = Api.new_player(server.base_url, name)
        assert api.post(f"/api/rooms/{room_id}/join").status_code == 200
        apis.append(api)
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    return room_id, apis


def act(api, room_id, action):
    return api.post(f"/api/rooms/{room_id}/actions", {"action": action, "version": 0})


def record(server, match_id):
    return httpx.get(f"{server.base_url}/api/matches/{match_id}").json()


def replays_exactly(server, database_url, match_id):
    """The export of seed + log replays to the recorded outcome and final state."""
    export = httpx.get(f"{server.base_url}/api/matches/{match_id}/export").json()
    replayed = history.replay_export(export)
    assert replayed["outcome_matches"] and replayed["state_matches"], replayed
    return export


def test_a_resigner_of_three_is_last_not_second(server):
    """Resigning must not score better than playing a lost game out: of three, the resigner is
    3rd (both others strictly better), in the outcome, the end panel's rank and the match list's
    place (which a game night scores)."""
    room_id, (aki, ben, cho) = started(server, game="three_magic", names=("Aki", "Ben", "Cho"))
    ended = act(cho, room_id, {"platform": "resign"})
    assert ended.status_code == 200, ended.text
    assert ended.json()["outcome"]["ranks"] == [0, 0, 2]
    listed = {api.player_id: api.get(f"/api/players/{api.player_id}/matches").json()["matches"][0]
              for api in (aki, ben, cho)}
    assert [listed[api.player_id]["place"] for api in (aki, ben, cho)] == [1, 1, 3]


def test_resign_ends_the_match_rated_logged_and_replayed(server, database_url):
    room_id, (aki, ben) = started(server)
    socket = Socket(server.ws_url, room_id, aki.token)
    first = socket.latest_view()
    assert first["platform"] == {"abort_votes": [], "resign_votes": []}
    stranger = Api.new_player(server.base_url, "Cho")
    assert act(stranger, room_id, {"platform": "resign"}).json()["error"]["code"] == "not_seated"
    assert act(ben, room_id, {"platform": "surrender"}).json()["error"]["code"] == "invalid_action"
    assert act(ben, room_id, {"platform": "resign", "x": 1}).json()["error"]["code"] == "invalid_action"

    ended = act(ben, room_id, {"platform": "resign"})  # any version: a resign is not a move
    assert ended.status_code == 200, ended.text
    outcome = ended.json()["outcome"]
    assert outcome["ranks"] == [0, 1] and outcome["ending"] == "resigned" and outcome["reason"] == "seat 1 resigned"
    assert ended.json()["awaiting"] == [] and ended.json()["legal_actions"] == []
    pushed = socket.recv_until(lambda m: m["type"] == "view" and m["outcome"] is not None)
    assert pushed["outcome"] == outcome
    assert act(aki, room_id, {"platform": "resign"}).json()["error"]["code"] == "match_over"
    summary = room(server, room_id)
    assert summary["status"] == "finished"
    match = record(server, summary["match_id"])
    assert match["status"] == "finished" and match["ending"] == "resigned" and match["rated"]
    changes = {c["seat"]: c["delta"] for c in match["rating_changes"]}
    assert changes[0] > 0 > changes[1]
    export = replays_exactly(server, database_url, summary["match_id"])
    assert export["actions"][-1]["seat"] == -2 and export["actions"][-1]["action"]["kind"] == "resigned"
    step = httpx.get(f"{server.base_url}/api/matches/{summary['match_id']}/replay").json()
    assert step["outcome"] == outcome and step["ending"] == "resigned" and step["last_action"]["action"]["platform"] == "end"
    # the rematch works after a resign like after any finished match
    assert aki.post(f"/api/rooms/{room_id}/rematch").status_code == 200
    assert ben.post(f"/api/rooms/{room_id}/rematch").json()["rematch_id"]


def test_abort_needs_everyone_present_and_is_unrated(server, database_url):
    room_id, (aki, ben, cho) = started(server, "mipolin", ("Aki", "Ben", "Cho"))
    sockets = [Socket(server.ws_url, room_id, api.token) for api in (aki, ben, cho)]
    for sock in sockets:
        sock.latest_view()
    sockets[0].send({"type": "action", "action": {"platform": "abort"}, "version": 0, "id": 1})
    assert sockets[0].recv_until(lambda m: m["type"] == "ack")["ref"] == 1
    again = act(aki, room_id, {"platform": "abort"})  # a second yes adds nothing to the log
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_voted"
    seen = sockets[2].recv_until(lambda m: m["type"] == "view" and m["platform"]["abort_votes"])
    assert seen["platform"]["abort_votes"] == [0] and seen["outcome"] is None
    # a no clears the proposal; it must be proposed again
    sockets[2].send({"type": "action", "action": {"platform": "decline", "kind": "abort"}, "version": 0, "id": 2})
    cleared = sockets[1].recv_until(lambda m: m["type"] == "view" and m["platform"]["abort_votes"] == [])
    assert cleared["platform"]["declined"] == {"kind": "abort", "seat": 2}  # who said no (Cho), for the others' pages
    for sock in sockets:
        sock.send({"type": "action", "action": {"platform": "abort"}, "version": 0})
    final = sockets[0].recv_until(lambda m: m["type"] == "view" and m["outcome"] is not None)
    assert final["outcome"]["ending"] == "aborted" and final["outcome"]["ranks"] is None
    summary = room(server, room_id)
    match = record(server, summary["match_id"])
    assert match["status"] == "aborted" and match["ending"] == "aborted" and not match["rated"]
    assert match["unrated_reason"] == "the match was aborted"
    replays_exactly(server, database_url, summary["match_id"])
    stored, log = stored_match(database_url, summary["match_id"])
    assert [a["platform"] for s, a in log if s == -2] == ["vote", "decline", "vote", "vote", "end"]
    assert httpx.get(f"{server.base_url}/api/rooms/{room_id}/rematch").json()["available"]


def test_a_team_concedes_only_by_its_members_votes(server):
    names = ("Aki", "Ben", "Cho", "Dai")
    room_id, apis = started(server, "makelandia", names)
    spectator_view = httpx.get(f"{server.base_url}/api/rooms/{room_id}/view").json()
    teams = spectator_view["view"]["teams"]
    first, mate = teams[0][0], teams[0][1]
    other = teams[1][0]
    voted = act(apis[first], room_id, {"platform": "resign"}).json()
    assert voted["outcome"] is None and voted["platform"]["resign_votes"] == [first]
    # A proposal to concede is public: its version reaches every seat anyway, so the other team
    # and spectators are told what it is rather than left to infer it from a version bump.
    theirs = apis[other].get(f"/api/rooms/{room_id}/view").json()
    assert theirs["platform"]["resign_votes"] == [first]
    assert httpx.get(f"{server.base_url}/api/rooms/{room_id}/view").json()["platform"]["resign_votes"] == [first]
    assert apis[mate].get(f"/api/rooms/{room_id}/view").json()["platform"]["resign_votes"] == [first]
    ended = act(apis[mate], room_id, {"platform": "resign"}).json()
    outcome = ended["outcome"]
    assert outcome["ending"] == "resigned" and outcome["teams"] == teams
    # the conceding team is last: each member has the other team's two seats strictly better
    assert all(outcome["ranks"][s] == 2 for s in teams[0]) and all(outcome["ranks"][s] == 0 for s in teams[1])


def test_leave_mid_match_a_bot_at_once_and_the_seat_taken_back(fake_clock_server):
    server = fake_clock_server
    room_id, (aki, ben) = started(server)
    ben_socket = Socket(server.ws_url, room_id, ben.token)
    aki_socket = Socket(server.ws_url, room_id, aki.token)
    aki_socket.latest_view()
    left = ben.post(f"/api/rooms/{room_id}/leave")
    assert left.status_code == 200
    # at once, no clock advanced, though Ben's socket is still open; said in the seats and the chat
    heard = []
    aki_socket.recv_until(lambda m: heard.append(m) or (
        any(h["type"] == "room" and h["room"]["seats"][1]["zombie"] for h in heard)
        and any(h["type"] == "chat" for h in heard)))
    notice = next(h["message"] for h in heard if h["type"] == "chat")
    assert notice["channel"] == "notice"
    assert notice["notice"] == "bot_plays" and notice["seat"] == 1 and notice["name"] == "Ben"
    assert notice["text"] == "A bot plays for Ben until they are back."
    wait_until_equal(lambda: 1 in view(server, room_id)["awaiting"], False)  # the bot predicted for Ben
    assert ben.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert zombies(server, room_id) == []
    back = aki_socket.recv_until(lambda m: m["type"] == "chat" and m["message"].get("notice") == "back")["message"]
    assert back["name"] == "Ben" and back["text"] == "Ben is back and plays again."
    history_socket = Socket(server.ws_url, room_id, aki.token)
    old = history_socket.recv_until(lambda m: m["type"] == "chat_history")["messages"]
    assert [m["notice"] for m in old if m["channel"] == "notice"] == ["bot_plays", "back"]
    assert httpx.get(f"{server.base_url}/api/players/{ben.player_id}").json()["abandoned"] == 1


def test_claim_when_the_other_is_a_zombie(fake_clock_server, database_url):
    server = fake_clock_server
    room_id, (aki, ben) = started(server)
    aki_socket = Socket(server.ws_url, room_id, aki.token)
    aki_socket.latest_view()
    refused = act(aki, room_id, {"platform": "claim"})  # Ben is still within his grace period
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "cannot_claim"
    server.clock.advance(61)  # Ben never connected: past the grace period a bot plays for him
    wait_until_equal(lambda: zombies(server, room_id), [1])
    claimed = act(aki, room_id, {"platform": "claim"})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["outcome"]["ranks"] == [0, 1] and claimed.json()["outcome"]["ending"] == "claimed"
    match = record(server, room(server, room_id)["match_id"])
    assert match["ending"] == "claimed" and match["rated"]
    assert {c["seat"]: c["delta"] > 0 for c in match["rating_changes"]} == {0: True, 1: False}
    replays_exactly(server, database_url, match["id"])


def test_grace_zero_never_replaces_a_rest_player(fake_clock_server):
    server = fake_clock_server
    room_id, (aki, ben) = started(server, grace_seconds=0)
    for _ in range(3):  # Ben plays over REST only: each call must not make him a zombie
        assert ben.get(f"/api/rooms/{room_id}/view").status_code == 200
        time.sleep(0.1)
        server.clock.advance(5)
    time.sleep(0.2)
    assert zombies(server, room_id) == []


def test_an_unrated_table_leaves_ratings_unchanged(server):
    room_id, apis = started(server, options={"reveal_delay": 0}, rated=False)
    assert room(server, room_id)["rated"] is False
    play_over_rest(dict(enumerate(apis)), room_id, random.Random(5))
    match = record(server, room(server, room_id)["match_id"])
    assert match["status"] == "finished" and not match["rated"] and match["unrated_reason"] == "the table was unrated"
    assert httpx.get(f"{server.base_url}/api/games/synomilia/leaderboard").json()["entries"] == []
    bad = apis[0].post("/api/rooms", {"game": "synomilia", "rated": "no"})
    assert bad.status_code == 422


def test_rage_quit_counts_as_a_loss_for_the_leaver(fake_clock_server):
    """Ben closes the tab while losing: a bot plays on for him; the match is rated, Ben last."""
    server = fake_clock_server
    room_id, (aki, ben) = started(server, options={**no_clocks("synomilia"), "reveal_delay": 0})
    aki_socket = Socket(server.ws_url, room_id, aki.token)
    aki_socket.latest_view()
    server.clock.advance(61)
    wait_until_equal(lambda: zombies(server, room_id), [1])
    play_over_rest({0: aki}, room_id, random.Random(2), max_steps=2000, idle=0.01)
    match = record(server, room(server, room_id)["match_id"])
    assert match["status"] == "finished" and match["rated"] and match["ending"] == "abandoned"
    ranks = {s["seat"]: s["rank"] for s in match["seats"]}
    assert ranks[1] > ranks[0]  # whatever the bot did for him
    assert [s["abandoned"] for s in match["seats"]] == [False, True]
    assert zombies(server, room_id) == []  # the match is over: no bot plays for anyone now
    deltas = {c["seat"]: c["delta"] for c in match["rating_changes"]}
    assert deltas[1] < 0 < deltas[0]


def rated_match(winner: Api, loser: Api) -> None:
    """A rated Synomilia match between two players, decided by the loser's resign."""
    room_id = winner.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    assert loser.post(f"/api/rooms/{room_id}/join").status_code == 200
    assert winner.post(f"/api/rooms/{room_id}/start").status_code == 200
    assert act(loser, room_id, {"platform": "resign"}).status_code == 200


def test_the_lobby_makes_a_table_casual_and_the_leaderboard_tells_players_apart(open_board_server):
    server = open_board_server  # guests on the board: every rated player is listed
    aya1, aya2 = Api.new_player(server.base_url, "Aya"), Api.new_player(server.base_url, "Aya")
    ben = Api.new_player(server.base_url, "Ben")
    room_id = aya1.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    assert ben.patch(f"/api/rooms/{room_id}", {"rated": False}).json()["error"]["code"] == "not_host"
    assert aya1.patch(f"/api/rooms/{room_id}", {"rated": "no"}).status_code == 422
    assert aya1.patch(f"/api/rooms/{room_id}", {"rated": False}).json()["rated"] is False
    assert aya1.patch(f"/api/rooms/{room_id}", {"rated": True}).json()["rated"] is True
    # two players both named Aya (each at her own table with Ben): one wins, one loses
    rated_match(aya1, ben)
    rated_match(ben, aya2)
    board = httpx.get(f"{server.base_url}/api/games/synomilia/leaderboard").json()["entries"]
    ayas = [e for e in board if e["name"] == "Aya"]
    assert len(ayas) == 2 and ayas[0]["tag"] != ayas[1]["tag"] and all(e["tag"].startswith("#") for e in board)
    loser = next(e for e in board if e["player_id"] == aya2.player_id)
    assert loser["rating"] < 0  # the conservative estimate a new player used to be shown
    assert loser["shown"].endswith("?") and int(loser["shown"][:-1]) > 0  # lichess-style "1400?"
    profile = httpx.get(f"{server.base_url}/api/players/{aya2.player_id}").json()
    assert profile["tag"] == loser["tag"] and profile["ratings"][0]["shown"] == loser["shown"]


def test_a_vote_does_not_make_the_awaited_players_move_stale(server):
    """A vote or a no changes nothing on the table, so a move made on the table as it was just
    before it still applies: otherwise an opponent proposing (or proposing and declining, over and
    over) to abort would refuse every move of the player whose turn it is, until their clock ran out."""
    room_id, (aki, ben) = started(server)
    before = aki.get(f"/api/rooms/{room_id}/view").json()
    assert before["version"] == 0 and 0 in before["awaiting"] and before["legal_actions"]
    for request in ({"platform": "abort"}, {"platform": "decline", "kind": "abort"}, {"platform": "abort"}):
        assert act(ben, room_id, request).status_code == 200
    moved = act(aki, room_id, before["legal_actions"][0])  # answers version 0, the same table
    assert moved.status_code == 200, moved.text
    assert moved.json()["version"] == 4 and moved.json()["platform"]["abort_votes"] == [1]
    # a move is still refused when the table moved on since the version it answers
    after = ben.get(f"/api/rooms/{room_id}/view").json()
    assert 1 in after["awaiting"]
    refused = act(ben, room_id, after["legal_actions"][0])  # version 0: before Aki's move
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "stale_version"


def test_proposing_and_declining_over_and_over_stops(server, database_url):
    """Each vote or no is a logged version pushed to every seat: one seat may log a bounded number
    of them in a match (then 409 too_many_votes, nothing logged); the others still can."""
    from app.endings.actions import MAX_VOTES_PER_SEAT
    room_id, (aki, ben) = started(server)
    for _ in range(MAX_VOTES_PER_SEAT // 2):
        assert act(ben, room_id, {"platform": "abort"}).status_code == 200
        assert act(ben, room_id, {"platform": "decline", "kind": "abort"}).status_code == 200
    refused = act(ben, room_id, {"platform": "abort"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "too_many_votes"
    assert aki.get(f"/api/rooms/{room_id}/view").json()["version"] == MAX_VOTES_PER_SEAT
    assert act(aki, room_id, {"platform": "abort"}).status_code == 200  # Aki's own count
    ended = act(ben, room_id, {"platform": "resign"})  # ending the match is never refused
    assert ended.status_code == 200 and ended.json()["outcome"]["ending"] == "resigned"
    _, log = stored_match(database_url, room(server, room_id)["match_id"])
    assert len([a for s, a in log if s == -2]) == MAX_VOTES_PER_SEAT + 2


def test_who_owes_an_answer_to_an_open_proposal():
    """``platform.owing``, the one rule the room page's cue, "my tables" and the notifications
    follow: the present seats an abort waits for, the present teammates a concession waits for."""
    seats = platform.Seats(4, [[0, 2], [1, 3]], zombies=frozenset({3}))  # a bot plays for seat 3
    assert platform.owing(platform.Table(), seats) == frozenset()
    assert platform.owing(platform.Table(abort_votes=frozenset({0})), seats) == {1, 2}
    assert platform.owing(platform.Table(abort_votes=frozenset({0, 1, 2})), seats) == frozenset()
    assert platform.owing(platform.Table(resign_votes=frozenset({0})), seats) == {2}  # not the other team
    assert platform.owing(platform.Table(resign_votes=frozenset({1})), seats) == frozenset()  # 3 is away
    alone = platform.Seats(2, None, bots=frozenset({1}))
    assert platform.owing(platform.Table(abort_votes=frozenset({0})), alone) == frozenset()  # a bot owes nothing


def test_a_claim_puts_every_other_seat_behind_the_claimer_s_team_its_bots_too():
    """In a team game whose other team is a gone person and a bot, the claim is a win, not a
    draw: the bot is ranked behind the claimer's team with its teammate (ranks count the seats
    strictly better)."""
    seats = platform.Seats(num_players=4, teams=[[0, 2], [1, 3]], bots=frozenset({3}), zombies=frozenset({1}))
    claimed = platform.decide(platform.Table(), 0, {"platform": "claim"}, seats)
    assert claimed["outcome"]["ranks"] == [0, 2, 0, 2] and claimed["outcome"]["ending"] == "claimed"
    alone = platform.Seats(num_players=3, teams=None, zombies=frozenset({1, 2}))
    assert platform.decide(platform.Table(), 0, {"platform": "claim"}, alone)["outcome"]["ranks"] == [0, 1, 1]
