"""Load benchmark of the live path: N rooms of real Synomilia matches over the public protocol.

    python benchmarks/load.py --rooms 100 [--duration 20] [--postgres URL] [--spectators 1000]

Starts the server with the README's start command (``python -m app``) on a fresh database
(SQLite by default; ``--postgres`` makes a fresh PostgreSQL database on that server), pinned to
core 0 (``taskset``), and runs this load client pinned to core 1. Setup goes through REST like a
user: two guest players per room, the host creates the room, the guest joins, the host starts.
Each player opens the live WebSocket. Then, for ``--duration`` seconds, a seat that a pushed view
says is awaited sends a random one of its pushed ``legal_actions`` at once; when a match ends both
players ask for a rematch over their sockets (``{"type": "rematch"}``) and play the new match on them.

Method (the boardgame.io peer's): a move counts when EVERY seat of its room holds a newer version
than the one it was sent from; its latency is from the send to that moment; one move is in
flight per room (closed loop). Printed as one JSON line: moves/s, latency p50/p95/p99/max (ms),
server and load CPU (% of one core, from /proc; load near 100 % would mean the client is the
limit), bytes per view frame, errors by code, close codes, REST 5xx, rooms that came live and
rooms that played, server RSS per idle room and per idle socket. ``--spectators N`` adds one
more room watched by N anonymous spectator sockets (they count frames; the room plays too).
Only ever talks to 127.0.0.1."""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.observability.gc_tuning import NEVER  # noqa: E402
from app.observability.loop_lag import LoopLagProbe  # noqa: E402
from app.settings import Settings  # noqa: E402
from engines.compiled import built_files  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
METRICS_TOKEN = "load-benchmark-metrics-Jq7Wn2Rv8Kx4Lz6Tb9Pc"
# Which build of the game rules the server runs: scripts/compile_engines.py makes the compiled one.
RULES = "compiled" if built_files() else "python"


def proc_ticks(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        fields = text[text.rindex(")") + 2:].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, ValueError):
        return None


def proc_waited(pid: int) -> float:
    """Seconds the process's threads waited for a CPU while runnable (the scheduler's run delay):
    on a shared machine, time the server lost to other processes (it shows as latency and lag)."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[1])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


def proc_rss(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return round(values[min(len(values) - 1, max(0, -(-q * len(values) // 100) - 1))], 2)


def raise_open_file_limit() -> None:
    """Thousands of sockets: this process's soft limit up to its hard limit."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stats:
    def __init__(self, pace: tuple[float, float] | None = None):
        self.pace = pace  # (low, high) seconds a seat thinks before it moves; None: at once
        self.running = False  # seats play
        self.t_start = 0.0  # moves are counted between t_start and t_end
        self.t_end = float("inf")
        self.moves = 0
        self.latencies: list[float] = []
        self.view_frames = 0
        self.view_bytes = 0
        self.errors: collections.Counter = collections.Counter()
        self.closes: collections.Counter = collections.Counter()
        self.http_5xx = 0
        self.spectator_frames = 0

    def live(self, now: float) -> bool:
        return self.running and self.t_start <= now <= self.t_end

    def new_window(self, duration: float) -> None:
        self.moves, self.latencies, self.view_frames, self.view_bytes = 0, [], 0, 0
        self.errors, self.spectator_frames = collections.Counter(), 0
        self.t_start = time.perf_counter()
        self.t_end = self.t_start + duration


class ClientPauses:
    """The load client's own stalls in a window: every latency is timed by this process, so a
    client that stops (its garbage collector walking the objects of thousands of sockets, a long
    loop turn) adds its stall to the server's figures. Measured with the server's own probes'
    method: its loop-lag probe every 10 ms and ``gc.callbacks``. ``freeze`` (after a set-up, seconds before
    a window: the collection itself stops the client for up to a second at thousands of tables)
    moves what the set-up built out of the collector's reach. During a window the client's collector
    is off (``start``/``stop``): with it on, the client's own middle collections over thousands of
    sockets stopped it for 60-140 ms at 2,000-4,000 tables at a person's pace, each stop the largest
    "latency" of its window though the server had answered. What a window leaves for the collector
    (a few seconds' cycles) is collected after it; the report still gives the client's loop lag."""

    def __init__(self):
        self.lag_max = 0.0
        self.gc_max = 0.0
        self._gc_start = 0.0
        self._probe = LoopLagProbe(0.01, report=self._on_lag)
        gc.callbacks.append(self._on_gc)

    def _on_lag(self, lag: float) -> None:
        self.lag_max = max(self.lag_max, lag)

    def _on_gc(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gc_max = max(self.gc_max, time.perf_counter() - self._gc_start)

    @staticmethod
    def freeze() -> None:
        """Also gives the client the server's collector settings (app/observability/gc_tuning.py):
        with Python's own, its middle and full collections over thousands of sockets stopped it
        for 300 ms and more at 4,000 tables."""
        gc.collect()
        gc.freeze()
        defaults = Settings.model_fields
        gc.set_threshold(defaults["gc_young_threshold"].default, defaults["gc_middle_threshold"].default, NEVER)

    def start(self) -> None:
        self.lag_max = self.gc_max = 0.0
        gc.disable()
        self._probe.start()

    def stop(self) -> dict:
        self._probe.stop()
        gc.callbacks.remove(self._on_gc)  # (first: what the window left is collected after it)
        gc.enable()
        return {"client_loop_lag_max_ms": round(1000 * self.lag_max, 1),
                "client_gc_max_ms": round(1000 * self.gc_max, 1)}


class Room:
    def __init__(self, room_id: str, tokens: list[str]):
        self.id = room_id
        self.tokens = tokens
        self.match_id: str | None = None
        self.versions = [-1, -1]  # what each seat holds (of the current match)
        self.pending: dict[int, float] = {}  # version an action was sent from -> send time
        self.sent_at = [-1, -1]  # the version each seat last acted on
        self.rematch_asked: list[str | None] = [None, None]  # the finished match each seat said yes to
        self.sockets: list = [None, None]
        self.got_view = False
        self.moves = 0


# Handshakes this client runs at once. Thousands opened in a second overflowed the server's accept
# queue (the kernel's listen backlog: `nstat` counted TcpExtListenOverflows) and ~30 % of a
# 3,000-table step failed (`InvalidMessage`): the benchmark measured the kernel's queue, not tables.
HANDSHAKES_AT_ONCE = 100
_handshakes: asyncio.Semaphore | None = None


async def open_socket(url: str):
    """A WebSocket to ``url``, its handshake run while fewer than ``HANDSHAKES_AT_ONCE`` others are."""
    global _handshakes
    if _handshakes is None:
        _handshakes = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    async with _handshakes:
        return await connect(url, max_size=2**22, compression=None, open_timeout=120, ping_interval=None)


async def player_socket(room: Room, seat: int, url: str, stats: Stats, rng: random.Random,
                        ready: asyncio.Event, counter: list[int], total: int) -> None:
    try:
        async with await open_socket(f"{url}/ws/rooms/{room.id}") as ws:
            await ws.send(orjson.dumps({"type": "hello", "token": room.tokens[seat]}).decode())
            room.sockets[seat] = ws
            async for frame in ws:
                message = orjson.loads(frame)
                kind = message.get("type")
                if kind == "view":
                    await on_view(room, seat, message, len(frame), stats, rng, ws)
                    if not room.got_view and all(v >= 0 for v in room.versions):
                        room.got_view = True
                        counter[0] += 1
                        if counter[0] == total:
                            ready.set()
                elif kind == "error":
                    stats.errors[message.get("code")] += 1
    except Exception as exc:  # a closed socket: record how
        code = getattr(getattr(exc, "rcvd", None), "code", None)
        stats.closes[str(code or type(exc).__name__)] += 1
        return
    stats.closes[str(ws.close_code)] += 1


async def on_view(room: Room, seat: int, message: dict, size: int, stats: Stats, rng, ws) -> None:
    now = time.perf_counter()
    live = stats.live(now)
    if live:
        stats.view_frames += 1
        stats.view_bytes += size
    if message["match_id"] != room.match_id:
        room.match_id = message["match_id"]
        room.versions = [-1, -1]
        room.pending = {}
        room.sent_at = [-1, -1]
    version = message["version"]
    room.versions[seat] = max(room.versions[seat], version)
    low = min(room.versions)
    for sent_from in [v for v in room.pending if v < low]:
        t0 = room.pending.pop(sent_from)
        if live:
            stats.moves += 1
            room.moves += 1
            stats.latencies.append((now - t0) * 1000)
    if message["outcome"] is not None:
        if room.rematch_asked[seat] != room.match_id and stats.running:
            room.rematch_asked[seat] = room.match_id  # each seat's yes over its own socket
            await ws.send('{"type":"rematch"}')
        return
    if not stats.running or not message["legal_actions"] or room.sent_at[seat] >= version:
        return
    room.sent_at[seat] = version
    action = rng.choice(message["legal_actions"])
    if stats.pace is None:
        await act(room, seat, version, action, ws)
    else:  # a person's pace: think, then move if the table is still where it was
        match_id = room.match_id
        asyncio.get_running_loop().call_later(rng.uniform(*stats.pace), lambda: asyncio.ensure_future(
            act(room, seat, version, action, ws, stats, match_id)))


async def act(room: Room, seat: int, version: int, action, ws, stats: Stats | None = None,
              match_id: str | None = None) -> None:
    if stats is not None and (not stats.running or room.match_id != match_id or room.versions[seat] != version):
        return  # the match moved on while the seat thought (or the run is over)
    room.pending.setdefault(version, time.perf_counter())
    try:
        await ws.send(orjson.dumps({"type": "action", "action": action, "version": version}).decode())
    except Exception:
        pass  # a closed socket: its reader records how


async def spectator_socket(room_id: str, url: str, stats: Stats, joined: list[int]) -> None:
    try:
        async with await open_socket(f"{url}/ws/rooms/{room_id}") as ws:
            await ws.send('{"type":"hello"}')
            joined[0] += 1
            async for _frame in ws:
                if stats.running:
                    stats.spectator_frames += 1
    except Exception as exc:
        code = getattr(getattr(exc, "rcvd", None), "code", None)
        stats.closes[f"spectator:{code or type(exc).__name__}"] += 1


async def make_room(http: httpx.AsyncClient, stats: Stats, index: int) -> Room:
    async def call(method, path, token=None, body=None):
        for _ in range(5):
            try:
                response = await http.request(method, path, json=body,
                                              headers={"Authorization": f"Bearer {token}"} if token else {})
            except (httpx.ReadError, httpx.RemoteProtocolError):
                # a pooled keep-alive connection the server closed as idle just as it was reused
                # (the request never reached the application): send it again on a fresh one
                continue
            if response.status_code >= 500:
                stats.http_5xx += 1
                continue
            response.raise_for_status()
            return response.json()
        raise RuntimeError(f"{path} kept failing")

    host = await call("POST", "/api/players", body={"name": f"h{index}"})
    guest = await call("POST", "/api/players", body={"name": f"g{index}"})
    room = await call("POST", "/api/rooms", host["token"], {"game": "synomilia", "options": {"reveal_delay": 0}})
    await call("POST", f"/api/rooms/{room['id']}/join", guest["token"])
    await call("POST", f"/api/rooms/{room['id']}/start", host["token"])
    return Room(room["id"], [host["token"], guest["token"]])


async def commit_figures(http: httpx.AsyncClient) -> dict[str, float]:
    """Sums and counts of the server's commit, pause and loop-lag metrics (its /metrics). Reading
    them also restarts the server's "largest since the previous scrape" gauges."""
    for attempt in range(3):
        try:
            text = (await http.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})).text
            break
        except (httpx.ReadError, httpx.RemoteProtocolError):  # a keep-alive connection closed as idle
            if attempt == 2:
                raise
    wanted = ("asobiba_commit_latency_seconds_sum", "asobiba_commit_latency_seconds_count",
              "asobiba_commit_batch_actions_sum", "asobiba_gc_pause_seconds_sum", "asobiba_gc_pause_seconds_count",
              "asobiba_gc_pause_seconds_bucket", "asobiba_gc_collected_objects_total", "asobiba_loop_lag",
              "asobiba_gc_pause_max_seconds", "asobiba_http_connections_cut_total")
    return {line.split()[0]: float(line.split()[1]) for line in text.splitlines() if line.startswith(wanted)}


def commit_summary(before: dict, after: dict, wall: float, moves: int) -> dict:
    """Commits, garbage collections and loop stops in the window: actions per commit, mean commit
    time, the share of the window spent in collections, their count and mean pause per generation,
    objects they found in reference cycles per move, the longest collection and loop lag, and how
    many lag probes found the loop held for more than 20 ms."""
    def delta(name):
        return after.get(name, 0.0) - before.get(name, 0.0)

    commits = delta("asobiba_commit_latency_seconds_count")
    gc_total = sum(delta(f'asobiba_gc_pause_seconds_sum{{generation="{g}"}}') for g in "012")
    gc = {}
    for generation in "012":
        count = delta(f'asobiba_gc_pause_seconds_count{{generation="{generation}"}}')
        seconds = delta(f'asobiba_gc_pause_seconds_sum{{generation="{generation}"}}')
        gc[generation] = [int(count), round(1000 * seconds / count, 1) if count else None]
    gc_over_20 = sum(delta(f'asobiba_gc_pause_seconds_count{{generation="{g}"}}')
                     - delta(f'asobiba_gc_pause_seconds_bucket{{generation="{g}",le="0.02"}}') for g in "012")
    cycles = sum(delta(f'asobiba_gc_collected_objects_total{{generation="{g}"}}') for g in "012")
    return {"commits": int(commits),
            "actions_per_commit": round(delta("asobiba_commit_batch_actions_sum") / commits, 1) if commits else None,
            "commit_ms_mean": round(1000 * delta("asobiba_commit_latency_seconds_sum") / commits, 2) if commits else None,
            "gc_pct": round(100 * gc_total / wall, 1), "gc_count_ms_by_generation": gc,
            "gc_pause_max_ms": round(1000 * after.get("asobiba_gc_pause_max_seconds", 0.0), 1),
            "gc_pauses_over_20ms": int(gc_over_20),
            "gc_cycle_objects_per_move": round(cycles / moves, 2) if moves else None,
            "loop_lag_max_ms": round(1000 * after.get("asobiba_loop_lag_max_seconds", 0.0), 1),
            "loop_lag_p99_bucket_ms": lag_quantile(before, after, 0.99),
            "loop_lags_over_20ms": int(delta("asobiba_loop_lag_seconds_count")
                                       - delta('asobiba_loop_lag_seconds_bucket{le="0.02"}')),
            # since the server started: connections it closed before a request (app/serving.py)
            "connections_cut": {name.split('"')[1]: int(value) for name, value in after.items()
                                if name.startswith("asobiba_http_connections_cut_total")}}


def lag_quantile(before: dict, after: dict, q: float) -> float | None:
    """The upper bound (ms) of the loop-lag histogram's bucket that holds quantile ``q``."""
    total = after.get("asobiba_loop_lag_seconds_count", 0.0) - before.get("asobiba_loop_lag_seconds_count", 0.0)
    if total <= 0:
        return None
    bounds = sorted((float(name.split('le="')[1].rstrip('"}')), name) for name in after
                    if name.startswith("asobiba_loop_lag_seconds_bucket") and "+Inf" not in name)
    for bound, name in bounds:
        if after[name] - before.get(name, 0.0) >= q * total:
            return round(1000 * bound, 1)
    return None


async def in_batches(n: int, size: int, make, first: int = 0):
    out = []
    for start in range(first, first + n, size):
        out.extend(await asyncio.gather(*(make(i) for i in range(start, min(first + n, start + size)))))
    return out


class Tables:
    """The rooms of a run with their sockets: players' (and spectators') reader tasks."""

    def __init__(self, http: httpx.AsyncClient, url: str, stats: Stats, rng: random.Random):
        self.http, self.url, self.stats, self.rng = http, url, stats, rng
        self.rooms: list[Room] = []
        self.tasks: list[asyncio.Future] = []
        self.joined = [0]

    async def make(self, n: int) -> list[Room]:
        """``n`` more rooms over REST, started, nobody connected yet."""
        rooms = await in_batches(n, 50, lambda i: make_room(self.http, self.stats, i), len(self.rooms))
        self.rooms.extend(rooms)
        return rooms

    async def connect(self, rooms: list[Room], spectators_each: int = 0, timeout: float = 180.0) -> int:
        """Open both seats' sockets of ``rooms`` (and ``spectators_each`` spectators per room) and
        wait until every one holds its first view; returns how many did."""
        ready, counter = asyncio.Event(), [0]
        for index, room in enumerate(rooms):
            for seat in (0, 1):
                self.tasks.append(asyncio.ensure_future(player_socket(room, seat, self.url, self.stats, self.rng,
                                                                      ready, counter, len(rooms))))
            for _ in range(spectators_each):
                self.tasks.append(asyncio.ensure_future(spectator_socket(room.id, self.url, self.stats, self.joined)))
        try:
            await asyncio.wait_for(ready.wait(), timeout=timeout)
        except asyncio.TimeoutError:
            pass
        return counter[0]

    async def play(self, rooms: list[Room]) -> None:
        """First moves: ask for the views already pushed again (they came before the run began)."""
        for room in rooms:
            for seat, ws in enumerate(room.sockets):
                if ws is not None:
                    try:
                        await ws.send(orjson.dumps({"type": "sync", "version": room.versions[seat]}).decode())
                    except Exception:
                        pass

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def latency_figures(stats: Stats, wall: float) -> dict:
    lat = sorted(stats.latencies)
    return {"moves": stats.moves, "moves_per_s": round(stats.moves / wall, 1),
            "lat_ms_p50": pct(lat, 50), "lat_ms_p95": pct(lat, 95), "lat_ms_p99": pct(lat, 99),
            "lat_ms_max": round(lat[-1], 2) if lat else None}


PROFILE_DIR: Path | None = None  # --profile: py-spy records the server in every window


async def start_profile(server_pid: int, duration: float):
    """py-spy (``--gil``: only samples that held the GIL, i.e. the server's CPU in Python, native
    frames too) over one window, written as collapsed stacks; it runs beside the load client."""
    if PROFILE_DIR is None:
        return None
    PROFILE_DIR.mkdir(parents=True, exist_ok=True)
    out = PROFILE_DIR / f"window-{len(list(PROFILE_DIR.glob('window-*.raw'))) + 1}.raw"
    return await asyncio.create_subprocess_exec(
        shutil.which("py-spy") or "py-spy", *(["record", "--gil"] if os.environ.get("PROFILE_GIL", "1") == "1" else ["record"]), "--nonblocking", "-p", str(server_pid),
        "-d", str(max(1, int(duration))), "-r", "200", "-f", "raw", "-o", str(out),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)


async def measure(http, stats: Stats, server_pid: int, duration: float, start=None) -> dict:
    """One window of ``duration`` seconds: moves, latency, CPU of both sides, the server's commits,
    pauses and loop lag. ``start()``, if given, is awaited once the window has begun (the first moves)."""
    commits0 = await commit_figures(http)  # before the window: it waits behind every socket
    pauses = ClientPauses()
    pauses.start()
    srv0, cpu0, waited0 = proc_ticks(server_pid), os.times(), proc_waited(server_pid)
    profiler = await start_profile(server_pid, duration)
    stats.new_window(duration)
    if start is not None:
        await start()
    await asyncio.sleep(max(0.0, stats.t_end - time.perf_counter()))
    wall = time.perf_counter() - stats.t_start
    srv1, cpu1, waited1 = proc_ticks(server_pid), os.times(), proc_waited(server_pid)
    client = pauses.stop()
    if profiler is not None:
        await profiler.wait()
    counted = {**latency_figures(stats, wall), "view_frames": stats.view_frames, "view_bytes": stats.view_bytes,
               "errors": dict(stats.errors), "spectator_frames": stats.spectator_frames}
    commits1 = await commit_figures(http)
    server_s = (srv1 - srv0) / CLK_TCK if srv0 is not None and srv1 is not None else None
    return {**counted,
            "server_cpu_pct": round(100 * server_s / wall, 1) if server_s is not None else None,
            "server_cpu_us_per_move": round(1e6 * server_s / stats.moves, 1) if server_s and stats.moves else None,
            "load_cpu_pct": round(100 * ((cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)) / wall, 1),
            "server_waited_for_cpu_pct": round(100 * (waited1 - waited0) / wall, 1), **client,
            **commit_summary(commits0, commits1, wall, stats.moves)}


async def run_load(args, base: str, server_pid: int) -> dict:
    stats = Stats()
    rng = random.Random(args.seed)
    url = base.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        tables = Tables(http, url, stats, rng)
        t0 = time.perf_counter()
        rss_empty = proc_rss(server_pid)
        await tables.make(args.rooms)
        watched = await make_room(http, stats, args.rooms) if args.spectators else None
        all_rooms = tables.rooms + ([watched] if watched else [])
        await asyncio.sleep(1.0)
        rss_rooms = proc_rss(server_pid)
        live_rooms = await tables.connect(list(tables.rooms), timeout=args.setup_timeout)
        if watched:
            tables.rooms.append(watched)
            counter = [0]
            for seat in (0, 1):
                tables.tasks.append(asyncio.ensure_future(player_socket(watched, seat, url, stats, rng,
                                                                        asyncio.Event(), counter, 1)))
            for i in range(args.spectators):
                tables.tasks.append(asyncio.ensure_future(spectator_socket(watched.id, url, stats, tables.joined)))
                if i % 100 == 99:
                    await asyncio.sleep(0.05)
            deadline = time.perf_counter() + args.setup_timeout
            while (counter[0] < 1 or tables.joined[0] < args.spectators) and time.perf_counter() < deadline:
                await asyncio.sleep(0.1)
            live_rooms += counter[0]
        setup_s = time.perf_counter() - t0
        ClientPauses.freeze()
        await asyncio.sleep(1.0)
        rss_sockets = proc_rss(server_pid)
        stats.running = True
        if args.warmup > 0:  # every room plays for a while before the window (the heap at its steady size)
            await tables.play(all_rooms)
            await asyncio.sleep(args.warmup)
            window = await measure(http, stats, server_pid, args.duration)
        else:
            window = await measure(http, stats, server_pid, args.duration, lambda: tables.play(all_rooms))
        stats.running = False
        await tables.close()

    sockets = 2 * len(all_rooms) + args.spectators
    view_frames, view_bytes = window.pop("view_frames"), window.pop("view_bytes")
    return {
        "impl": "asobiba", "rules": RULES, "rooms": args.rooms, "spectators": args.spectators,
        "duration_s": args.duration,
        "database": "postgresql" if args.postgres else "sqlite", **window,
        "bytes_per_view": round(view_bytes / view_frames) if view_frames else None,
        "closes": dict(stats.closes), "http_5xx": stats.http_5xx,
        "rooms_live": live_rooms, "rooms_played": sum(1 for r in all_rooms if r.moves > 0), "rooms_total": len(all_rooms),
        "spectators_joined": tables.joined[0], "setup_s": round(setup_s, 1),
        "rss_mb": round(rss_sockets / 2**20, 1),
        "rss_kb_per_idle_room": round((rss_rooms - rss_empty) / 1024 / max(1, len(all_rooms)), 1),
        "rss_kb_per_idle_socket": round((rss_sockets - rss_rooms) / 1024 / max(1, sockets), 1),
    }


async def run_pace(args, base: str, server_pid: int) -> dict:
    """Human pace: every table's awaited seat thinks ``--pace`` seconds before it moves, one
    spectator per table. Tables are added step by step (``--tables``) to the same server, the
    earlier ones playing on; each step is measured for ``--duration`` seconds. It stops after the
    first step whose p99 passes ``--p99-limit`` ms; the capacity is the last step under it."""
    stats = Stats(pace=args.pace)
    rng = random.Random(args.seed)
    url = base.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    steps = []
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        tables = Tables(http, url, stats, rng)
        rss_empty = proc_rss(server_pid)
        stats.running = True
        live_total = 0  # tables whose sockets all came up (at the open-file limit some set-ups fail)
        for target in args.tables:
            t0 = time.perf_counter()
            first = len(tables.rooms)
            live = await tables.connect(await tables.make(target - first), spectators_each=1,
                                        timeout=args.setup_timeout)
            ClientPauses.freeze()
            await tables.play(tables.rooms[first:])
            setup_s = time.perf_counter() - t0
            await asyncio.sleep(max(args.pace) + args.warmup)  # every new table in play (and --warmup more)
            window = await measure(http, stats, server_pid, args.duration)
            window.pop("view_bytes")
            rss = proc_rss(server_pid)
            live_total += live
            step = {"tables": len(tables.rooms), "tables_live": live_total, "new_tables_live": live, "setup_s": round(setup_s, 1),
                    **window, "rss_mb": round(rss / 2**20, 1),
                    "rss_kb_per_table": round((rss - rss_empty) / 1024 / len(tables.rooms), 1),
                    "spectators_joined": tables.joined[0], "closes": dict(stats.closes), "http_5xx": stats.http_5xx}
            steps.append(step)
            print(json.dumps({"step": step}), file=sys.stderr, flush=True)
            if step["lat_ms_p99"] is None or step["lat_ms_p99"] > args.p99_limit:
                break
        stats.running = False
        await tables.close()
    passed = [s for s in steps if s["lat_ms_p99"] is not None and s["lat_ms_p99"] <= args.p99_limit]
    best = passed[-1] if passed else None
    return {"impl": "asobiba", "rules": RULES, "mode": "pace", "pace_s": list(args.pace), "p99_limit_ms": args.p99_limit,
            "database": "postgresql" if args.postgres else "sqlite", "duration_s": args.duration,
            "capacity_tables": best["tables"] if best else 0,
            "capacity_reached": len(passed) < len(steps),
            "rss_kb_per_table": best["rss_kb_per_table"] if best else None, "steps": steps}


def fresh_postgres(url: str) -> tuple[str, callable]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"asobiba_load_{os.getpid()}_{int(time.time())}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))

    def drop():
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return make_url(url).set(database=name).render_as_string(hide_password=False), drop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds every room plays before the window (full speed: 0 starts the window with play; "
                             "human pace: after the slowest seat's first move)")
    parser.add_argument("--spectators", type=int, default=0, help="one extra room watched by this many sockets")
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL (a fresh database is made on that server)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin server and load to cores 0 and 1")
    parser.add_argument("--setup-timeout", type=float, default=180.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--env", action="append", default=[], help="extra server setting NAME=VALUE")
    parser.add_argument("--pace", type=float, nargs=2, metavar=("LOW", "HIGH"), default=None,
                        help="human pace: a seat thinks LOW..HIGH seconds before moving, one spectator per "
                             "table, tables added step by step (--tables)")
    parser.add_argument("--tables", type=int, nargs="+", default=[500, 1000, 2000, 4000],
                        help="with --pace: the table counts to step through")
    parser.add_argument("--profile", type=Path, default=None,
                        help="a folder: py-spy (on PATH) records the server's CPU in each window there")
    parser.add_argument("--server-log", default=None, help="keep the server's output in this file")
    parser.add_argument("--p99-limit", type=float, default=100.0, help="with --pace: stop after a step over this")
    args = parser.parse_args()
    global PROFILE_DIR
    PROFILE_DIR = args.profile
    spectators = args.spectators if args.pace is None else max(args.tables)

    pin = not args.no_pin and shutil.which("taskset") and (os.cpu_count() or 1) >= 2
    tmp = tempfile.mkdtemp(prefix="asobiba-load-")
    drop = None
    if args.postgres:
        database_url, drop = fresh_postgres(args.postgres)
    else:
        database_url = f"sqlite:///{tmp}/load.db"
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database_url, HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="WARNING",
               BOT_THINK_SECONDS="0", MAX_SPECTATORS_PER_ROOM=str(max(200, spectators + 10)),
               MAX_SPECTATORS_PER_IP=str(max(32, spectators + 10)),
               MAX_OPEN_ROOMS_PER_PLAYER="1000000", MAX_CONNECTIONS="1000000", WS_HELLO_SECONDS="60",
               # a load test is not one host's abuse: no caps on running tables and bots, per player or address
               MAX_RUNNING_TABLES_PER_PLAYER="1000000", MAX_RUNNING_TABLES_PER_ADDRESS="1000000",
               MAX_BOT_SEATS_PER_PLAYER="1000000", MAX_BOT_SEATS_PER_ADDRESS="1000000", MAX_CONNECTIONS_PER_ADDRESS="0",
               METRICS_TOKEN=METRICS_TOKEN)
    for name in ("players", "rooms", "actions", "frames", "chat", "sockets"):  # a load test is not abuse
        for per in ("token", "ip"):
            if f"rate_{name}_per_{per}" in Settings.model_fields:  # (an unknown RATE_* stops the start)
                env.setdefault(f"RATE_{name.upper()}_PER_{per.upper()}", "off")
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    command = ([*(["taskset", "-c", "0"] if pin else []), sys.executable, "-m", "app"])
    # The server's output goes to a file, read at the end: a pipe nobody reads during the run fills
    # (64 KB) and then stops the server at its next log line (a run at 4,000 tables hung so).
    server_log = Path(tmp) / "server.log"
    with server_log.open("w") as sink:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT, text=True)
    log_lines: list[str] = []
    try:
        first = ""
        for _ in range(600):  # (migrations first: up to a minute)
            first = server_log.read_text().partition("\n")[0] if server_log.stat().st_size else ""
            if "running at" in first or server.poll() is not None:
                break
            time.sleep(0.1)
        if "running at" not in first:
            raise SystemExit(f"server did not start: {server_log.read_text()}")
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        if pin:
            os.sched_setaffinity(0, {1})
        try:
            import uvloop
            uvloop.install()
        except ImportError:
            pass
        raise_open_file_limit()
        result = asyncio.run((run_pace if args.pace else run_load)(args, base, server.pid))
        result["pinned"] = "server:core0 load:core1" if pin else "no"
        result["at"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        print(json.dumps(result))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log_lines = server_log.read_text(errors="replace").splitlines() if server_log.exists() else []
        if args.server_log and server_log.exists():
            shutil.copyfile(server_log, args.server_log)
        if drop:
            drop()
        shutil.rmtree(tmp, ignore_errors=True)
        problems = [i for i, line in enumerate(log_lines) if "Traceback" in line or "ERROR" in line]
        if problems:  # also when the run itself failed: the server's side of it
            print(f"server log: {len(problems)} error lines, the first with what follows it:\n"
                  + "\n".join(log_lines[problems[0]:problems[0] + 40]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
