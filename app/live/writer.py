"""Group commit of the action log: the one place where an accepted action becomes durable.

Runners hand their ``LogEntry`` (or an action with the automatic steps it made due at once, as
one unit) to ``ActionWriter.append`` and await it. One thread with its own
database connection takes everything queued (the actions of every room that arrived while its
previous commit ran, plus up to ``window`` seconds more), writes them in ONE transaction and
commits, and only then resolves the waiting runners, which push their views. So no view ever
shows an action that is not committed, and a commit's cost (an fsync on SQLite, a round trip
on PostgreSQL) is shared by the whole batch.

A batch that fails is retried one unit per transaction, so one bad entry (a duplicate version
from a second writer) fails alone, and with it only the steps appended with it. The live path's
other short writes (a rematch vote: ``call``) run on the same thread and connection between
batches, one transaction each. ``before_commit`` hooks run inside the batch's transaction just
before it commits (the place for a cluster's fencing check: raise to refuse the whole batch)."""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from typing import Callable

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app import store
from app.errors import ApiError
from app.observability import metrics
from app.store import LogEntry
from app.unavailable import unavailable

log = logging.getLogger("asobiba.writer")

_STOP = object()


class ActionWriter:
    def __init__(self, session_factory: sessionmaker[Session], window: float = 0.0, max_batch: int = 512):
        self.session_factory = session_factory
        self.window = window
        self.max_batch = max_batch
        self.before_commit: list[Callable[[Session, list[LogEntry]], None]] = []
        # SQLite: one write lock for the whole database, which this thread's connection takes
        # between batches anyway (``call`` is the place for the live path's other writes there).
        bind = session_factory.kw.get("bind")
        self.one_write_lock = bind is not None and bind.dialect.name == "sqlite"
        # Figures for benchmarks and operators.
        self.batches = 0
        self.committed = 0
        self._committing = False  # the writer thread's batch has reached its commit
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        # Entries appended during one turn of the event loop go to the thread as one list, so the
        # thread is woken once per turn, not once per action (each wake-up costs a GIL hand-over).
        self._pending: list = []
        self._thread = threading.Thread(target=self._run, name="action-writer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def append(self, *entries: LogEntry) -> asyncio.Future:
        """Queue ``entries`` (one match's consecutive versions, committed together or not at all);
        the future resolves (to None) once they are committed, or fails with an ``ApiError``
        (``stale_version``, ``match_over``, ``unavailable``) and none of them is stored."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if not self._pending:
            loop.call_soon(self._hand_over)
        self._pending.append((entries, future, loop))
        return future

    def call(self, fn, *args) -> asyncio.Future:
        """Run ``fn(session_factory, *args)`` (a short write in a transaction of its own, like a
        rematch vote) on the writer's thread and connection, once every action appended before it
        is committed; the future resolves to what ``fn`` returns or fails with what it raised.

        Why on SQLite (``Hub.write``): the database has one write lock. A vote from another
        connection made the writer's batch wait for it (and the vote wait for the batch), and it
        read its pages afresh each time (the writer's commits invalidate every other connection's
        cache); on the writer's own connection neither happens, and no thread more contends for the GIL."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if not self._thread.is_alive():  # stopped for a restart: nothing would run it
            future.set_exception(ApiError(503, "shutting_down", "the server is restarting: reconnect and try again"))
            return future
        if self._pending:  # the actions appended before it are committed first
            self._hand_over()
        self._queue.put(_Job(fn, args, future, loop))
        return future

    def _hand_over(self) -> None:
        if not self._pending:  # a ``call`` handed them over already
            return
        pending, self._pending = self._pending, []
        self._queue.put(pending)

    def close(self, timeout: float = 10.0) -> None:
        """Commit what is queued, then stop the thread."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout)

    # --- the writer thread -------------------------------------------------------------------

    def _run(self) -> None:
        item = self._queue.get()
        while item is not _STOP:
            if isinstance(item, _Job):
                item.run(self.session_factory)
                item = None
            else:  # actions: a batch, ended by what came after it (a call, the stop, or nothing)
                batch, item = self._collect(item)
                for start in range(0, len(batch), self.max_batch):
                    self._commit(batch[start:start + self.max_batch])
            if item is None:
                item = self._queue.get()

    def _collect(self, first: list) -> tuple[list, object]:
        batch = list(first)
        deadline = time.monotonic() + self.window
        while len(batch) < self.max_batch:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    item = self._queue.get(timeout=remaining)
                except queue.Empty:
                    break
            if item is _STOP or isinstance(item, _Job):
                return batch, item
            batch.extend(item)
        return batch, None

    def _commit(self, batch: list) -> None:
        units = [entries for entries, _, _ in batch]
        try:
            self._write([entry for unit in units for entry in unit])
            outcomes: list[ApiError | None] = [None] * len(batch)
        except Exception as exc:
            if len(batch) == 1:
                outcomes = [_as_api_error(exc)]
            else:
                outcomes = []
                for unit in units:  # isolate the unit that failed
                    try:
                        self._write(list(unit))
                        outcomes.append(None)
                    except Exception as single:
                        outcomes.append(_as_api_error(single))
        self.batches += 1
        self.committed += sum(len(unit) for unit, outcome in zip(units, outcomes) if outcome is None)
        by_loop: dict = {}
        for (_, future, loop), outcome in zip(batch, outcomes):
            by_loop.setdefault(loop, []).append((future, outcome))
        for loop, results in by_loop.items():
            try:
                loop.call_soon_threadsafe(_resolve, results)
            except RuntimeError:  # the loop is closed (shutdown): nobody is waiting any more
                pass

    def _write(self, entries: list[LogEntry]) -> None:
        started = time.perf_counter()
        try:
            self._transaction(entries)
        except DBAPIError as exc:
            # The writer's connection is not tested before each batch (a round trip per commit on
            # PostgreSQL, ``make_engine(pre_ping=False)``): one the database closed (a restart, a
            # cut link) fails at its first statement, before anything was sent to commit, and
            # the batch runs once more on a new connection. A connection lost during the commit
            # is not retried: whether that commit happened is unknown.
            if not exc.connection_invalidated or self._committing:
                raise
            self._transaction(entries)
        metrics.committed(time.perf_counter() - started, len(entries))

    def _transaction(self, entries: list[LogEntry]) -> None:
        self._committing = False
        with self.session_factory() as session, session.begin():
            store.write_log(session, entries)
            for hook in self.before_commit:
                hook(session, entries)
            self._committing = True  # (the block's end commits)


class _Job:
    """A ``call`` waiting for the writer's thread."""

    __slots__ = ("fn", "args", "future", "loop")

    def __init__(self, fn, args, future, loop):
        self.fn, self.args, self.future, self.loop = fn, args, future, loop

    def run(self, session_factory) -> None:
        try:
            result, error = self.fn(session_factory, *self.args), None
        except Exception as exc:
            result, error = None, exc
        try:
            self.loop.call_soon_threadsafe(_settle, self.future, result, error)
        except RuntimeError:  # the loop is closed (shutdown): nobody is waiting any more
            pass


def _settle(future: asyncio.Future, result, error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


def _resolve(results) -> None:
    """A batch's waiting runners: each committed (error None) or refused."""
    for future, error in results:
        _settle(future, None, error)


def _as_api_error(exc: Exception) -> ApiError:
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, IntegrityError):
        return ApiError(409, "stale_version", "another action was recorded for this version first; resync")
    log.error("the action log could not be written: %r", exc)
    return unavailable()
