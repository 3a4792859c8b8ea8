"""Structured logs: one line per event, readable text by default or one JSON object per line
(``LOG_FORMAT=json``), each carrying the ids of where it happened (request, room, match, seat).

The ids come from context variables that the request middleware and the live code set with
``bind(...)``, so a log call anywhere below them is tagged without passing ids around. Lines never
carry a secret: tokens in query strings or ``Authorization`` headers are masked in every message,
and the code that logs game events logs ids, versions and error codes only — never an action's
content, a view, a hand or a seed of a running match. A room id is its invite's secret: lines
carry ``room_ref(id)`` instead (``#`` + 12 hex digits of its SHA-256), in the ``room_id`` field and
in every path (``/api/rooms/#3f9a…/view``), so a log still ties a room's lines together but never
lets its reader into the room. Every other id in a path (a night's, which leads to its current
room, a player's, a match's, a session's: every path parameter of the route table but
``NOT_IDS``) is shown as its ref too (``scrub_ids_of``, called by ``create_app``), so a new route
is scrubbed without anyone remembering to. ``python -m app.cli room-ref ID`` prints the ref of a
known id."""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import hashlib
import json
import logging
import logging.handlers
import queue
import re
import sys
import time
from collections.abc import Iterable, Iterator

LOG_QUEUE_LINES = 10_000  # lines waiting for the writer thread before new ones are dropped (counted)
atexit.register(lambda: _stop_listener())

# The ids a line may carry, in the order text lines show them.
CONTEXT_FIELDS = ("request_id", "room_id", "match_id", "seat")
_context: dict[str, contextvars.ContextVar] = {
    name: contextvars.ContextVar(f"asobiba_{name}", default=None) for name in CONTEXT_FIELDS
}
# Extra fields a call may add with ``extra={...}``; anything else is dropped, so a careless
# ``extra={"view": ...}`` never reaches the output.
EVENT_FIELDS = ("event", "method", "path", "route", "status", "duration_ms", "version", "code", "game",
                "close_code", "client", "seconds", "count")

_SECRET_PATTERNS = (
    (re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE), r"\1***"),
    # a socket's hello frame, {"type": "hello", "token": "..."}, quoted in any message
    (re.compile(r"""(\\?["']token\\?["']\s*:\s*\\?["'])[^"'\\]+""", re.IGNORECASE), r"\1***"),
    (re.compile(r"(bearer\s+)[^\s\"']+", re.IGNORECASE), r"\1***"),
)


# Characters that could end a line or steer a terminal: C0 and C1 controls, DEL, and Unicode's
# line and paragraph separators. A client writes some of what is logged (a path, a name), and
# ``%0d%0a`` in a path must not start a forged line.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# In JSON, what ``json.dumps(ensure_ascii=False)`` leaves as is (it escapes only C0 controls).
_JSON_UNESCAPED = re.compile(r"[\x7f-\x9f\u2028\u2029]")


def escape_controls(text: str) -> str:
    """``\\r``, ``\\n``, ``\\x1b``, ``\\u2028``...: every control character as its escape, visibly."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


# A room id in a path: the API's ``/rooms/<id>``, the socket's ``/ws/rooms/<id>``, an invite's ``/r/<id>``.
_ROOM_IN_PATH = re.compile(r"(/(?:rooms|r)/)([A-Za-z0-9_-]{1,64})")
# ... and in words, "room <id>" (a message that names its room: the cluster's), as a second guard.
_ROOM_IN_TEXT = re.compile(r"(\broom\s+)([A-Za-z0-9_-]{16,64})\b", re.IGNORECASE)


def room_ref(room_id: str) -> str:
    """What logs show for a room: stable, short, and useless for joining it. (``#`` is not in a
    room id's alphabet, so a ref is never taken for an id and hashed again.)"""
    return "#" + hashlib.sha256(room_id.encode()).hexdigest()[:12]


# Path parameters that are no ids, left readable: a game's name (one of a fixed few), a seat's
# number, a static file's name. Every other parameter of a route is taken for an id.
NOT_IDS = frozenset({"game", "seat", "path"})
# One character of a path segment as a log quotes it (a line's text, a JSON string, a repr).
_SEGMENT = r"""[^/\s?"'\\]+"""
_PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")
# Every id-bearing route prefix of the route table in one pattern (a line is scanned once), and
# for each its first group, its number of groups and the values that are literal routes' words
# ("me" of /api/players/me); replaced as a whole, so a line being formatted on another thread
# sees the old or the new.
_id_paths: tuple[re.Pattern | None, tuple[tuple[int, int, frozenset[tuple[str, ...]]], ...], frozenset[str]] \
    = (None, (), frozenset())


def _prefix_patterns(template: str) -> list[str]:
    """``/api/nights/{night_id}/join`` -> ``["/api/nights/(<segment>)"]``: one pattern for each
    prefix of the template that ends with an id, the ids as groups, so a path that goes on past a
    known prefix (a 404's ``/api/nights/<id>/nothing``) is scrubbed too."""
    patterns, built = [], ""
    for segment in template.split("/")[1:]:
        ids, parts, last = False, [], 0
        for m in _PARAM.finditer(segment):
            parts.append(re.escape(segment[last:m.start()]))
            if m.group(1) in NOT_IDS:
                parts.append(_SEGMENT)
            else:
                parts.append(f"({_SEGMENT})")
                ids = True
            last = m.end()
        parts.append(re.escape(segment[last:]))
        built += "/" + "".join(parts)
        if ids:
            patterns.append(built)
    return patterns


def scrub_ids_of(templates: Iterable[str]) -> None:
    """Take the route table's path templates (``/api/nights/{night_id}``): from now on every id in
    a path of one of them is logged as its ref. (Adds to what earlier apps of the process gave.)"""
    global _id_paths
    templates = list(templates)
    literal = [t for t in templates if "{" not in t]
    sources = set(_id_paths[2])
    for template in templates:
        sources.update(_prefix_patterns(template))
    if sources == _id_paths[2]:
        return
    ordered = sorted(sources, key=lambda source: (-len(source), source))  # the longest first
    alternatives, first = [], 1
    for source in ordered:
        pattern = re.compile(source)
        words = frozenset(m.groups() for path in literal if (m := pattern.match(path)))
        alternatives.append((first, pattern.groups, words))
        first += pattern.groups
    # every alternative begins with "/": one look at each character of a line that is not one
    combined = re.compile("/(?:" + "|".join(f"(?:{source[1:]})" for source in ordered) + ")")
    _id_paths = (combined, tuple(alternatives), frozenset(sources))


def _ids_to_refs(match: re.Match, alternatives) -> str:
    for first, count, words in alternatives:
        if match.group(first) is not None:
            break
    values = match.groups()[first - 1:first - 1 + count]
    if values in words:
        return match.group()
    text, start, pieces, last = match.group(), match.start(), [], 0
    for group, value in enumerate(values, first):
        begin, end = match.span(group)
        pieces.append(text[last:begin - start])
        kept = value.startswith("#") or _PARAM.fullmatch(value)  # a ref, a template's "{night_id}"
        pieces.append(value if kept else room_ref(value))
        last = end - start
    pieces.append(text[last:])
    return "".join(pieces)


# PostgreSQL's error texts quote the values of the failing row or key ("DETAIL:  Key (id)=(...)
# already exists", "Failing row contains (...)": room ids, notebooks, actions), in a traceback's
# lines and in an error's repr alike (there its newline is the two characters "\n").
_DATABASE_DETAIL = re.compile(r"(DETAIL|CONTEXT):[^\n]*?(?=\\n|\n|$)")


def scrub(text: str) -> str:
    """Mask anything that looks like a token (``token=...``, ``Bearer ...``), the values a
    database error quotes, and put refs in place of ids in paths (room ids always, and every id
    of the route table given to ``scrub_ids_of``) and of room ids after the word "room"."""
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    text = _DATABASE_DETAIL.sub(lambda m: m.group(1) + ": (values left out of the log)", text)
    text = _ROOM_IN_PATH.sub(lambda m: m.group(1) + room_ref(m.group(2)), text)
    combined, alternatives, _ = _id_paths
    if combined is not None:
        text = combined.sub(lambda m: _ids_to_refs(m, alternatives), text)
    return _ROOM_IN_TEXT.sub(lambda m: m.group(1) + room_ref(m.group(2)), text)


@contextlib.contextmanager
def bind(**ids) -> Iterator[None]:
    """Tag every line logged inside the block with these ids (request_id, room_id, match_id, seat)."""
    tokens = [(_context[name], _context[name].set(value)) for name, value in ids.items() if name in _context]
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


def set_ids(**ids) -> None:
    """Tag the rest of the current task (e.g. a WebSocket handler once it knows its room)."""
    for name, value in ids.items():
        if name in _context:
            _context[name].set(value)


def _fields(record: logging.LogRecord) -> dict:
    fields = {}
    for name in CONTEXT_FIELDS:
        value = getattr(record, name, None)
        if value is None:
            value = _context[name].get()
        if value is not None:
            fields[name] = room_ref(value) if name == "room_id" and isinstance(value, str) else value
    for name in EVENT_FIELDS:
        value = getattr(record, name, None)
        if value is not None:
            fields[name] = scrub(value) if isinstance(value, str) else value
    return fields


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "message", <ids and event fields>, "exception"?}``."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
                "level": record.levelname.lower(), "logger": record.name, "message": scrub(record.getMessage())}
        line.update(_fields(record))
        if record.exc_info:
            line["exception"] = scrub(self.formatException(record.exc_info))
        text = json.dumps(line, ensure_ascii=False, default=str)
        return _JSON_UNESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class TextFormatter(logging.Formatter):
    """``2026-01-01T12:00:00.000Z INFO  asobiba.ws  socket opened  room_id=... seat=1``.

    One event is one line: control characters in the message and in every field are escaped, and
    a traceback's lines (which may quote client input too) follow indented behind ``  | ``, so
    no text from a client can begin a line of its own."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"
        pairs = " ".join(f"{key}={escape_controls(str(value))}" for key, value in _fields(record).items())
        text = f"{stamp} {record.levelname:<5} {record.name}  {escape_controls(record.getMessage())}" \
            + (f"  {pairs}" if pairs else "")
        if record.exc_info:
            text += "".join("\n  | " + escape_controls(line) for line in self.formatException(record.exc_info).split("\n"))
        return scrub(text)


def _not_a_frame_trace(record: logging.LogRecord) -> bool:
    """Drop the WebSocket library's DEBUG trace of every frame (``< TEXT '...'``, ``> TEXT ...``):
    frames carry tokens (the hello) and seats' views, and the trace is per frame, not per event."""
    if record.levelno == logging.DEBUG and record.name.startswith(("uvicorn", "websockets")):
        message = record.msg if isinstance(record.msg, str) else ""
        return not message.startswith(("< ", "> ", "% "))
    return True


class _Handoff(logging.handlers.QueueHandler):
    """A log call formats its line where it is made (the ids of its request or room live in that
    task's context) and hands it to the writer thread, never waiting for the output: a log line
    written on the event loop would stop every room while stderr is slow (a full pipe stopped a
    server, benchmarks/README.md 2026-11-29). When the queue is full the line is dropped and
    counted, and the count is said once the writer has caught up. Lines still queued when the
    process is killed (``kill -9``) are lost; a normal exit writes them (``atexit``)."""

    def __init__(self, lines: queue.Queue):
        super().__init__(lines)
        self.dropped = 0

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            if self.dropped:  # said before the next line that fits (without that line's ids)
                note = logging.LogRecord("asobiba.logs", logging.WARNING, __file__, 0,
                                         f"{self.dropped} log lines were dropped: the log's reader fell behind",
                                         None, None)
                self.queue.put_nowait(contextvars.Context().run(self.prepare, note))
                self.dropped = 0
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1


class _Writer(logging.handlers.QueueListener):
    """The thread that writes the queued lines. Stopping waits a bounded time: with the queue full
    or the reader stuck, an exit must not hang (or fail) on the log."""

    def enqueue_sentinel(self) -> None:
        with contextlib.suppress(queue.Full):
            self.queue.put(self._sentinel, timeout=STOP_SECONDS)  # type: ignore[attr-defined]

    def stop(self) -> None:
        if self._thread is not None:
            self.enqueue_sentinel()
            self._thread.join(STOP_SECONDS)
            self._thread = None


class _Output(logging.StreamHandler):
    """The writer thread's own handler (no other thread writes through it): without a lock, so a
    writer stuck on a full pipe holds none that the interpreter's exit (``logging.shutdown``)
    would wait for, and with nothing to flush once given up."""

    abandoned = False

    def createLock(self) -> None:
        self.lock = None

    def flush(self) -> None:
        if not self.abandoned:
            super().flush()


STOP_SECONDS = 2.0
_listener: _Writer | None = None
_handoff: _Handoff | None = None


def _stop_listener() -> None:
    """Write what is queued (for at most ``STOP_SECONDS`` each way); later lines (the last of a
    shutdown) are written directly."""
    global _listener, _handoff
    if _listener is not None:
        thread = _listener._thread
        _listener.stop()
        output = _listener.handlers[0]
        root = logging.getLogger()
        if thread is not None and thread.is_alive():  # stuck on its reader: given up
            assert isinstance(output, _Output)
            output.abandoned = True
        elif _handoff is not None and _handoff in root.handlers:
            output.setFormatter(_handoff.formatter)
            output.addFilter(_not_a_frame_trace)
            root.removeHandler(_handoff)
            root.addHandler(output)
        _listener = _handoff = None


def configure(log_format: str = "text", level: str = "INFO", stream=None) -> None:
    """Send every logger (ours, uvicorn's, SQLAlchemy's warnings) through one handler to stderr,
    written by a thread of its own (``_Handoff``).

    Uvicorn's access log is silenced: it prints query strings (a WebSocket's ``?token=``), and our
    middleware logs each request without them."""
    global _listener, _handoff
    _stop_listener()
    output = _Output(stream or sys.stderr)  # writes the lines as formatted by the caller
    handler = _Handoff(queue.Queue(LOG_QUEUE_LINES))
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    handler.addFilter(_not_a_frame_trace)
    _listener, _handoff = _Writer(handler.queue, output), handler
    _listener.start()
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # Alembic narrates each migration step at INFO; the start command prints its URL line first.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
    access = logging.getLogger("uvicorn.access")
    access.handlers = []
    access.propagate = False
    access.disabled = True
