"""Room and team chat over the live socket: stored with the room (history on connect), limited in
length and rate per sender, team messages only on that team's sockets, spectators see room chat."""

from __future__ import annotations

from sqlalchemy import create_engine, select

from app.models import ChatMessage
from tests.live.helpers import Stream
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room


def next_chat(sock: Socket) -> dict:
    """The next chat message or chat error this socket receives."""
    return sock.recv_until(lambda m: m["type"] == "chat" or (m["type"] == "error"))


def test_room_chat_is_stored_and_replayed_to_new_sockets(server, database_url):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    a, b = Socket(server.ws_url, room_id, host.token), Socket(server.ws_url, room_id, guest.token)
    watcher = Socket(server.ws_url, room_id)  # anonymous spectator
    a.send({"type": "chat", "text": "  hello <b>there</b>  "})
    for sock in (a, b, watcher):
        message = live_message = next_chat(sock)["message"]
        assert message["text"] == "hello <b>there</b>" and message["name"] == "Aki"
        assert message["channel"] == "room" and message["player_id"] == host.player_id
    stream = Stream(server.base_url, room_id, guest.token)  # stream clients get chat lines too
    assert stream.next()["type"] == "room"
    b.send({"type": "chat", "text": "hi", "channel": "room"})
    assert stream.until(lambda m: m["type"] == "chat")["message"]["text"] == "hi"
    stream.close()

    assert next_chat(watcher)["message"]["text"] == "hi"
    watcher.send({"type": "chat", "text": "me too"})  # no token, no name: may read, not write
    assert next_chat(watcher)["code"] == "not_allowed"

    later = Socket(server.ws_url, room_id)
    history = later.recv_until(lambda m: m["type"] == "chat_history")["messages"]
    assert [(m["name"], m["text"]) for m in history] == [("Aki", "hello <b>there</b>"), ("Ben", "hi")]
    assert history[0] == live_message  # same fields, same UTC timestamp, whichever database
    db = create_engine(database_url)
    with db.connect() as connection:
        rows = connection.execute(select(ChatMessage.room_id, ChatMessage.channel, ChatMessage.text)
                                  .where(ChatMessage.room_id == room_id).order_by(ChatMessage.id)).all()
    db.dispose()
    assert [tuple(r) for r in rows] == [(room_id, "room", "hello <b>there</b>"), (room_id, "room", "hi")]


def test_chat_is_length_and_rate_limited_per_sender(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    limit = server.app.state.settings.chat_max_chars
    per_10s = int(server.app.state.limiter.rules[("chat", "token")].capacity)
    a, b = Socket(server.ws_url, room_id, host.token), Socket(server.ws_url, room_id, guest.token)
    a.send({"type": "chat", "text": "x" * (limit + 1)})
    assert next_chat(a)["code"] == "too_large"
    for bad in ({"type": "chat", "text": "   "}, {"type": "chat"}, {"type": "chat", "text": 5},
                {"type": "chat", "text": "hi", "channel": "all"},
                {"type": "chat", "text": "Ben: I resign\u202e"}, {"type": "chat", "text": "a\u2066b\u2069"}):
        a.send(bad)
        assert next_chat(a)["code"] == "malformed"
    a.send({"type": "chat", "text": "family: \U0001f468\u200d\U0001f469\u200d\U0001f467"})  # a joiner inside an emoji stays
    assert next_chat(a)["message"]["text"].endswith("\u200d\U0001f467")
    a.send({"type": "chat", "text": " " + "y" * limit + "\n"})  # surrounding blanks do not count
    assert len(next_chat(a)["message"]["text"]) == limit
    for i in range(per_10s - 2):
        a.send({"type": "chat", "text": f"m{i}"})
        assert next_chat(a)["type"] == "chat"
    a.send({"type": "chat", "text": "one too many"})
    assert next_chat(a)["code"] == "rate_limited"
    b.send({"type": "chat", "text": "I may still talk"})  # the limit is per sender
    assert next_chat(b)["message"]["text"].startswith("family: ")  # (b's queue: a's messages first)
    assert next_chat(b)["message"]["text"] == "y" * limit
    assert b.recv_until(lambda m: m["type"] == "chat" and m["message"]["name"] == "Ben")["message"]["text"] == "I may still talk"
    assert all(m["message"]["text"] != "one too many" for m in b.received if m["type"] == "chat")


def test_team_chat_reaches_only_that_team(server):
    room_id, apis = setup_room(server.base_url, "makelandia", ["P0", "P1", "P2", "P3"])
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    outsider = Api.new_player(server.base_url, "Watcher")
    teams = apis[0].get(f"/api/rooms/{room_id}/view").json()["view"]["teams"]
    mine = next(t for t in teams if 0 in t)
    socks = {seat: Socket(server.ws_url, room_id, apis[seat].token) for seat in range(4)}
    spectator = Socket(server.ws_url, room_id, outsider.token)

    socks[0].send({"type": "chat", "text": "our plan", "channel": "team"})
    socks[0].send({"type": "chat", "text": "hello all", "channel": "room"})
    for seat, sock in socks.items():
        first = next_chat(sock)["message"]
        if seat in mine:
            assert (first["text"], first["channel"]) == ("our plan", f"team:{teams.index(mine)}")
            assert next_chat(sock)["message"]["text"] == "hello all"
        else:
            assert first["text"] == "hello all"  # the team message never came before it
    assert next_chat(spectator)["message"]["text"] == "hello all"

    spectator.send({"type": "chat", "text": "let me in", "channel": "team"})
    assert next_chat(spectator)["code"] == "no_team"

    def history(api):
        sock = Socket(server.ws_url, room_id, api.token if api else None)
        return [m["text"] for m in sock.recv_until(lambda m: m["type"] == "chat_history")["messages"]]

    other = next(s for s in range(4) if s not in mine)
    assert history(apis[mine[-1]]) == ["our plan", "hello all"]
    assert history(apis[other]) == ["hello all"]
    assert history(outsider) == ["hello all"] and history(None) == ["hello all"]


def test_team_chat_needs_a_team_game(server):
    room_id, (host, guest) = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
    assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
    sock = Socket(server.ws_url, room_id, host.token)
    sock.send({"type": "chat", "text": "psst", "channel": "team"})
    assert next_chat(sock)["code"] == "no_team"


def test_team_chat_of_a_match_stays_with_that_match_after_a_rematch(fake_clock_server):
    """Issue 30, point 7: Makelandia deals new teams for a rematch in the same room, and team chat
    was stored per room under the team's index, so the new "team 0" read the old one's plans.
    Team history belongs to its match: after the rematch nobody's history holds the old team
    messages, and the new team's messages reach the new team only."""
    import random

    from tests.support.driver import play_over_rest

    server = fake_clock_server
    room_id, apis = setup_room(server.base_url, "makelandia", ["P0", "P1", "P2", "P3"])
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    old_teams = apis[0].get(f"/api/rooms/{room_id}/view").json()["view"]["teams"]
    sock = Socket(server.ws_url, room_id, apis[0].token)
    sock.send({"type": "chat", "text": "old plan: attack the east", "channel": "team"})
    assert next_chat(sock)["message"]["channel"] == f"team:{next(i for i, t in enumerate(old_teams) if 0 in t)}"
    sock.close()
    play_over_rest(dict(enumerate(apis)), room_id, random.Random(3))
    for api in apis:
        api.post(f"/api/rooms/{room_id}/rematch")
    assert apis[0].get(f"/api/rooms/{room_id}").json()["status"] == "running"
    new_teams = apis[0].get(f"/api/rooms/{room_id}/view").json()["view"]["teams"]

    def history(seat: int) -> list[str]:
        sock = Socket(server.ws_url, room_id, apis[seat].token)
        first = sock.recv_until(lambda m: m["type"] in ("chat_history", "view"))
        if first["type"] == "view":  # no history at all comes before the view when there is none
            try:
                first = sock.recv_until(lambda m: m["type"] == "chat_history", timeout=1)
            except TimeoutError:
                return []
        return [m["text"] for m in first["messages"]]

    for seat in range(4):
        assert "old plan: attack the east" not in history(seat), (seat, old_teams, new_teams)
    socks = {seat: Socket(server.ws_url, room_id, apis[seat].token) for seat in range(4)}
    socks[0].send({"type": "chat", "text": "new plan", "channel": "team"})
    socks[0].send({"type": "chat", "text": "good luck all", "channel": "room"})
    mine = next(t for t in new_teams if 0 in t)
    for seat, s in socks.items():
        first = next_chat(s)["message"]["text"]
        assert first == ("new plan" if seat in mine else "good luck all")
    assert history(mine[-1])[-2:] == ["new plan", "good luck all"]
    assert "new plan" not in history(next(s for s in range(4) if s not in mine))
