"""``python -m app.client`` plays a whole match by itself over the stream API, as a separate
process that knows nothing but the invite link; the other seat is a server-side bot."""

from __future__ import annotations

import json
import subprocess
import sys

from app.settings import ROOT
from tests.live.helpers import reference_client_against_a_bot, wait_for_status


def test_reference_client_plays_to_the_outcome(server):
    host, room_id, client = reference_client_against_a_bot(server.base_url)
    try:
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        out, err = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
    assert client.returncode == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["seat"] == 1 and result["outcome"] is not None
    room = wait_for_status(host, room_id, "finished")
    assert [s["name"] for s in room["seats"]] == ["Bot 1", "Cli"]
    final = host.get(f"/api/rooms/{room_id}/view").json()
    assert final["version"] == result["version"] and final["outcome"] == result["outcome"]


def test_reference_client_refuses_a_bad_link():
    done = subprocess.run([sys.executable, "-m", "app.client", "not-a-link", "--name", "Cli"], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode != 0 and "invite link" in done.stderr
