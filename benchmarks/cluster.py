"""Cluster throughput: moves per second and the latency of a move (send -> the player's socket
gets the next version), for one process alone and for N processes behind HAProxy, on
PostgreSQL (+ Redis for the cluster). Also the Redis messages and PostgreSQL commits per move.

    python benchmarks/cluster.py [--rooms 100] [--processes 1 2 3]
        [--database postgresql+psycopg://postgres@127.0.0.1:5432/test]

A benchmark, not a test: run it by hand (loopback only) and report what it prints.

Method: a fresh PostgreSQL database per run; the servers are started with the README's command
(``python -m app``); ``--rooms`` rooms of Synomilia (2 humans, no clocks, no bots, reveals without delay), each player a
WebSocket client (round robin through HAProxy for the cluster, so a room's players are on
different processes) that answers every view where it has legal actions with a random one at
once, until every match is over. Moves per second = acknowledged moves / (last acknowledgement -
start). Every client runs in this one process (asyncio), which therefore also spends CPU on the
same cores: the figures are a floor, comparable between runs on the same machine. The cluster
uses a private redis-server on a free port, so that Redis messages (``PUBLISH`` calls,
``INFO commandstats``) count only this run's; PostgreSQL transactions are
``pg_stat_database.xact_commit`` of the run's own database (reads included: a socket's token and
room lookups are transactions too); both per acknowledged move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import httpx  # noqa: E402
import redis  # noqa: E402
import websockets  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from tests.support.cluster import HaProxy  # noqa: E402
from tests.support.redis import PrivateRedis  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402

GAME, PLAYERS, OPTIONS = "synomilia", 2, {"reveal_delay": 0}


def fresh_database(admin_url: str) -> tuple[str, str]:
    name = f"asobiba_bench_{secrets.token_hex(4)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False), name


def drop_database(admin_url: str, name: str) -> None:
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def commits(admin_url: str, name: str) -> int:
    admin = create_engine(admin_url)
    with admin.connect() as connection:
        value = connection.execute(text("SELECT xact_commit FROM pg_stat_database WHERE datname = :n"),
                                   {"n": name}).scalar()
    admin.dispose()
    return int(value or 0)


def publishes(redis_url: str) -> int:
    stats = redis.Redis.from_url(redis_url).info("commandstats")
    return int(stats.get("cmdstat_publish", {}).get("calls", 0))


def make_rooms(base_url: str, rooms: int) -> list[tuple[str, list[str]]]:
    made = []
    with httpx.Client(base_url=base_url, timeout=30) as http:
        for _ in range(rooms):
            tokens = [http.post("/api/players", json={"name": f"B{i}"}).json()["token"] for i in range(PLAYERS)]
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            room_id = http.post("/api/rooms", json={"game": GAME, "options": OPTIONS, "seats": PLAYERS},
                                headers=auth[0]).json()["id"]
            for headers in auth[1:]:
                http.post(f"/api/rooms/{room_id}/join", headers=headers).raise_for_status()
            made.append((room_id, tokens))
    return made


async def player(ws_url: str, room_id: str, token: str, started: asyncio.Event,
                 acks: list[tuple[float, float]], rng: random.Random) -> None:
    async with websockets.connect(f"{ws_url}/ws/rooms/{room_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await started.wait()
        sent_at, sent_version = None, None
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") != "view":
                continue
            if sent_at is not None and message["version"] > sent_version:
                acks.append((time.monotonic(), time.monotonic() - sent_at))
                sent_at = None
            if message["outcome"] is not None:
                return
            if message["legal_actions"] and sent_at is None:
                sent_at, sent_version = time.monotonic(), message["version"]
                await ws.send(json.dumps({"type": "action", "action": rng.choice(message["legal_actions"]),
                                          "version": message["version"]}))


async def drive(base_url: str, ws_url: str, rooms) -> tuple[list[float], float]:
    """Latencies of every acknowledged move, and the seconds from the start to the last one."""
    acks: list[tuple[float, float]] = []
    started = asyncio.Event()
    tasks = [asyncio.create_task(player(ws_url, room_id, token, started, acks, random.Random(i)))
             for i, (room_id, tokens) in enumerate(rooms) for token in tokens]
    await asyncio.sleep(2)  # every socket connected
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        begin = time.monotonic()
        for room_id, tokens in rooms:
            (await http.post(f"/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {tokens[0]}"})).raise_for_status()
    started.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
    return [latency for _, latency in acks], max(at for at, _ in acks) - begin


def run(processes: int, args, redis_url: str) -> dict:
    url, name = fresh_database(args.database)
    prefix = f"asobiba-bench-{secrets.token_hex(4)}"
    env = {"REDIS_URL": redis_url, "CLUSTER_PREFIX": prefix} if processes > 1 else {}
    servers = [ServerProcess(url, env=env) for _ in range(processes)]
    proxy = None
    try:
        for server in servers:
            server.start()
        base, ws = servers[0].base_url, servers[0].ws_url
        if processes > 1:
            proxy = HaProxy([s.port for s in servers], Path(tempfile.mkdtemp()))
            proxy.start()
            base, ws = f"http://127.0.0.1:{proxy.port}", f"ws://127.0.0.1:{proxy.port}"
        rooms = make_rooms(base, args.rooms)
        commits_before, publishes_before = commits(args.database, name), publishes(redis_url)
        latencies, seconds = asyncio.run(drive(base, ws, rooms))
        moves = len(latencies)
        return {
            "processes": processes, "rooms": args.rooms, "moves": moves, "moves_per_s": moves / seconds,
            "p50_ms": statistics.median(latencies) * 1000,
            "p99_ms": statistics.quantiles(latencies, n=100)[98] * 1000,
            "commits_per_move": (commits(args.database, name) - commits_before) / moves,
            "redis_publishes_per_move": (publishes(redis_url) - publishes_before) / moves,
        }
    finally:
        if proxy:
            proxy.stop()
        for server in servers:
            server.stop()
        drop_database(args.database, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--database", default=os.environ.get("TEST_DATABASE_URL",
                                                              "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    private_redis = PrivateRedis(Path(tempfile.mkdtemp()))
    private_redis.start()
    try:
        print(f"{'processes':>9} {'rooms':>5} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'pg xact/move':>12} {'publishes/move':>14}")
        for processes in args.processes:
            r = run(processes, args, private_redis.url)
            print(f"{r['processes']:>9} {r['rooms']:>5} {r['moves']:>6} {r['moves_per_s']:>8.0f} {r['p50_ms']:>7.1f} "
                  f"{r['p99_ms']:>7.1f} {r['commits_per_move']:>12.2f} {r['redis_publishes_per_move']:>14.2f}",
                  flush=True)
    finally:
        private_redis.stop()


if __name__ == "__main__":
    main()
