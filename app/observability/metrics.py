"""The process's Prometheus metrics, kept by the maintained ``prometheus-client`` library.

Metrics are per process (each server process is its own scrape target) and live in the library's
default registry, beside its process and Python collectors. The live code records events through
the small functions below, so a call site is one line and the names stay in one place; gauges that
describe the current state (sockets open, rooms live, shutting down) are read from the hubs when
Prometheus scrapes, so they can never drift from the truth. docs/operations.md explains each one."""

from __future__ import annotations

import functools
import gc
import threading
import time
import weakref

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

# Latency buckets in seconds: from a fast SQLite commit (<1 ms) to a stalled database (>5 s).
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)

ACTIONS_APPLIED = Counter("asobiba_actions_applied", "Actions applied and committed, by game "
                          "(players, bots and the server's automatic steps).", ["game"])
ACTIONS_REFUSED = Counter("asobiba_actions_refused", "Actions refused with nothing changed, by game "
                          "and error code (stale_version, illegal_action, ...).", ["game", "code"])
ACTION_LATENCY = Histogram("asobiba_action_latency_seconds", "From receiving an action to its views "
                           "being handed to every socket of the room.", ["game"], buckets=LATENCY_BUCKETS)
COMMIT_LATENCY = Histogram("asobiba_commit_latency_seconds", "One database commit of applied actions.",
                           buckets=LATENCY_BUCKETS)
COMMIT_BATCH = Histogram("asobiba_commit_batch_actions", "Actions written by one database commit "
                         "(group commit: several rooms' actions share a transaction).", buckets=BATCH_BUCKETS)
MATCHES_FINISHED = Counter("asobiba_matches_finished", "Matches that reached an outcome, by game.", ["game"])
BOT_THINK = Histogram("asobiba_bot_think_seconds", "Time a bot policy took to choose one action, in its worker thread "
                      "(not the configured pause before it acts).", ["game"], buckets=LATENCY_BUCKETS)
RATE_LIMITED = Counter("asobiba_rate_limited", "Requests or messages refused by a rate limit, by limit "
                       "(players_per_ip, actions_per_token, frames_per_ip, ...).",
                       ["limit"])
HTTP_REQUESTS = Counter("asobiba_http_requests", "HTTP requests answered, by method, route template "
                        "and status.", ["method", "route", "status"])
HTTP_LATENCY = Histogram("asobiba_http_request_duration_seconds", "HTTP request duration (until the "
                         "response started, so long streams count their set-up only), by route template.",
                         ["route"], buckets=LATENCY_BUCKETS)
CONNECTIONS_CUT = Counter("asobiba_http_connections_cut", "Connections the server closed before a "
                          "request: busy (over MAX_CONNECTIONS), busy_address (over MAX_CONNECTIONS_PER_ADDRESS), no_request (not a byte within "
                          "REQUEST_READ_TIMEOUT), slow_request (a request unfinished in that time).", ["reason"])

# Pause buckets: finer around the 20 ms a player starts to feel (docs/operations.md).
PAUSE_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
GC_PAUSE = Histogram("asobiba_gc_pause_seconds", "Pauses of Python's cyclic garbage collector, by "
                     "generation: every socket and room of the process waits them out.", ["generation"],
                     buckets=PAUSE_BUCKETS)
GC_COLLECTED = Counter("asobiba_gc_collected_objects", "Objects the cyclic garbage collector found "
                       "unreachable (garbage in reference cycles), by generation.", ["generation"])
LOOP_LAG = Histogram("asobiba_loop_lag_seconds", "How late the event loop ran a timer due every "
                     "LOOP_LAG_INTERVAL_MS: how long any callback, collection or burst held the loop.",
                     buckets=PAUSE_BUCKETS)
PUSHES = Counter("asobiba_pushes", "Web Push notifications by result: sent, gone (the subscription was "
                 "deleted), failed, refused (not a public https endpoint), throttled, dropped (queue full), "
                 "over_budget (the player's posts used up their sender time).",
                 ["result"])


@functools.cache
def _child(metric, *labels):
    """A labelled child, looked up once: ``labels()`` takes a lock and builds a key on every call,
    and the per-action metrics are on the hot path of every move."""
    return metric.labels(*labels)


def action_applied(game: str) -> None:
    _child(ACTIONS_APPLIED, game).inc()


def action_latency(game: str, seconds: float) -> None:
    _child(ACTION_LATENCY, game).observe(seconds)


def action_refused(game: str, code: str) -> None:
    _child(ACTIONS_REFUSED, game, code).inc()


def committed(seconds: float, actions: int = 1) -> None:
    COMMIT_LATENCY.observe(seconds)
    COMMIT_BATCH.observe(actions)


def match_finished(game: str) -> None:
    _child(MATCHES_FINISHED, game).inc()


def bot_thought(game: str, seconds: float) -> None:
    BOT_THINK.labels(game).observe(seconds)


def rate_limited(limit: str) -> None:
    RATE_LIMITED.labels(limit).inc()


def push(result: str) -> None:
    _child(PUSHES, result).inc()


class _Largest:
    """The largest value seen since the previous scrape (then it starts again from zero): a
    histogram's buckets say how often a pause passed a bound, this says how long the worst one of
    the scrape interval was. With several scrapers each sees the largest since any scrape.

    Locked: a process may run several event loops in threads (the tests' servers; the garbage
    collector's callback runs in whichever thread collects), and an unlocked compare-then-store
    could let a smaller value overwrite a larger one seen at the same moment. Re-entrant: a garbage
    collection can start inside ``take`` (any allocation) and its callback observe the same holder
    in the same thread."""

    def __init__(self):
        self.value = 0.0
        self._lock = threading.RLock()

    def observe(self, value: float) -> None:
        with self._lock:
            if value > self.value:
                self.value = value

    def take(self) -> float:
        with self._lock:
            value, self.value = self.value, 0.0
        return value


GC_PAUSE_MAX = _Largest()
LOOP_LAG_MAX = _Largest()


def watch_gc() -> None:
    """Time every collection of the garbage collector (``GC_PAUSE``, ``GC_PAUSE_MAX``) and count
    what it freed (``GC_COLLECTED``); once per process (a second call changes nothing)."""
    if any(getattr(callback, "asobiba_timer", False) for callback in gc.callbacks):
        return
    started = [0.0]
    pauses = [_child(GC_PAUSE, str(generation)) for generation in range(3)]
    collected = [_child(GC_COLLECTED, str(generation)) for generation in range(3)]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pause = time.perf_counter() - started[0]
            generation = info["generation"]
            pauses[generation].observe(pause)
            GC_PAUSE_MAX.observe(pause)
            if info["collected"]:
                collected[generation].inc(info["collected"])

    timed.asobiba_timer = True  # type: ignore[attr-defined]
    gc.callbacks.append(timed)


def loop_lag(seconds: float) -> None:
    LOOP_LAG.observe(seconds)
    LOOP_LAG_MAX.observe(seconds)


class _LiveState(Collector):
    """Sockets open, rooms live and the shutting-down flag, read from every hub of this process
    at scrape time (a test process may run several apps; a server process runs one)."""

    def __init__(self):
        self.hubs: weakref.WeakSet = weakref.WeakSet()
        self.lifecycles: weakref.WeakSet = weakref.WeakSet()

    def collect(self):
        rooms = list(room for hub in list(self.hubs) for room in list(hub.rooms.values()))
        sockets = GaugeMetricFamily("asobiba_sockets_open", "Open WebSockets and NDJSON streams.")
        sockets.add_metric([], sum(len(room.connections) for room in rooms))
        live = GaugeMetricFamily("asobiba_rooms_live", "Rooms held in memory (running matches and "
                                 "rooms someone is connected to).")
        live.add_metric([], len(rooms))
        shutting = GaugeMetricFamily("asobiba_shutting_down", "1 while this process drains for a "
                                     "restart (its /readyz answers 503).")
        shutting.add_metric([], float(any(lc.shutting_down for lc in list(self.lifecycles))))
        lag = GaugeMetricFamily("asobiba_loop_lag_max_seconds", "The longest the event loop was held "
                                "(loop lag probe) since the previous scrape.")
        lag.add_metric([], LOOP_LAG_MAX.take())
        pause = GaugeMetricFamily("asobiba_gc_pause_max_seconds", "The longest garbage collection "
                                  "pause since the previous scrape.")
        pause.add_metric([], GC_PAUSE_MAX.take())
        return [sockets, live, shutting, lag, pause]


_live_state = _LiveState()
REGISTRY.register(_live_state)


class _Build(Collector):
    """Which build of the game rules this process runs (scripts/compile_engines.py)."""

    def collect(self):
        from engines import compiled

        build = GaugeMetricFamily("asobiba_engines_compiled", "1 when the game rules run as the compiled "
                                  "build (mypyc), 0 for pure Python.")
        build.add_metric([], float(compiled.is_compiled()))
        return [build]


REGISTRY.register(_Build())


def watch(hub=None, lifecycle=None) -> None:
    """Report this hub's rooms and sockets, and this lifecycle's shutdown flag, on each scrape."""
    if hub is not None:
        _live_state.hubs.add(hub)
    if lifecycle is not None:
        _live_state.lifecycles.add(lifecycle)


def exposition() -> tuple[bytes, str]:
    """The text format body and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
