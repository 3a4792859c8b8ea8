"""Password change and log-in throttling per account (issue 30, point 5), against a real server:
an intruder who knows the password is out for good once the owner changes it; guesses at one
name are throttled per name and address and per name over every address (60 guesses from 60
addresses were never throttled), refused guesses never reach the password hasher, and none of it
locks the owner out: their sessions keep working and their known address still logs in."""

from __future__ import annotations

from tests.platform.test_session_endings import ended, still_open
from tests.support.clients import Api, Socket

PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple battery horse"
HOME = "203.0.113.10"


def from_address(base_url: str, address: str, token: str | None = None) -> Api:
    """A client seen at ``address`` (the test server trusts 127.0.0.1 as its proxy)."""
    api = Api(base_url, token)
    api.http.headers["X-Forwarded-For"] = address
    return api


def claimed(base_url: str, name: str, address: str = HOME) -> Api:
    guest = from_address(base_url, address)
    body = guest.post("/api/players", {"name": name}).json()
    guest.token = body["token"]
    answer = guest.post("/api/accounts", {"password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return from_address(base_url, address, answer.json()["token"])


def login(base_url: str, name: str, password: str, address: str):
    return from_address(base_url, address).post("/api/accounts/login", {"name": name, "password": password})


def test_sixty_guesses_from_sixty_addresses_are_throttled_before_the_hasher(fake_clock_server):
    server = fake_clock_server  # the buckets' clock stands still: no credit comes back while the hasher works
    hanako = claimed(server.base_url, "Hanako")
    work = server.app.state.password_work
    hashed_before = work.started
    answers = [login(server.base_url, "Hanako", f"guess-{i:04d}", f"198.51.100.{i + 1}") for i in range(60)]
    codes = [a.status_code for a in answers]
    assert codes[:20] == [401] * 20 and codes[20:] == [429] * 40, codes
    refused = answers[-1].json()["error"]
    assert refused["code"] == "rate_limited" and int(answers[-1].headers["Retry-After"]) >= 1
    assert work.started - hashed_before == 20  # the 40 refused guesses were never hashed

    assert hanako.get("/api/accounts/me").status_code == 200  # her session is untouched
    assert login(server.base_url, "Hanako", PASSWORD, "192.0.2.77").status_code == 429  # a stranger's address waits
    home = login(server.base_url, "Hanako", PASSWORD, HOME)  # her known address still logs in
    assert home.status_code == 200, home.text
    # another name has buckets of its own; an unknown name is throttled exactly like a real one
    claimed(server.base_url, "Taro", "203.0.113.20")
    assert login(server.base_url, "Taro", PASSWORD, "198.51.100.200").status_code == 200
    unknown = [login(server.base_url, "Nobody", "guess", f"198.51.101.{i + 1}").status_code for i in range(21)]
    assert unknown == [401] * 20 + [429]


def test_one_address_guessing_one_name_is_throttled_sooner(fake_clock_server):
    server = fake_clock_server
    claimed(server.base_url, "Hanako")
    codes = [login(server.base_url, "Hanako", f"guess-{i}", "198.51.100.1").status_code for i in range(6)]
    assert codes == [401] * 5 + [429]
    assert login(server.base_url, "Hanako", PASSWORD, "198.51.100.2").status_code == 200
    server.clock.advance(300)  # the name-and-address bucket refills in 5 minutes
    assert login(server.base_url, "Hanako", PASSWORD, "198.51.100.1").status_code == 200


def test_changing_the_password_shuts_the_intruder_out_for_good(server):
    owner = claimed(server.base_url, "Hanako")
    room_id = owner.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    intruder = from_address(server.base_url, "192.0.2.66",
                            login(server.base_url, "Hanako", PASSWORD, "192.0.2.66").json()["token"])
    watching = Socket(server.ws_url, room_id, intruder.token)
    watching.recv_until(lambda m: m["type"] == "room")
    mine = Socket(server.ws_url, room_id, owner.token)
    mine.recv_until(lambda m: m["type"] == "room")

    wrong = owner.post("/api/accounts/password", {"current_password": "not it at all", "new_password": NEW_PASSWORD})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_password"
    short = owner.post("/api/accounts/password", {"current_password": PASSWORD, "new_password": "short"})
    assert short.status_code == 422 and "short" not in short.json()["error"]["message"].replace("too short", "")
    assert intruder.get("/api/accounts/me").status_code == 200  # nothing changed so far

    changed = owner.post("/api/accounts/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD})
    assert changed.status_code == 200 and changed.json() == {"revoked": 1}
    assert intruder.get("/api/accounts/me").status_code == 401
    assert ended(watching)[1] == 4401  # the intruder's socket too
    still_open(mine)
    assert owner.get("/api/accounts/me").status_code == 200  # the owner's session stays
    assert login(server.base_url, "Hanako", PASSWORD, "192.0.2.66").status_code == 401  # the old password is dead
    assert login(server.base_url, "Hanako", NEW_PASSWORD, HOME).status_code == 200
    guest = Api.new_player(server.base_url, "Guest")
    refused = guest.post("/api/accounts/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_claimed"
