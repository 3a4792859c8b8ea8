"""Database statements per match end: how many a finish (in the action writer's batch) and a
rematch vote execute, on SQLite or PostgreSQL. A count, not a time: it does not move with the
machine's load, so a change to the end of a match can be judged by it on a noisy machine, and
each statement is a round trip on PostgreSQL plus the driver's and SQLAlchemy's CPU per execute.

    .venv/bin/python benchmarks/statements.py [--matches 5] [--postgres URL]

Starts the server in this process on a fresh database, seats two players at a Synomilia table
(as benchmarks/load.py does), plays ``--matches`` matches to their end with random legal moves
over the live sockets, and after each both ask for a rematch. Statements are counted with
SQLAlchemy's ``before_cursor_execute`` event while ``store._finish`` or ``rematch.service.vote``
runs on the thread that executes them (wrapped here, for the count only). A connection's
pre-ping and BEGIN/COMMIT are not statements of the cursor and are not counted."""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import event  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from app import store  # noqa: E402
from app.rematch import service  # noqa: E402
from benchmarks.load import fresh_postgres  # noqa: E402
from tests.support.clients import Api, Socket  # noqa: E402
from tests.support.server import start_in_thread  # noqa: E402

_running = threading.local()  # which counted function the current thread is in
counts = {"finish": 0, "vote": 0}
calls = {"finish": 0, "vote": 0}


@event.listens_for(Engine, "before_cursor_execute")
def _count(conn, cursor, statement, parameters, context, executemany) -> None:
    kind = getattr(_running, "kind", None)
    if kind:
        counts[kind] += 1


def counted(module, name: str, kind: str) -> None:
    original = getattr(module, name)

    def wrapped(*args, **kwargs):
        _running.kind = kind
        calls[kind] += 1
        try:
            return original(*args, **kwargs)
        finally:
            _running.kind = None

    setattr(module, name, wrapped)


def play(base_url: str, matches: int, seed: int) -> None:
    ws_url = base_url.replace("http", "ws", 1)
    host, guest = Api.new_player(base_url, "Host"), Api.new_player(base_url, "Guest")
    room = host.post("/api/rooms", {"game": "synomilia", "options": {"reveal_delay": 0}}).json()
    guest.post(f"/api/rooms/{room['id']}/join").raise_for_status()
    host.post(f"/api/rooms/{room['id']}/start").raise_for_status()
    sockets = [Socket(ws_url, room["id"], host.token), Socket(ws_url, room["id"], guest.token)]
    rng = random.Random(seed)
    views = [s.latest_view() for s in sockets]
    for _ in range(matches):
        while not views[0]["outcome"]:
            version = max(v["version"] for v in views)
            views = [s.latest_view(version=version) for s in sockets]
            if views[0]["outcome"]:
                break
            mover = next((i for i, v in enumerate(views) if v["legal_actions"]), None)
            if mover is not None:  # (else the server's automatic step is next)
                sockets[mover].send({"type": "action", "version": version,
                                     "action": rng.choice(views[mover]["legal_actions"])})
            views = [s.latest_view(version=version + 1) for s in sockets]
        finished = views[0]["match_id"]
        for s in sockets:
            s.send({"type": "rematch"})
        views = [s.recv_until(lambda m: m["type"] == "view" and m["match_id"] != finished) for s in sockets]
    for s in sockets:
        s.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL (a fresh database is made on that server)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counted(store, "_finish", "finish")
    counted(service, "vote", "vote")
    with tempfile.TemporaryDirectory() as folder:
        url, drop = fresh_postgres(args.postgres) if args.postgres else (f"sqlite:///{folder}/statements.db", None)
        try:
            server = start_in_thread(url)
            try:
                play(server.base_url, args.matches, args.seed)
            finally:
                server.stop()
        finally:
            if drop is not None:
                drop()
    print(json.dumps({"database": "postgresql" if args.postgres else "sqlite", "matches": args.matches,
                      "statements_per_finish": round(counts["finish"] / calls["finish"], 2),
                      "statements_per_vote": round(counts["vote"] / calls["vote"], 2),
                      "finishes": calls["finish"], "votes": calls["vote"]}))


if __name__ == "__main__":
    main()
