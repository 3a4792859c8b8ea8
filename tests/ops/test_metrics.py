"""``/metrics``: Prometheus text that prometheus-client's own parser reads, behind a token, with
gauges that follow the sockets and rooms of the process."""

from __future__ import annotations

import os
import random

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.support.clients import Socket
from tests.support.driver import play_over_sockets, setup_room
from tests.support.server import ADMIN_TOKEN, ServerProcess, start_in_thread

METRICS_TOKEN = "tests-only-metrics-Rw5uN8eKq2Ls6PzV9xBf3Gt"


def scrape(base_url: str, token: str = ADMIN_TOKEN) -> dict[tuple[str, tuple], float]:
    """Every sample as {(name, sorted labels): value}."""
    response = httpx.get(f"{base_url}/metrics", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_need_a_token_and_follow_sockets(database_url):
    server = start_in_thread(database_url, metrics_token=METRICS_TOKEN)
    try:
        assert httpx.get(f"{server.base_url}/metrics").status_code == 403
        wrong = httpx.get(f"{server.base_url}/metrics", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "not_allowed"
        before = scrape(server.base_url, METRICS_TOKEN)
        room_id, apis = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
        sockets = [Socket(server.ws_url, room_id, api.token) for api in apis] + [Socket(server.ws_url, room_id)]
        for sock in sockets:
            sock.recv_until(lambda m: m["type"] == "room")
        during = scrape(server.base_url)  # the admin token works too
        assert value(during, "asobiba_sockets_open") == value(before, "asobiba_sockets_open") + 3
        assert value(during, "asobiba_rooms_live") >= 1
        assert value(during, "asobiba_shutting_down") == 0
        created = ("asobiba_http_requests_total", dict(method="POST", route="/api/rooms", status="201"))
        assert value(during, created[0], **created[1]) == value(before, created[0], **created[1]) + 1
        assert value(during, "process_resident_memory_bytes") > 0  # the library's process collector
        for sock in sockets:
            sock.close()
    finally:
        server.stop()


def test_made_up_methods_add_no_series(server):
    """Any token is an HTTP method to a client (each answered 405): they are counted under one
    "OTHER" label, so nobody can grow /metrics (and the server's memory) without end."""
    before = scrape(server.base_url)
    for n in range(30):
        assert httpx.request(f"BREW{n}", f"{server.base_url}/api/games").status_code == 405
    after = scrape(server.base_url)
    assert not any("BREW" in str(key) for key in after)
    requests = "asobiba_http_requests_total"
    new_series = {dict(labels)["method"] for name, labels in set(after) - set(before) if name == requests}
    assert new_series <= {"OTHER", "GET"}  # (GET: the first scrape's own line)
    made_up = ("asobiba_http_requests_total", dict(method="OTHER", route="/api/games", status="405"))
    assert value(after, *made_up[:1], **made_up[1]) == value(before, *made_up[:1], **made_up[1]) + 30


def test_metrics_are_off_without_any_token(database_url):
    server = start_in_thread(database_url, admin_token="", metrics_token="")
    try:
        off = httpx.get(f"{server.base_url}/metrics", headers={"Authorization": "Bearer anything"})
        assert off.status_code == 403 and "METRICS_TOKEN" in off.json()["error"]["message"]
    finally:
        server.stop()


def test_action_counters_count_exactly_what_was_applied(server):
    """A whole match over sockets, with refused actions on the way: the applied counter grows by
    exactly the match's final version (every player, bot and automatic step), refusals are counted
    by code and never as applied, and the commit histograms account for every action."""
    before = scrape(server.base_url)
    room_id, apis = setup_room(server.base_url, "synomilia", ["Aki", "Ben"], {"reveal_delay": 0})
    assert apis[0].post(f"/api/rooms/{room_id}/start").status_code == 200
    sockets = {seat: Socket(server.ws_url, room_id, api.token) for seat, api in enumerate(apis)}
    first = sockets[0].latest_view()
    sockets[0].send({"type": "action", "action": first["legal_actions"][0], "version": first["version"] + 5})
    assert sockets[0].recv_until(lambda m: m["type"] == "error")["code"] == "stale_version"
    assert apis[1].post(f"/api/rooms/{room_id}/actions", {"action": {"type": "nonsense"}, "version": 0}).status_code >= 400
    final = play_over_sockets(apis[0], room_id, sockets, random.Random(2))
    after = scrape(server.base_url)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    applied = final["version"]
    assert applied > 5
    assert delta("asobiba_actions_applied_total", game="synomilia") == applied
    assert delta("asobiba_actions_refused_total", game="synomilia", code="stale_version") >= 1
    refused_codes = {labels for (name, labels) in after if name == "asobiba_actions_refused_total"}
    assert refused_codes  # labelled by game and code
    assert delta("asobiba_action_latency_seconds_count", game="synomilia") == applied
    assert delta("asobiba_commit_batch_actions_sum") == applied  # every committed action, once
    assert delta("asobiba_commit_latency_seconds_count") == delta("asobiba_commit_batch_actions_count") >= 1
    assert delta("asobiba_matches_finished_total", game="synomilia") == 1
    for sock in sockets.values():
        sock.close()


def test_the_server_process_times_its_garbage_collections(tmp_path):
    """``python -m app`` times every collection (``asobiba_gc_pause_seconds``): with young
    collections every 100 new objects, serving a few requests makes some."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'gc.db'}", env={"GC_YOUNG_THRESHOLD": "100"})
    server.start()
    try:
        for _ in range(5):
            httpx.get(f"{server.base_url}/api/games").raise_for_status()
        samples = scrape(server.base_url)
        assert value(samples, "asobiba_gc_pause_seconds_count", generation="0") > 0
        assert value(samples, "asobiba_gc_pause_seconds_sum", generation="0") > 0
        # The longest pause since the previous scrape: the scrape in between collected too.
        again = scrape(server.base_url)
        assert value(again, "asobiba_gc_pause_seconds_count", generation="0") > value(
            samples, "asobiba_gc_pause_seconds_count", generation="0")
        assert 0 < value(again, "asobiba_gc_pause_max_seconds") < 5
        # The loop-lag probe ticks (every 25 ms by default) from the start.
        assert value(again, "asobiba_loop_lag_seconds_count") > 0
        assert value(again, "asobiba_engines_compiled") == float(os.environ.get("ASOBIBA_EXPECT_COMPILED") == "1")
    finally:
        server.stop()
