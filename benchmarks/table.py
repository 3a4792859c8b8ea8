"""The whole table of issue 34's "Done means" from one command, on one machine, in one run.

    .venv/bin/python benchmarks/table.py                 # the full run (~15-20 minutes)
    .venv/bin/python benchmarks/table.py --quick         # a smoke run of the same table (~6 minutes)
    .venv/bin/python benchmarks/table.py --no-postgres   # SQLite only

For each size (10, 100, 500 rooms) it runs, one right after the other so they share the machine's
state: the boardgame.io peer (``/work/shared/peers/bgio``, or ``--peer``: its ``server.js`` and
``load.js`` exactly as its ``run.sh`` runs them, pinned the same way), then ours on SQLite and on
PostgreSQL (``benchmarks/load.py``). Then 1,000 rooms plus one room with 1,000 spectators (the
longest loop stall and garbage-collection pause of that run, after 30 s of play), then the human-pace capacity on
each database (``load.py --pace 2 5``: tables added until p99 passes 100 ms). Prints a Markdown
table for benchmarks/README.md and keeps every result line in ``--out`` (JSON lines).

The peer's folder may be read-only: it is copied to a temporary folder and installed there
(``npm ci``, once per run). Server CPU time per move is printed beside moves/s: on a shared machine
it is the steadier figure (it does not count the time the server waited for a CPU)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"

from engines.compiled import built_files  # noqa: E402

RULES = "compiled" if built_files() else "pure Python"


def find_peer() -> Path | None:
    for candidate in (os.environ.get("BGIO_PEER"), ROOT.parent / "shared/peers/bgio",
                      ROOT.parent.parent / "shared/peers/bgio"):
        if candidate and (Path(candidate) / "load.js").exists():
            return Path(candidate)
    return None


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def last_json(text: str) -> dict | None:
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return None


class Peer:
    """boardgame.io's server and load client, as the peer's run.sh starts them."""

    def __init__(self, source: Path):
        self.dir = Path(tempfile.mkdtemp(prefix="asobiba-bgio-"))
        for name in ("game.js", "load.js", "server.js", "package.json", "package-lock.json"):
            shutil.copy(source / name, self.dir / name)
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=self.dir, check=True,
                       stdout=subprocess.DEVNULL)
        self.pin = shutil.which("taskset") is not None and (os.cpu_count() or 1) >= 2

    def run(self, rooms: int, duration: float) -> dict | None:
        env = dict(os.environ, NODE_ENV="production")
        port = free_port()
        server = subprocess.Popen([*(["taskset", "-c", "0"] if self.pin else []), "node", "server.js", str(port)],
                                  cwd=self.dir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                if subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{port}/games"]).returncode == 0:
                    break
                time.sleep(0.1)
            out = subprocess.run([*(["taskset", "-c", "1"] if self.pin else []), "node", "load.js", "--port", str(port),
                                  "--matches", str(rooms), "--duration", str(duration), "--server-pid", str(server.pid)],
                                 cwd=self.dir, env=env, capture_output=True, text=True, timeout=duration + 200)
            result = last_json(out.stdout)
            if result is not None:
                result["pinned"] = "server:core0 load:core1" if self.pin else "no"
            return result
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def ours(*args: str, timeout: float) -> dict | None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks/load.py"), *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout)
    result = last_json(out.stdout)
    if result is None:
        print(f"load.py {' '.join(args)} failed:\n{out.stderr[-3000:]}", file=sys.stderr)
    return result


def cpu_us_per_move(result: dict) -> float | None:
    if result.get("server_cpu_us_per_move"):
        return result["server_cpu_us_per_move"]
    moves, cpu = result.get("moves_per_s"), result.get("server_cpu_pct")
    return round(1e4 * cpu / moves, 1) if moves and cpu else None


def fmt(value, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def row(rooms: int, name: str, result: dict | None, peer: dict | None) -> str:
    if result is None:
        return f"| {rooms:,} | {name} | (failed) | | | | | | | |"
    moves = result.get("moves_per_s")
    ratio = f"{moves / peer['moves_per_s']:.2f}×" if peer and moves and peer.get("moves_per_s") and result is not peer else ""
    latency = " / ".join(fmt(result.get(k, result.get(f"{k[7:]}_ms")), 1)  # (the peer: p50_ms ...)
                         for k in ("lat_ms_p50", "lat_ms_p95", "lat_ms_p99", "lat_ms_max"))
    pauses = ""
    if "loop_lag_max_ms" in result:
        pauses = f"{fmt(result['loop_lag_max_ms'], 0)} / {fmt(result.get('gc_pause_max_ms'), 0)}"
    errors = result.get("errors") or {}
    if "view_leaks" in result:
        errors = f"{result['view_leaks']} leaks"
    return (f"| {rooms:,} | {name} | {fmt(moves)} | {ratio} | {latency} | {fmt(result.get('server_cpu_pct'))} % | "
            f"{fmt(cpu_us_per_move(result))} | {fmt(result.get('server_waited_for_cpu_pct'))} | {pauses} | {errors} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 s windows, smaller human-pace steps")
    parser.add_argument("--duration", type=float, default=None, help="seconds per window (default 20, quick 5)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--postgres", default=POSTGRES)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--peer", default=None, help="the boardgame.io peer's folder")
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--pace-tables", type=int, nargs="+", default=None,
                        help="human-pace steps (default 500 1000 2000 4000 6000; quick 250 500 1000)")
    parser.add_argument("--skip", nargs="+", default=[], choices=["sizes", "big", "pace"],
                        help="leave parts out: the side-by-side sizes, the 1,000-room run, the human pace")
    parser.add_argument("--out", default=None, help="JSON lines of every result (default: a file in /tmp)")
    args = parser.parse_args()
    duration = args.duration or (5.0 if args.quick else 20.0)
    pace_tables = args.pace_tables or ([250, 500, 1000] if args.quick else [500, 1000, 2000, 4000, 6000])
    databases = [("SQLite", [])] + ([] if args.no_postgres else [("PostgreSQL", ["--postgres", args.postgres])])
    out_path = Path(args.out or tempfile.mktemp(prefix="asobiba-table-", suffix=".jsonl"))
    started = time.time()
    results: list[dict] = []

    def keep(kind: str, result: dict | None) -> dict | None:
        results.append({"kind": kind, "result": result})
        with out_path.open("a") as out:
            out.write(json.dumps({"kind": kind, "result": result}) + "\n")
        print(f"[{time.time() - started:5.0f} s] {kind}: {json.dumps(result)[:300] if result else 'failed'}",
              file=sys.stderr, flush=True)
        return result

    peer_dir = None if args.no_peer else Path(args.peer) if args.peer else find_peer()
    if peer_dir is None and not args.no_peer:
        print("the boardgame.io peer was not found (--peer FOLDER, or BGIO_PEER): its rows are left out",
              file=sys.stderr)
    peer = Peer(peer_dir) if peer_dir else None
    lines = ["| rooms | server | moves/s | × peer | latency p50 / p95 / p99 / max (ms) | server CPU | CPU µs per move "
             "| waited for CPU % | longest loop lag / GC pause (ms) | errors |",
             "|---:|---|---:|---:|---|---:|---:|---:|---|---|"]
    try:
        for rooms in [] if "sizes" in args.skip else args.sizes:
            peer_result = keep(f"bgio {rooms}", peer.run(rooms, duration)) if peer else None
            if peer_result:
                lines.append(row(rooms, "boardgame.io", peer_result, None))
            for name, extra in databases:
                result = keep(f"ours {name} {rooms}", ours("--rooms", str(rooms), "--duration", str(duration), *extra,
                                                           timeout=duration + 900))
                lines.append(row(rooms, f"Asobiba, {name}", result, peer_result))
        if "big" not in args.skip:
            # (after a warm-up: the first seconds of play fill every room's resync history, and
            # that growth of the heap brings a full collection, not a stop of a steady server)
            big = keep("ours SQLite 1000+1000", ours("--rooms", "1000", "--spectators", "1000", "--duration",
                                                      str(duration), "--warmup", str(min(30.0, 2 * duration)),
                                                      timeout=duration + 960))
            lines.append(row(1000, "Asobiba, SQLite, + 1 room × 1,000 spectators", big, None))
        pace_lines = ["| database | tables (last step under the limit) | moves/s | p50 / p99 / max (ms) | server CPU "
                      "| longest loop lag / GC pause (ms) | load client's longest stall (ms) | RSS per table "
                      "| steps (tables: p99 ms) |",
                      "|---|---:|---:|---|---:|---|---:|---:|---|"]
        for name, extra in [] if "pace" in args.skip else databases:
            pace = keep(f"pace {name}", ours("--pace", "2", "5", "--tables", *map(str, pace_tables), "--duration",
                                             str(max(duration, 10.0)), *extra, timeout=3600))
            if pace is None:
                pace_lines.append(f"| {name} | (failed) | | | | | | | |")
                continue
            best = next((s for s in reversed(pace["steps"]) if s["tables"] == pace["capacity_tables"]), None)
            steps = ", ".join(f"{s['tables']:,}: {fmt(s['lat_ms_p99'], 0)}" for s in pace["steps"])
            bound = "" if pace["capacity_reached"] else " (limit not reached)"
            if best is not None and best.get("tables_live", best["tables"]) < best["tables"]:
                bound = f" ({best['tables_live']:,} live){bound}"  # the others' set-up failed at the open-file limit
            if best is None:
                pace_lines.append(f"| {name} | 0 | | | | | | | {steps} |")
                continue
            pace_lines.append(
                f"| {name} | {pace['capacity_tables']:,}{bound} | {fmt(best['moves_per_s'])} | "
                f"{fmt(best['lat_ms_p50'], 1)} / {fmt(best['lat_ms_p99'], 1)} / {fmt(best['lat_ms_max'], 0)} | "
                f"{fmt(best['server_cpu_pct'])} % | {fmt(best['loop_lag_max_ms'])} / {fmt(best['gc_pause_max_ms'])} | "
                f"{fmt(best.get('client_loop_lag_max_ms'))} | "
                f"{fmt(best['rss_kb_per_table'])} KB | {steps} |")
    finally:
        if peer:
            peer.close()
    minutes = (time.time() - started) / 60
    print(f"\nAt {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {minutes:.1f} minutes, "
          f"{duration:g} s windows, load average before the end {os.getloadavg()[0]:.1f}, "
          f"game rules: {RULES} (scripts/compile_engines.py) "
          f"(results: {out_path})\n")
    print("\n".join(lines))
    print("\nHuman pace (a move every 2–5 s per table, one spectator per table), server pinned to one core:\n")
    print("\n".join(pace_lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
