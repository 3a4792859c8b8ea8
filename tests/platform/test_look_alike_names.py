"""Look-alike names (issue 30, point 11), against a real server: invisible and direction-changing
characters are refused (``name_invisible``); a name that looks like an account's name (Cyrillic or
Greek letters, digits for letters, case and width) cannot be taken by a guest nor claimed by a
second account (``name_confusable``); and no two seats of one room show names that look alike
(``name_confusable_in_room``). Nothing is changed by a refusal."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from app.db import alembic_config
from app.names import skeleton
from tests.support.clients import Api

pytestmark = pytest.mark.every_database  # tests/conftest.py

PASSWORD = "correct horse battery"
INVISIBLE = ["Han\u200bako", "\u202eokanaH", "Hana\u2066ko\u2069", "Hanako\u200d", "\ufeffHanako", "\u3164", "Ha\u034fnako"]
LOOK_ALIKES = ["\u041d\u0430nako", "\u0397anako", "HANAK0", "\uff28\uff41\uff4e\uff41\uff4b\uff4f", "hanako"]


def error(response, status: int) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]["code"]


def test_invisible_and_direction_changing_characters_are_refused(server):
    guest = Api.new_player(server.base_url, "Guest")
    for name in INVISIBLE:
        assert error(Api(server.base_url).post("/api/players", {"name": name}), 422) == "name_invisible", name
        assert error(guest.http.patch("/api/players/me", json={"name": name}, headers=guest._headers()), 422) == "name_invisible"
        assert error(guest.post("/api/accounts", {"password": PASSWORD, "name": name}), 422) == "name_invisible"
    assert guest.get("/api/players/me").json()["name"] == "Guest"
    assert guest.get("/api/accounts/me").json()["claimed"] is False
    assert Api.new_player(server.base_url, "山田　花子").name == "山田　花子"  # an ideographic space is a space


def test_a_look_alike_of_an_accounts_name_is_refused_to_guests_and_accounts(server):
    hanako = Api.new_player(server.base_url, "Hanako")
    assert hanako.post("/api/accounts", {"password": PASSWORD}).status_code == 201
    for name in LOOK_ALIKES:
        code = error(Api(server.base_url).post("/api/players", {"name": name}), 409)
        assert code == ("name_claimed" if name in ("hanako", "\uff28\uff41\uff4e\uff41\uff4b\uff4f") else "name_confusable"), name
    impostor = Api.new_player(server.base_url, "Imposter")
    fake = "\u041d\u0430nako"
    assert error(impostor.http.patch("/api/players/me", json={"name": fake}, headers=impostor._headers()), 409) == "name_confusable"
    assert error(impostor.post("/api/accounts", {"password": PASSWORD, "name": fake}), 409) == "name_confusable"
    assert impostor.get("/api/accounts/me").json() == {"id": impostor.player_id, "name": "Imposter", "claimed": False, "sessions": []}
    # a second account may not look like the first either, whatever it was called as a guest
    assert impostor.post("/api/accounts", {"password": PASSWORD, "name": "HANAK0"}).json()["error"]["code"] == "name_confusable"
    assert impostor.post("/api/accounts", {"password": PASSWORD, "name": "Hanae"}).status_code == 201
    # the owner may write her own name differently
    session = Api(server.base_url, Api(server.base_url).post("/api/accounts/login", {"name": "Hanako", "password": PASSWORD}).json()["token"])
    renamed = session.http.patch("/api/players/me", json={"name": "HANAKO"}, headers=session._headers())
    assert renamed.status_code == 200, renamed.text


def test_two_seats_of_one_room_never_show_look_alike_names(server):
    taro = Api.new_player(server.base_url, "Taro")
    room_id = taro.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    double = Api.new_player(server.base_url, "\u0422aro")  # a guest may be called so (no account holds it)
    assert error(double.post(f"/api/rooms/{room_id}/join"), 409) == "name_confusable_in_room"
    seats = Api(server.base_url).get(f"/api/rooms/{room_id}").json()["seats"]
    assert [s["player_id"] for s in seats] == [taro.player_id, None]
    jiro = Api.new_player(server.base_url, "Jiro")
    assert jiro.post(f"/api/rooms/{room_id}/join").status_code == 200
    moved = jiro.http.patch("/api/players/me", json={"name": "TAR0"}, headers=jiro._headers())
    assert error(moved, 409) == "name_confusable_in_room"
    assert [s["name"] for s in Api(server.base_url).get(f"/api/rooms/{room_id}").json()["seats"]] == ["Taro", "Jiro"]


def test_a_claim_cannot_take_a_seat_mates_look_alike_name(server):
    """Claiming an account under a new name is a rename: it may not look like a seat-mate's (a
    guest "Ben" at the table, the claimer asking for "Веn" with a Cyrillic "В" and "е")."""
    ben = Api.new_player(server.base_url, "Ben")
    room_id = ben.post("/api/rooms", {"game": "synomilia"}).json()["id"]
    other = Api.new_player(server.base_url, "Ken")
    assert other.post(f"/api/rooms/{room_id}/join").status_code == 200
    claimed = other.post("/api/accounts", {"password": PASSWORD, "name": "\u0412\u0435n"})
    assert error(claimed, 409) == "name_confusable_in_room"
    assert [s["name"] for s in Api(server.base_url).get(f"/api/rooms/{room_id}").json()["seats"]] == ["Ben", "Ken"]
    assert other.get("/api/players/me").json()["name"] == "Ken"  # still a guest: its token works
    assert other.post("/api/accounts", {"password": PASSWORD, "name": "Kenji"}).status_code == 201


def test_a_rename_racing_a_join_never_seats_two_look_alike_names(server):
    """Someone at the table renames to the name of the person joining at that moment (and the
    joiner renames to a seat-mate's name while joining): whichever is written first, the other is
    refused; no table ends with two names that look alike."""
    for round_ in range(12):
        host = Api.new_player(server.base_url, f"Host{round_}")
        room_id = host.post("/api/rooms", {"game": "mipolin", "seats": 3}).json()["id"]
        mimic = Api.new_player(server.base_url, f"Mimic{round_}")
        assert mimic.post(f"/api/rooms/{room_id}/join").status_code == 200
        ben = Api.new_player(server.base_url, f"Ben{round_}")
        calls = [lambda: ben.post(f"/api/rooms/{room_id}/join"),
                 lambda: mimic.patch("/api/players/me", {"name": f"BEN{round_}"}),  # like the joiner
                 lambda: ben.patch("/api/players/me", {"name": f"HOST{round_}"})]  # like a seat-mate
        with ThreadPoolExecutor(len(calls)) as pool:
            answers = [f.result() for f in [pool.submit(call) for call in calls]]
        assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
        names = [s["name"] for s in Api(server.base_url).get(f"/api/rooms/{room_id}").json()["seats"] if s["name"]]
        assert len({skeleton(n) for n in names}) == len(names), (round_, names, [a.text for a in answers])


def test_existing_accounts_get_their_skeleton_and_older_keeps_a_shared_one(empty_database_url):
    """The migration gives existing accounts their name's skeleton; of two that already look alike,
    the older keeps it (the later stays without, and keeps its name)."""
    config = alembic_config(empty_database_url)
    command.upgrade(config, "0009")
    engine = create_engine(empty_database_url)
    with engine.begin() as connection:
        for i, name in enumerate(["Hanako", "\u041d\u0430nako", "Taro"]):
            connection.execute(text("INSERT INTO players (id, name, token_hash, is_bot, created_at) VALUES "
                                    "(:id, :name, :hash, false, CURRENT_TIMESTAMP)"), {"id": f"p{i}", "name": name, "hash": f"h{i}"})
            connection.execute(text("INSERT INTO accounts (player_id, name_key, password_hash, created_at) VALUES "
                                    f"(:id, :key, 'x', CURRENT_TIMESTAMP + INTERVAL '{i} second')"
                                    if engine.dialect.name == "postgresql" else
                                    "INSERT INTO accounts (player_id, name_key, password_hash, created_at) VALUES "
                                    f"(:id, :key, 'x', datetime('now', '+{i} seconds'))"),
                               {"id": f"p{i}", "key": name.casefold()})
    command.upgrade(config, "head")
    with engine.connect() as connection:
        rows = dict(connection.execute(text("SELECT player_id, name_skeleton FROM accounts")).all())
    engine.dispose()
    assert rows == {"p0": "hanako", "p1": None, "p2": "taro"}
    command.downgrade(config, "0009")
    command.upgrade(config, "head")


def test_a_bot_and_a_person_never_read_the_same_in_either_language(server):
    """A bot "Bot 1" reads "ボット1" on a Japanese page (static/i18n.js): a guest called "ボット1"
    may not sit beside it, and a bot seated beside a person called so takes the next number."""
    aki = Api.new_player(server.base_url, "Aki")
    room_id = aki.post("/api/rooms", {"game": "mipolin", "seats": 3}).json()["id"]
    assert aki.post(f"/api/rooms/{room_id}/bots", {"seat": 1}).status_code == 200
    impostor = Api.new_player(server.base_url, "ボット１")  # full-width digit: the same name after NFKC
    assert error(impostor.post(f"/api/rooms/{room_id}/join"), 409) == "name_confusable_in_room"

    room_id = aki.post("/api/rooms", {"game": "mipolin", "seats": 3}).json()["id"]
    guest = Api.new_player(server.base_url, "ボット1")
    assert guest.post(f"/api/rooms/{room_id}/join", {"seat": 1}).status_code == 200
    assert aki.post(f"/api/rooms/{room_id}/bots", {"seat": 2}).status_code == 200
    seats = Api(server.base_url).get(f"/api/rooms/{room_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Aki", "ボット1", "Bot 2"]
