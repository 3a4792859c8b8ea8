"""The admin token (issue 30, point 2): docker-compose ships no default secret, the server refuses
to start with a short or placeholder admin or metrics token, and guesses are throttled per IP
without locking the real admin out elsewhere or for long."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import httpx
import pytest
import yaml

from app.settings import ROOT
from tests.support.clients import Api, client_from
from tests.support.driver import setup_room
from tests.support.server import ADMIN_TOKEN, ServerProcess, free_port, start_in_thread

GUESS = "change-me"


def compose_environment() -> dict[str, str]:
    """The app service's environment as ``docker compose`` fills it in with nothing exported."""
    def interpolate(text: str) -> str:
        return re.sub(r"\$\{(\w+)(?::?-([^}]*))?\}", lambda m: m.group(2) or "", text)

    service = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["app"]
    return {name: interpolate(str(value)) for name, value in service["environment"].items()}


def test_the_compose_settings_open_no_admin_api_to_a_guess(tmp_path):
    """A player of a running match tries the example admin token on a server started with the
    compose settings: the opponent's hidden hand and the seed stay hidden."""
    env = compose_environment()
    server = ServerProcess(f"sqlite:///{tmp_path / 'compose.db'}",
                           env={"ADMIN_TOKEN": env.get("ADMIN_TOKEN", ""), "METRICS_TOKEN": env.get("METRICS_TOKEN", "")})
    server.start()
    try:
        room_id, players = setup_room(server.base_url, "synomilia", ["Aki", "Ben"])
        players[0].post(f"/api/rooms/{room_id}/start")
        attacker = Api(server.base_url, GUESS)
        listing = attacker.get("/api/admin/matches", params={"status": "running"})
        assert listing.status_code == 403, listing.text
        match_id = players[1].get(f"/api/rooms/{room_id}").json()["match_id"]
        assert match_id
        for path in (f"/api/admin/matches/{match_id}/replay?seat=all", f"/api/admin/matches/{match_id}",
                     f"/api/matches/{match_id}/export"):
            response = attacker.get(path)
            assert response.status_code in (401, 403), (path, response.text)
            assert "seed" not in response.text
        assert attacker.get("/metrics").status_code == 403
    finally:
        server.stop()


@pytest.mark.parametrize("variable, value", [
    ("ADMIN_TOKEN", "change-me"), ("ADMIN_TOKEN", "short-but-random-8fK2q"),
    ("ADMIN_TOKEN", "change-me-change-me-change-me-change-me"), ("METRICS_TOKEN", "scrape-me"),
    ("METRICS_TOKEN", "0" * 40)])
def test_the_server_refuses_to_start_with_a_weak_token(tmp_path, variable, value):
    port = free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'weak.db'}", PORT=str(port), HOST="127.0.0.1",
               ADMIN_TOKEN=ADMIN_TOKEN, METRICS_TOKEN="")
    env[variable] = value
    done = subprocess.run([sys.executable, "-m", "app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert f"Asobiba cannot start: {variable}" in done.stderr, done.stderr
    assert value not in done.stderr + done.stdout  # the rejected secret is not echoed
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)



def test_admin_token_guesses_are_throttled_per_ip(database_url):
    server = start_in_thread(database_url, rate_admin_per_ip="10/30")
    try:
        attacker, elsewhere = client_from("127.0.0.1", server.base_url), client_from("127.0.0.2", server.base_url)
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        answers, started = [], time.monotonic()
        for index in range(60):
            path = ("/api/admin/matches", "/metrics", "/api/matches/0123456789abcdef/export")[index % 3]
            answers.append(attacker.get(path, headers={"Authorization": f"Bearer guess-{index:04d}-{'x' * 30}"}))
        # 10 guesses, and one more per 3 s the flood took (a loaded machine answers slowly).
        answered = [r for r in answers if r.status_code != 429]
        assert len(answered) <= 10 + (time.monotonic() - started) / 3, [r.status_code for r in answers]
        refused = [r for r in answers if r.status_code == 429]
        assert refused and all(r.json()["error"]["code"] == "rate_limited" and r.headers["retry-after"] for r in refused)
        # While that IP is over its guesses, even the right token is refused there (a refusal
        # tells nothing about a guess), but the admin elsewhere is not locked out.
        assert attacker.get("/api/admin/matches", headers=admin).status_code == 429
        for _ in range(30):  # right tokens cost nothing
            assert elsewhere.get("/api/admin/matches", headers=admin).status_code == 200
        # Nor for long: a credit returns within 3 s here (6 s with the default 10/60).
        time.sleep(3.2)
        assert attacker.get("/api/admin/matches", headers=admin).status_code == 200
    finally:
        server.stop()
