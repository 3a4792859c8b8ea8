"""``python -m app.client`` through a server restart: its stream ends when the server drains, it
reconnects by itself (while the server is down, then when it is back), resumes from the full view
and plays to the outcome; every answer it gave is in the log once."""

from __future__ import annotations

import json

import engines
from tests.live.helpers import reference_client_against_a_bot
from tests.support.driver import states_by_version, stored_match
from tests.support.server import ServerProcess
from tests.support.waiting import wait_for


def test_reference_client_resumes_after_a_restart(database_url):
    server = ServerProcess(database_url)
    server.start()
    client = None
    try:
        host, room_id, client = reference_client_against_a_bot(server.base_url, bot_think_seconds=0.3, seed=3)
        assert host.post(f"/api/rooms/{room_id}/start").status_code == 200
        wait_for(lambda: host.get(f"/api/rooms/{room_id}/view").json()["version"] >= 3, what="a few moves")

        server.process.terminate()
        assert server.process.wait(timeout=15) == 0
        assert client.poll() is None  # still trying, not failed
        server.start()
        out, err = client.communicate(timeout=120)
        assert client.returncode == 0, err
        assert "reconnecting" in err
        result = json.loads(out.strip().splitlines()[-1])
        assert result["outcome"] is not None
        match_id = host.get(f"/api/rooms/{room_id}").json()["match_id"]
    finally:
        if client and client.poll() is None:
            client.kill()
        server.stop()
    match, log = stored_match(server.database_url, match_id)
    assert match.status == "finished" and match.version == len(log) == result["version"]
    engine = engines.get(match.game)
    assert engine.state_to_json(states_by_version(match, log)[-1]) == match.state  # replays exactly
