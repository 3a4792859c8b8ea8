"""Web Push end to end (issue 31): a real server on a real port posts to a stand-in push service on
loopback (``tests/support/push_service.py``), which verifies each push's VAPID signature (ES256,
against the key the server publishes) and decrypts its aes128gcm payload as a browser would.
One push per event, none after opting out, a gone subscription (410) deleted; endpoints on
private or loopback addresses refused (the loopback exception is the one test setting)."""

from __future__ import annotations

import random
import time

import pytest

import engines
from app.clock import FakeClock
from app.observability import metrics
from tests.support.clients import Api, Socket
from tests.support.driver import setup_room, states_by_version, stored_match
from tests.support.push_service import PushService
from tests.support.server import start_in_thread

ALL_KINDS = {"your_turn": True, "hours_left": True, "match_ended": True, "chat_mention": True}
OPTIONS = {"reveal_delay": 0, "turn_seconds": 0}


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def push_server(database_url):
    running = start_in_thread(database_url, push_allow_loopback_http=True, rate_notify_per_player="1000/60")
    yield running
    running.stop()


def settle(server, timeout: float = 20.0) -> None:
    """Until every queued event has been delivered (or skipped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.app.state.notifier.idle:
            return
        time.sleep(0.02)
    raise AssertionError("the push queue never emptied")


def subscribe(api: Api, service: PushService, name: str, lang: str = "en", kinds=None) -> None:
    service.server_key = api.get("/api/push/key").json()["public_key"]
    response = api.post("/api/me/push-subscriptions", service.subscriber(name).subscription(service.base, lang))
    assert response.status_code == 201, response.text
    assert api.put("/api/me/notifications", {"kinds": kinds or ALL_KINDS}).status_code == 200


def turns_of(database_url: str, match_id: str, seat: int) -> int:
    """How often ``seat`` became awaited with a real decision (not only passing), from the log."""
    match, log = stored_match(database_url, match_id)
    engine = engines.get(match.game)
    count, before = 0, False
    for state in states_by_version(match, log):
        now = seat in engine.awaiting(state)
        legal = engine.legal_actions(state, seat) if now else []
        if now and not before and any(a.get("type") != "pass" for a in legal):
            count += 1
        before = now
    return count


def step(apis: dict[int, Api], room_id: str, rng: random.Random) -> bool:
    """One legal action by the first seat that has one; False once the match is over."""
    for seat, api in apis.items():
        view = api.get(f"/api/rooms/{room_id}/view").json()
        if view["outcome"] is not None:
            return False
        if view["legal_actions"]:
            response = api.post(f"/api/rooms/{room_id}/actions",
                                {"action": rng.choice(view["legal_actions"]), "version": view["version"]})
            assert response.status_code == 200, response.text
            return True
    return True


def test_one_push_per_event_decrypted_none_after_opting_out_and_gone_deleted(push_server, push_service, database_url):
    room_id, (aki, ben) = setup_room(push_server.base_url, "synomilia", ["Aki", "Ben"], OPTIONS)
    subscribe(ben, push_service, "ben", lang="ja")
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
    match_id = aki.get(f"/api/rooms/{room_id}").json()["match_id"]
    rng, apis = random.Random(5), {0: aki, 1: ben}
    for _ in range(12):
        step(apis, room_id, rng)
    settle(push_server)
    expected = turns_of(database_url, match_id, 1)
    assert expected >= 2, "the scenario gives Ben several turns"
    pushes = push_service.to("ben")
    assert push_service.problems == []
    assert len(pushes) == expected, "one push per turn, no more, no fewer"
    first = pushes[0]
    assert first.payload == {"kind": "your_turn", "room": room_id, "url": f"/r/{room_id}",
                             "title": "シノミリア：あなたの番です", "body": "テーブルを開いて指してください。",
                             "tag": f"your_turn:{room_id}", "lang": "ja"}
    assert first.headers["topic"] and first.headers["urgency"] == "normal"
    assert push_service.to("aki") == [], "Aki has no subscription"

    # Opting out of "your turn": no more of those; a second browser that is gone (410) is deleted
    # at the first push it gets.
    assert ben.put("/api/me/notifications", {"kinds": {"your_turn": False}}).json()["kinds"] == dict(ALL_KINDS, your_turn=False)
    push_service.gone.add("/push/ben-old")
    ben.post("/api/me/push-subscriptions", push_service.subscriber("ben-old").subscription(push_service.base))
    assert ben.get("/api/me/notifications").json()["subscriptions"] == 2
    while step(apis, room_id, rng):
        pass
    settle(push_server)
    assert turns_of(database_url, match_id, 1) > expected, "Ben had more turns after opting out"
    after = push_service.to("ben")[len(pushes):]
    assert [p.payload["kind"] for p in after] == ["match_ended"], "no your_turn after opting out; the end once"
    assert after[0].payload["title"] == "シノミリア：対局が終わりました"
    assert [p.payload["kind"] for p in push_service.to("ben-old")] == ["match_ended"]
    assert ben.get("/api/me/notifications").json()["subscriptions"] == 1, "the gone subscription was deleted"
    assert push_service.problems == []


def test_an_answer_owed_to_a_proposal_is_pushed_once_per_proposal(push_server, push_service):
    """Aki proposes to abort while Ben is away: Ben is told once that his answer is awaited (not
    again at the moves made while the proposal stays open); declined and proposed again, told again.
    Aki, who proposed, owes nothing."""
    room_id, (aki, ben) = setup_room(push_server.base_url, "synomilia", ["Aki", "Ben"], OPTIONS)
    subscribe(ben, push_service, "ben")
    subscribe(aki, push_service, "aki")
    assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200

    def act(api: Api, action: dict) -> None:
        version = api.get(f"/api/rooms/{room_id}/view").json()["version"]
        response = api.post(f"/api/rooms/{room_id}/actions", {"action": action, "version": version})
        assert response.status_code == 200, response.text

    def answers(name: str) -> list[str]:
        settle(push_server)
        return [p.payload["title"] for p in push_service.to(name) if "answer" in p.payload["title"]]

    act(ben, ben.get(f"/api/rooms/{room_id}/view").json()["legal_actions"][0])
    act(aki, {"platform": "abort"})
    assert answers("ben") == ["A proposal to abort Synomilia waits for your answer"]
    first = [p.payload for p in push_service.to("ben") if "answer" in p.payload["title"]][0]
    assert first["kind"] == "your_turn" and first["body"] == "Open the table to agree or keep playing."
    act(aki, aki.get(f"/api/rooms/{room_id}/view").json()["legal_actions"][0])  # the turn goes on
    assert len(answers("ben")) == 1, "one push per proposal, not one per version"
    act(ben, {"platform": "decline", "kind": "abort"})
    act(aki, {"platform": "abort"})
    assert len(answers("ben")) == 2, "a new proposal, a new push"
    assert answers("aki") == [], "the proposer owes no answer"
    assert push_service.problems == []


def test_chat_mention_reaches_only_who_may_read_it(push_server, push_service):
    room_id, (aki, ben, cho) = setup_room(push_server.base_url, "three_magic", ["Aki", "Ben", "Cho"])
    subscribe(ben, push_service, "ben")
    subscribe(cho, push_service, "cho", kinds={"chat_mention": True})
    sock = Socket(push_server.ws_url, room_id, aki.token)
    try:
        sock.send({"type": "chat", "text": "@ben are you there? and @Nobody", "channel": "room"})
        push_service.wait_for("ben", 1)
        sock.send({"type": "chat", "text": "no mention here", "channel": "room"})
        sock.send({"type": "chat", "text": "@Ben again", "channel": "room"})
        push_service.wait_for("ben", 2)
        settle(push_server)
    finally:
        sock.close()
    mentions = [p.payload for p in push_service.to("ben")]
    assert [m["body"] for m in mentions] == ["@ben are you there? and @Nobody", "@Ben again"]
    assert mentions[0]["title"] == "Aki mentioned you (Three Magic)" and mentions[0]["kind"] == "chat_mention"
    assert push_service.to("cho") == [], "Cho was not mentioned"
    assert push_service.problems == []


def test_endpoints_are_checked_and_subscriptions_are_the_callers_own(push_server, push_service):
    ben = Api.new_player(push_server.base_url, "Ben")
    eve = Api.new_player(push_server.base_url, "Eve")
    good = push_service.subscriber("b").subscription(push_service.base)
    # (loopback is what this test server allows, for the stand-in push service; the next tests refuse it)
    for endpoint in ("https://10.1.2.3/push", "https://169.254.169.254/latest", "https://[fe80::1]/x",
                     "https://[::ffff:10.0.0.1]/x", "ftp://example.org/x", "https://user:pw@8.8.8.8/x",
                     "http://8.8.8.8/x", "https://192.168.0.1/x", "https://100.64.0.1/x", "https://0.0.0.0/x",
                     "https://no-such-host.invalid/x", "https://8.8.8.8:99999/x"):
        response = ben.post("/api/me/push-subscriptions", dict(good, endpoint=endpoint))
        assert response.status_code == 422, (endpoint, response.text)
    bad_key = dict(good, keys={"p256dh": "A" * 87, "auth": good["keys"]["auth"]})
    assert ben.post("/api/me/push-subscriptions", bad_key).status_code == 422
    assert Api(push_server.base_url).post("/api/me/push-subscriptions", good).status_code == 401
    assert ben.post("/api/me/push-subscriptions", good).status_code == 201
    # Eve cannot remove Ben's browser by its endpoint, nor read his choices.
    assert eve.post("/api/me/push-subscriptions/remove", {"endpoint": good["endpoint"]}).json()["removed"] is False
    assert ben.get("/api/me/notifications").json()["subscriptions"] == 1
    assert ben.put("/api/me/notifications", {"kinds": {"your_turn": "yes"}}).status_code == 422
    assert ben.put("/api/me/notifications", {"sound": True, "extra": 1}).status_code == 422
    assert ben.put("/api/me/notifications", {"sound": True}).json()["sound"] is True
    assert eve.get("/api/me/notifications").json()["sound"] is False
    assert ben.post("/api/me/push-subscriptions/remove", {"endpoint": good["endpoint"]}).json()["removed"] is True


def test_subscriptions_per_player_are_capped(database_url, push_service):
    running = start_in_thread(database_url, push_allow_loopback_http=True, push_max_subscriptions_per_player=2)
    try:
        ben = Api.new_player(running.base_url, "Ben")
        for name in ("one", "two"):
            assert ben.post("/api/me/push-subscriptions",
                            push_service.subscriber(name).subscription(push_service.base)).status_code == 201
        third = ben.post("/api/me/push-subscriptions", push_service.subscriber("three").subscription(push_service.base))
        assert third.status_code == 409 and third.json()["error"]["code"] == "too_many_subscriptions"
        # The same browser again renews its subscription rather than counting twice.
        assert ben.post("/api/me/push-subscriptions",
                        push_service.subscribers["/push/one"].subscription(push_service.base)).status_code == 201
    finally:
        running.stop()


def test_without_the_test_setting_loopback_is_refused_and_never_posted_to(database_url, push_service):
    """The default server refuses a loopback endpoint when subscribing, and its sender refuses one
    stored earlier (a setting changed, or DNS that now points inward): nothing reaches it."""
    running = start_in_thread(database_url)
    try:
        room_id, (aki, ben) = setup_room(running.base_url, "synomilia", ["Aki", "Ben"], OPTIONS)
        good = push_service.subscriber("ben").subscription(push_service.base)
        for endpoint in (good["endpoint"], "https://127.0.0.1/x", "https://[::1]/x", "https://localhost/x"):
            refused = ben.post("/api/me/push-subscriptions", dict(good, endpoint=endpoint))
            assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_endpoint", endpoint
        from app.push import store as push_store
        sub = push_service.subscribers["/push/ben"].subscription(push_service.base)
        with running.app.state.db.session_factory() as session:
            push_store.subscribe(session, ben.player_id, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], "en", 10)
        assert ben.put("/api/me/notifications", {"kinds": ALL_KINDS}).status_code == 200
        refused_before = metrics.PUSHES.labels("refused")._value.get()
        assert aki.post(f"/api/rooms/{room_id}/start").status_code == 200
        rng = random.Random(1)
        for _ in range(6):
            step({0: aki, 1: ben}, room_id, rng)
        settle(running)
        assert push_service.received == [] and push_service.problems == []
        assert metrics.PUSHES.labels("refused")._value.get() > refused_before, "the sender refused them"
    finally:
        running.stop()


def test_twelve_hours_left_is_pushed_once_per_deadline(database_url, push_service):
    """A correspondence table (1 day per move, a fake clock): 12 hours before each awaited person's
    deadline, that person gets one "12 hours left" push (the owner's hook,
    app/correspondence/reminders.py); nothing more while the deadline stands."""
    clock = FakeClock()
    running = start_in_thread(database_url, clock=clock, push_allow_loopback_http=True)
    try:
        aki, ben = Api.new_player(running.base_url, "Aki"), Api.new_player(running.base_url, "Ben")
        room = aki.post("/api/rooms", {"game": "synomilia", "seats": 2, "pace": "1d", "on_deadline": "bot"}).json()
        assert ben.post(f"/api/rooms/{room['id']}/join").status_code == 200
        subscribe(aki, push_service, "aki", kinds={"hours_left": True})
        subscribe(ben, push_service, "ben", kinds={"hours_left": True})
        assert aki.post(f"/api/rooms/{room['id']}/start").status_code == 200
        awaited = [s for s in aki.get(f"/api/rooms/{room['id']}/view").json()["awaiting"] if s >= 0]
        assert awaited
        clock.advance(11 * 3600)
        time.sleep(0.3)
        settle(running)
        assert push_service.received == [], "not before 12 hours are left"
        clock.advance(3600 + 1)
        names = {0: "aki", 1: "ben"}
        for seat in awaited:
            push_service.wait_for(names[seat], 1)
        clock.advance(6 * 3600)
        time.sleep(0.3)
        settle(running)
        for seat, name in names.items():
            pushes = [p.payload for p in push_service.to(name)]
            assert len(pushes) == (1 if seat in awaited else 0), (name, pushes)
            for payload in pushes:
                assert payload["kind"] == "hours_left" and payload["room"] == room["id"]
                assert payload["title"] == "12 hours left in Synomilia"
        assert push_service.problems == []
    finally:
        running.stop()


def test_the_same_calls_at_once_store_one_row_each(push_server, push_service):
    """A browser that sends its subscription twice at once, and two first choices at once: one row
    each, no error."""
    from concurrent.futures import ThreadPoolExecutor
    ben = Api.new_player(push_server.base_url, "Ben")
    body = push_service.subscriber("b").subscription(push_service.base)
    with ThreadPoolExecutor(8) as pool:
        subscribed = list(pool.map(lambda _: Api(push_server.base_url, ben.token).post("/api/me/push-subscriptions", body), range(8)))
        chosen = list(pool.map(lambda k: Api(push_server.base_url, ben.token).put(
            "/api/me/notifications", {"kinds": {k: True}}), list(ALL_KINDS) * 2))
    assert [r.status_code for r in subscribed] == [201] * 8
    assert [r.status_code for r in chosen] == [200] * 8
    prefs = ben.get("/api/me/notifications").json()
    assert prefs["subscriptions"] == 1 and prefs["kinds"] == ALL_KINDS


def test_each_players_pushes_are_throttled(database_url, push_service):
    """``RATE_NOTIFY_PER_PLAYER`` 2/3600: of three mentions, Ben gets the first two; the third is
    counted as throttled and not sent. Sent back to back, to three push tasks: one player's events
    still go out in their order (a later one once took the last credit first)."""
    running = start_in_thread(database_url, push_allow_loopback_http=True, rate_notify_per_player="2/3600",
                              push_workers=3)
    try:
        room_id, (aki, ben) = setup_room(running.base_url, "synomilia", ["Aki", "Ben"], OPTIONS)
        subscribe(ben, push_service, "ben", kinds={"chat_mention": True})
        throttled_before = metrics.PUSHES.labels("throttled")._value.get()
        sock = Socket(running.ws_url, room_id, aki.token)
        try:
            for n in range(3):
                sock.send({"type": "chat", "text": f"@Ben {n}", "channel": "room"})
            sock.recv_until(lambda m: m["type"] == "chat" and m["message"]["text"] == "@Ben 2")
            push_service.wait_for("ben", 2)
            deadline = time.monotonic() + 20
            while metrics.PUSHES.labels("throttled")._value.get() == throttled_before:
                assert time.monotonic() < deadline, "the third push was never throttled"
                time.sleep(0.02)
            settle(running)
        finally:
            sock.close()
        assert [p.payload["body"] for p in push_service.to("ben")] == ["@Ben 0", "@Ben 1"]
    finally:
        running.stop()
