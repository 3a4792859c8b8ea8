"""Issue 48, point 4 (extra): anyone with a name may watch a table and chat there, so a spectator
could push "@name" to the table's away players (each push also spends the recipient's
``RATE_NOTIFY_PER_PLAYER``, so a spectator could use up their real turn reminders). Only a
seated player's mention is pushed; a spectator's is shown in the chat and pushes nothing."""

from __future__ import annotations

import pytest

from tests.platform.test_push import settle, subscribe
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room
from tests.support.push_service import PushService
from tests.support.server import start_in_thread


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def test_a_spectators_mention_pushes_nothing(database_url, push_service):
    running = start_in_thread(database_url, push_allow_loopback_http=True, rate_notify_per_player="1000/60")
    try:
        room_id, (aki, ben) = setup_room(running.base_url, "synomilia", ["Aki", "Ben"])
        subscribe(ben, push_service, "ben", kinds={"chat_mention": True})
        eve = Api.new_player(running.base_url, "Eve")  # not seated: a spectator with a name
        watcher, seated = Socket(running.ws_url, room_id, eve.token), Socket(running.ws_url, room_id, aki.token)
        try:
            watcher.send({"type": "chat", "text": "@Ben wake up", "channel": "room"})
            shown = seated.recv_until(lambda m: m["type"] == "chat")
            assert shown["message"]["text"] == "@Ben wake up", "the spectator's message is still shown"
            seated.send({"type": "chat", "text": "@Ben your move", "channel": "room"})
            seated.recv_until(lambda m: m["type"] == "chat" and m["message"]["text"] == "@Ben your move")
            push_service.wait_for("ben", 1)
            settle(running)
        finally:
            watcher.close()
            seated.close()
        assert [p.payload["body"] for p in push_service.to("ben")] == ["@Ben your move"]
        assert push_service.problems == []
    finally:
        running.stop()
