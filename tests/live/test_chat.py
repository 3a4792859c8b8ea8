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
                {"type": "chat", "text": "hi", "channel": "all"}):
        a.send(bad)
        assert next_chat(a)["code"] == "malformed"
    a.send({"type": "chat", "text": " " + "y" * limit + "\n"})  # surrounding blanks do not count
    assert len(next_chat(a)["message"]["text"]) == limit
    for i in range(per_10s - 1):
        a.send({"type": "chat", "text": f"m{i}"})
        assert next_chat(a)["type"] == "chat"
    a.send({"type": "chat", "text": "one too many"})
    assert next_chat(a)["code"] == "rate_limited"
    b.send({"type": "chat", "text": "I may still talk"})  # the limit is per sender
    assert next_chat(b)["message"]["text"] == "y" * limit  # (b's queue: a's messages first)
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
