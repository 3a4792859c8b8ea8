"""Schemathesis against the real server: its fuzzing phase (every operation, valid and invalid
data) and its stateful phase (chains that follow the OpenAPI links from a new player to rooms, bots,
a started match, actions and the match history). The bar is zero server errors. Bounded by a count
of examples with a fixed seed (``FUZZ_EXAMPLES``, ``STATEFUL_EXAMPLES``, ``FUZZ_SEED``), never by
time: a time budget did less work on a loaded machine, and once reached no room at all (the
assertion below failed CI); the same seed does the same work however fast the machine is. The
NDJSON stream is left out (it never ends by design)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, func, select

from app.models import Match, Room
from tests.support.clients import Api
from tests.support.server import ADMIN_TOKEN, start_in_thread

# Examples per phase (fuzzing: per operation; stateful: scenarios), per database kind.
PHASE_EXAMPLES = {"fuzzing": int(os.environ.get("FUZZ_EXAMPLES", "5")),
                  "stateful": int(os.environ.get("STATEFUL_EXAMPLES", "80"))}
SEED = os.environ.get("FUZZ_SEED", "7")
NO_LIMITS = {f"rate_{name}_per_{per}": "off" for name in ("players", "rooms", "actions", "frames", "chat")
             for per in ("token", "ip")}


def test_no_input_makes_a_server_error(database_url, tmp_path):
    server = start_in_thread(database_url, max_open_rooms_per_player=1_000_000, **NO_LIMITS)
    try:
        fuzzer = Api.new_player(server.base_url, "Fuzz")
        # Account operations (log-out revokes the calling token) get a player of their own.
        account_holder = Api.new_player(server.base_url, "Fuzz account")
        config = tmp_path / "schemathesis.toml"
        config.write_text(f'headers = {{ Authorization = "Bearer {fuzzer.token}" }}\n\n'
                          f'[[operations]]\ninclude-path-regex = "^/api/admin/"\n'
                          f'headers = {{ Authorization = "Bearer {ADMIN_TOKEN}" }}\n\n'
                          f'[[operations]]\ninclude-path-regex = "^/api/accounts"\n'
                          f'headers = {{ Authorization = "Bearer {account_holder.token}" }}\n')
        for phase, examples in PHASE_EXAMPLES.items():
            run = subprocess.run(
                [str(Path(sys.executable).with_name("schemathesis")), "--config-file", str(config), "run",
                 f"{server.base_url}/openapi.json", "--phases", phase, "--max-examples", str(examples), "--seed", SEED,
                 "--checks", "not_a_server_error", "--exclude-path-regex", "/stream$", "--request-timeout", "10",
                 "--workers", "1"],
                capture_output=True, text=True, timeout=600, cwd=tmp_path)  # its cache stays there
            assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
            assert "Seed:" in run.stdout and (phase != "stateful" or "API Links" in run.stdout), run.stdout[-3000:]
        db = create_engine(database_url)
        with db.connect() as connection:  # the stateful phase reached rooms through the links
            rooms = connection.scalar(select(func.count()).select_from(Room).where(Room.host_id == fuzzer.player_id))
            matches = connection.scalar(select(func.count()).select_from(Match))
        db.dispose()
        assert rooms > 0
        print(f"schemathesis: {rooms} rooms, {matches} matches started")
    finally:
        server.stop()
