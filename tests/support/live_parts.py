"""In-process parts for unit tests of the live path (tests/unit/): an action writer kept in memory
whose commits the test decides, a listener and sockets that record what they were told and when,
an executor that runs a bot's thinking at once, and a bounded wait on the event loop.

None of them is a mock of our database: a test that needs the store uses a real migrated SQLite
file (tests/support/databases.py). They follow the protocols the live parts declare: the runner's
``Writer`` (app/live/runner.py), ``MatchListener`` (app/live/match.py) and the room's
``Subscriber`` (app/live/room.py)."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any, Callable

from app.clock import FakeClock
from app.live.runner import MatchRunner
from app.live.wire import Encoded
from app.store import LogEntry
from engines import get as get_engine


class InMemoryWriter:
    """The runner's writer (``append(*entries) -> Future``) in memory. ``auto``: every unit is
    committed as it is appended; otherwise each waits, in order, until the test commits or refuses
    it (``commit_next``, ``refuse_next``). ``committed_through(match_id)``: the version the
    committed entries of that match reach (what a listener may be told of at most)."""

    def __init__(self, auto: bool = True):
        self.auto = auto
        self.appended: list[tuple[LogEntry, ...]] = []  # every unit, in order (committed or not)
        self.committed: list[tuple[LogEntry, ...]] = []
        self.refused: list[tuple[LogEntry, ...]] = []
        self._held: list[tuple[tuple[LogEntry, ...], asyncio.Future]] = []

    def append(self, *entries: LogEntry) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self.appended.append(entries)
        if self.auto:
            self.committed.append(entries)
            future.set_result(None)
        else:
            self._held.append((entries, future))
        return future

    @property
    def waiting(self) -> int:
        """Units appended and neither committed nor refused yet."""
        return len(self._held)

    def commit_next(self) -> tuple[LogEntry, ...]:
        entries, future = self._held.pop(0)
        self.committed.append(entries)
        future.set_result(None)
        return entries

    def refuse_next(self, error: Exception) -> tuple[LogEntry, ...]:
        entries, future = self._held.pop(0)
        self.refused.append(entries)
        future.set_exception(error)
        return entries

    def entries(self) -> list[LogEntry]:
        """The committed entries, in order."""
        return [entry for unit in self.committed for entry in unit]

    def committed_through(self, match_id: str, start: int = 0) -> int:
        """The version the committed entries of ``match_id`` take it to (``start`` without any)."""
        return max((entry.idx + 1 for entry in self.entries() if entry.match_id == match_id), default=start)


@dataclass
class Heard:
    kind: str  # "advanced" or "finished"
    version: int  # the match's version when told
    committed_through: int  # the version the writer had committed at that moment


@dataclass
class RecordingListener:
    """A match's listener (``MatchListener``) that records each call with what the writer had
    committed by then, so a test can assert that nothing was told before its commit."""

    writer: InMemoryWriter
    start: int = 0
    heard: list[Heard] = field(default_factory=list)

    def on_advanced(self, match) -> None:
        self.heard.append(Heard("advanced", match.version, self.writer.committed_through(match.match_id, self.start)))

    def on_finished(self, match) -> None:
        self.heard.append(Heard("finished", match.version, self.writer.committed_through(match.match_id, self.start)))

    def versions(self, kind: str = "advanced") -> list[int]:
        return [h.version for h in self.heard if h.kind == kind]


class RecordingSocket:
    """A room's subscriber (``Subscriber``: a socket or stream) that records every message it was
    sent, decoded, with the writer's committed version at that moment when given a writer."""

    def __init__(self, player_id: str | None, writer: InMemoryWriter | None = None, match_id: str = ""):
        self.player_id = player_id
        self.writer = writer
        self.match_id = match_id
        self.received: list[dict] = []
        self.frames: list[Encoded] = []  # what it was given, as given (shared objects stay shared)
        self.committed_when_sent: list[int] = []
        self.closed: tuple[int, str] | None = None

    def send(self, message: dict) -> None:
        self.send_frame(Encoded.of(message))

    def send_frame(self, encoded: Encoded) -> None:
        self.frames.append(encoded)
        # What goes on the wire is the frame: decode what it carries, as a client would.
        self.received.append(Encoded(body=_payload(encoded.frame)).message)
        if self.writer is not None:
            self.committed_when_sent.append(self.writer.committed_through(self.match_id))

    async def close_after_flush(self, code: int, reason: str, /) -> None:
        self.closed = (code, reason)

    def views(self) -> list[dict]:
        return [m for m in self.received if m["type"] == "view"]

    def rooms(self) -> list[dict]:
        return [m["room"] for m in self.received if m["type"] == "room"]


def _payload(frame: bytes) -> bytes:
    """The payload of an unmasked WebSocket text frame (RFC 6455, 5.2)."""
    assert frame[0] == 0x81, "a complete text frame"
    size, start = frame[1] & 0x7F, 2
    if size == 126:
        size, start = int.from_bytes(frame[2:4], "big"), 4
    elif size == 127:
        size, start = int.from_bytes(frame[2:10], "big"), 10
    assert len(frame) == start + size, "the whole payload"
    return frame[start:]


class InlineExecutor(Executor):
    """Runs what it is given at once, in the caller's thread: a bot thinks within the turn of the
    event loop that asked it, so a test needs no thread and no real time to see its move."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # (handed to the awaiting side, as a pool's future would)
            future.set_exception(exc)
        return future


async def until(condition: Callable[[], bool], turns: int = 1000) -> None:
    """Let the event loop run until ``condition()`` holds, for at most ``turns`` turns (no real
    time passes: the fake clock decides every timer); fail if it never does."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    assert condition(), f"not reached within {turns} turns of the event loop"


async def turns(count: int = 50) -> None:
    """Let the event loop run ``count`` turns (to show that something does NOT happen)."""
    for _ in range(count):
        await asyncio.sleep(0)


def new_runner(game: str = "synomilia", options: dict | None = None, *, num_players: int = 2, seed: int = 1,
               writer: InMemoryWriter | None = None, clock: FakeClock | None = None, match_id: str = "m1",
               **kwargs: Any) -> MatchRunner:
    """A runner of a new ``game`` at version 0 with an in-memory writer and a fake clock; made on
    the running event loop (it holds an asyncio lock and starts timer tasks)."""
    state = get_engine(game).new_game(num_players, seed, options or {})
    return MatchRunner(match_id, game, seed, num_players, state, 0, options or {},
                       clock=clock or FakeClock(), writer=writer or InMemoryWriter(),
                       bot_threads=kwargs.pop("bot_threads", InlineExecutor()), **kwargs)
