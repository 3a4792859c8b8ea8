"""Database reads and writes shared by the REST routers and the live layer. Every function takes
a synchronous ``Session`` and runs in a worker thread (``Database.run``) or in the action writer's
thread, never on the event loop.

The action log is the record of a match: ``write_log`` appends one small row per accepted action
(seat, action, version) and only every ``snapshot_every`` actions, and at the end, rewrites the
match's snapshot; resuming reads the snapshot and replays the actions after it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

import engines
from engines.bots import DEFAULT_LEVEL
from app.correspondence import records as deadline_records
from app.endings import actions as platform
from app.errors import ApiError, not_found
from app.models import Abandonment, Match, MatchAction, Player, Room, RoomSeat, utcnow
from app.security import new_id

# Called inside the transaction that records a finished match (ratings plug in here), with the
# match as a ``FinishedMatch`` (its abandoned seats read once for every hook).
finish_hooks: list[Callable[[Session, "FinishedMatch"], None]] = []


@dataclass(slots=True)
class StartPlan:
    """How a match about to begin is dealt when a feature decides it (a game night rotates the
    first player and mixes teams by choosing the seed): the seed, its new game, and ``record``,
    called with the new match's id in the same transaction."""

    seed: int
    state: Any
    record: Callable[[str], None]


# Asked, in order, when a match begins (``begin_match``), with (session, room, seats); the first
# plan given is used. A room that belongs to no feature costs a plain attribute check.
start_plans: list[Callable[[Session, Any, list], StartPlan | None]] = []


@dataclass(slots=True)
class LogEntry:
    """One accepted action on its way to the log: it took match ``match_id`` from version ``idx``
    to ``idx + 1``. ``snapshot`` (the state JSON after it) is set when a snapshot is due,
    ``outcome`` when the action ended the match (then ``snapshot`` is set too). ``epoch``: on a
    cluster, the fencing epoch of the owner that accepted it (``app.cluster.fencing``)."""

    match_id: str
    idx: int
    seat: int
    action: dict
    snapshot: dict | None = None
    outcome: dict | None = None
    epoch: int | None = None
    status: str = "finished"  # what an entry with an outcome makes the match ("aborted": app/endings)
    # A correspondence match's deadlines this entry changes (``pace.changes``: seat -> due or None),
    # written in its transaction (app/correspondence/records.py).
    deadlines: dict[int, float | None] | None = None


@dataclass(slots=True)
class FinishedMatch:
    """A match that has just ended, as the finish hooks read it: the attributes of a ``Match`` row
    they need, without loading the row's state (the action writer records a finish with a few Core
    statements, in the transaction that holds every other room's actions of its batch)."""

    id: str
    room_id: str
    game: str
    seats: list[dict]
    status: str
    outcome: dict | None
    started_at: Any
    finished_at: Any
    rated: bool = True  # False: the host made the table unrated
    ending: str | None = None  # how it ended when not played out: resigned, aborted, claimed (abandoned)
    abandoned: frozenset[int] = frozenset()  # seats whose player abandoned the match (a bot finished for them)
    night_id: str | None = None  # the game night its table belongs to (app/nights), if any


@dataclass
class RoomInfo:
    """What the live room needs to know about a room's row and its seats (read in a worker)."""

    id: str
    game: str
    options: dict
    status: str
    host_id: str
    match_id: str | None
    num_seats: int
    bot_think_seconds: float | None
    seats: list[dict] = field(default_factory=list)  # {"seat", "player_id", "name", "bot", "left"}
    grace_seconds: float | None = None  # before an absent player's seat goes to a bot (zombie seats)
    rated: bool = True  # the host's choice: an unrated table leaves ratings unchanged
    next_room_id: str | None = None  # the new table with the same people (app/endings/next_table.py)
    night_id: str | None = None  # the game night the table belongs to (app/nights)
    pace: str = "live"  # app/correspondence/pace.py
    on_deadline: str = "bot"


@dataclass
class MatchInfo:
    """A match as the runner resumes it: the snapshot's state with the later actions applied."""

    id: str
    game: str
    seed: int
    num_players: int
    options: dict
    status: str
    state: Any
    version: int
    table: platform.Table = field(default_factory=platform.Table)  # the platform actions so far
    room_id: str = ""
    pace: str = "live"  # app/correspondence/pace.py
    on_deadline: str = "bot"
    stored: deadline_records.Stored | None = None  # a correspondence match's deadlines and vacations


def get_room(session: Session, room_id: str, for_update: bool = False) -> Room:
    room = None
    if isinstance(room_id, str) and len(room_id) <= 64:
        room = session.get(Room, room_id, with_for_update=for_update)
    if room is None:
        raise not_found("room", room_id)
    return room


def room_seats(session: Session, room_id: str) -> list[RoomSeat]:
    return list(session.scalars(select(RoomSeat).where(RoomSeat.room_id == room_id).order_by(RoomSeat.seat)))


_ROOMS, _SEATS, _PLAYERS, _MATCHES = Room.__table__, RoomSeat.__table__, Player.__table__, Match.__table__
# Statements on the paths every match takes (start, rematch, finish) are built once: building a
# statement costs more than running it. Their parameters are named ``b_*``.
ROOM_ROW = select(_ROOMS).where(_ROOMS.c.id == bindparam("b_room"))
SEAT_ROWS = (select(_SEATS.c.seat, _SEATS.c.player_id, _SEATS.c.left, _SEATS.c.private_data, _PLAYERS.c.name,
                    _PLAYERS.c.is_bot, _PLAYERS.c.vacation_until)
             .outerjoin(_PLAYERS, _PLAYERS.c.id == _SEATS.c.player_id)
             .where(_SEATS.c.room_id == bindparam("b_room")).order_by(_SEATS.c.seat))
_NEW_MATCH = insert(_MATCHES)
_ROOM_RUNS = update(_ROOMS).where(_ROOMS.c.id == bindparam("b_room")).values(status="running").returning(*_ROOMS.c)


def room_info(session: Session, room_id: str) -> RoomInfo:
    session.flush()  # the Core reads below do not flush the session's pending changes themselves
    connection = session.connection()
    room = connection.execute(ROOM_ROW, {"b_room": room_id}).first() \
        if isinstance(room_id, str) and len(room_id) <= 64 else None
    if room is None:
        raise not_found("room", room_id)
    return room_info_of(connection, room)


def room_info_of(connection, room, seat_rows=None) -> RoomInfo:
    """The ``RoomInfo`` of ``room`` (a ``ROOM_ROW`` row as it is now) with its seats (``SEAT_ROWS``
    rows; read here unless the caller has them as they are now)."""
    seats = [{"seat": s.seat, "player_id": s.player_id, "name": s.name if s.player_id else None,
              "bot": bool(s.player_id and s.is_bot), "left": s.left,
              "bot_level": (s.private_data or {}).get("bot_level", DEFAULT_LEVEL) if s.player_id and s.is_bot else None,
              "vacation_until": int(s.vacation_until * 1000) if s.vacation_until and room.pace != "live" else None}
             for s in (seat_rows if seat_rows is not None else connection.execute(SEAT_ROWS, {"b_room": room.id}))]
    # A correspondence table keeps its seats for people who close the tab: no bot takes a seat for
    # being away (grace 0); its deadlines decide instead (app/correspondence).
    grace = room.grace_seconds if room.pace == "live" else 0.0
    return RoomInfo(room.id, room.game, room.options, room.status, room.host_id, room.match_id, room.num_seats,
                    room.bot_think_seconds, seats, grace, room.rated, room.next_room_id, room.night_id,
                    room.pace, room.on_deadline)


def load_match(session: Session, match_id: str) -> MatchInfo:
    """The match's latest snapshot with the actions after it applied (how a runner resumes)."""
    match = session.get(Match, match_id)
    if match is None:
        raise not_found("match", match_id)
    engine = engines.get(match.game)
    state = engine.state_from_json(match.state)
    tail = session.execute(select(MatchAction.seat, MatchAction.action)
                           .where(MatchAction.match_id == match_id, MatchAction.idx >= match.version)
                           .order_by(MatchAction.idx)).all()
    # Platform actions (votes, an early end) do not change the engine's state, so the snapshot
    # does not hold them: the table is folded from all of them (MAX_VOTES_PER_SEAT per seat at most).
    votes = session.execute(select(MatchAction.seat, MatchAction.action)
                            .where(MatchAction.match_id == match_id, MatchAction.idx < match.version,
                                   MatchAction.seat == platform.PLATFORM).order_by(MatchAction.idx)).all()
    table = platform.fold_all(action for _, action in votes)  # (their moves are in the snapshot)
    state, table = platform.replay(engine, state, tail, table)
    stored = deadline_records.load(session, match_id, match.room_id, match.seats) if match.pace != "live" else None
    return MatchInfo(match.id, match.game, match.seed, len(match.seats), match.options, match.status, state,
                     match.version + len(tail), table, match.room_id, match.pace, match.on_deadline, stored)


def start_match(session: Session, room: Room) -> MatchInfo:
    """Create the match for a full room (caller checked host and seats) and mark the room running."""
    session.flush()
    match, _ = begin_match(session, room, session.connection().execute(SEAT_ROWS, {"b_room": room.id}).all())
    session.expire(room, ["status", "match_id"])  # changed by Core statements: read again if used
    return match


def begin_match(session: Session, room, seats) -> tuple[MatchInfo, Any]:
    """Create the match of ``room`` (a ``Room`` or a ``ROOM_ROW`` row) with ``seats`` (``SEAT_ROWS``
    rows, every seat taken), mark the room running, and return the match as a runner takes it with
    the room's row as it is now (``room_info_of``)."""
    engine = engines.get(room.game)
    plan = next((p for p in (ask(session, room, seats) for ask in start_plans) if p is not None), None)
    if plan is not None:
        seed, state = plan.seed, plan.state
    else:
        seed = secrets.randbits(63)
        state = engine.new_game(room.num_seats, seed, room.options)
    match_id = new_id()
    connection = session.connection()
    connection.execute(_NEW_MATCH, {
        "id": match_id, "room_id": room.id, "game": room.game, "engine_version": engine.version,
        "options": room.options, "seed": seed, "status": "running", "version": 0, "rated": bool(room.rated),
        "state": engine.state_to_json(state), "outcome": None, "finished_at": None, "started_at": utcnow(),
        "seats": [{"player_id": s.player_id, "name": s.name, "bot": s.is_bot} for s in seats],
        "pace": room.pace, "on_deadline": room.on_deadline})
    running = connection.execute(_ROOM_RUNS, {"b_room": room.id, "match_id": match_id}).one()
    if plan is not None:
        plan.record(match_id)
    stored = deadline_records.Stored(room.id, [{"player_id": s.player_id, "name": s.name, "bot": s.is_bot}
                                               for s in seats]) if room.pace != "live" else None
    return MatchInfo(match_id, room.game, seed, room.num_seats, room.options, "running", state, 0,
                     room_id=room.id, pace=room.pace, on_deadline=room.on_deadline, stored=stored), running


def write_log(session: Session, entries: list[LogEntry]) -> None:
    """Append ``entries`` (of any matches, each match's in order) inside the caller's transaction:
    one multi-row INSERT into the log, one UPDATE for the snapshots that are due, and for an action that
    ended its match the outcome, the room's status and the finish hooks (ratings).

    The unique (match_id, idx) constraint refuses a second writer for the same version."""
    now = utcnow()
    # Core statements on the tables (not the ORM): the writer thread holds the GIL while it builds
    # parameters, and the ORM path costs several times more per row.
    connection = session.connection()
    connection.execute(_APPEND, [
        {"match_id": e.match_id, "idx": e.idx, "seat": e.seat, "action": e.action, "created_at": now} for e in entries])
    snapshots = [{"b_id": e.match_id, "b_idx": e.idx, "version": e.idx + 1, "state": e.snapshot}
                 for e in entries if e.snapshot is not None and e.outcome is None]
    if snapshots:  # one statement (one round trip on PostgreSQL) for the batch's snapshots
        connection.execute(_SNAPSHOT, snapshots)
    for entry in entries:
        if entry.deadlines:
            deadline_records.write_changes(connection, entry.match_id, entry.deadlines)
    for entry in entries:
        if entry.outcome is not None:
            _finish(session, entry, now)


_APPEND = insert(MatchAction.__table__)
_SNAPSHOT = update(_MATCHES).where(_MATCHES.c.id == bindparam("b_id"), _MATCHES.c.version <= bindparam("b_idx"))
# Ends a running match and reads what the finish hooks need in one statement (RETURNING: SQLite
# 3.35+, PostgreSQL): a finish is a dozen statements in the writer's batch, one round trip each.
_FINISH_MATCH = (update(_MATCHES).where(_MATCHES.c.id == bindparam("b_id"), _MATCHES.c.status == "running")
                 .returning(_MATCHES.c.room_id, _MATCHES.c.game, _MATCHES.c.seats, _MATCHES.c.started_at,
                            _MATCHES.c.rated, _MATCHES.c.pace))
_MATCH_STATUS = select(_MATCHES.c.status).where(_MATCHES.c.id == bindparam("b_id"))
_ABANDONED = select(Abandonment.seat).where(Abandonment.match_id == bindparam("b_id"))


def abandoned_seats(connection, match_id: str) -> frozenset[int]:
    """The seats whose player abandoned the match (a bot finished it for them)."""
    return frozenset(connection.execute(_ABANDONED, {"b_id": match_id}).scalars())
_FINISH_ROOM = (update(_ROOMS).where(_ROOMS.c.id == bindparam("b_room_id")).values(status="finished")
                .returning(_ROOMS.c.night_id))


def _finish(session: Session, entry: LogEntry, now) -> None:
    """The action ended its match: the final snapshot and outcome, the room finished, the finish
    hooks (ratings) in the same transaction. Refused (``match_over``) unless the match still runs."""
    outcome = entry.outcome
    assert outcome is not None, "only an entry with an outcome ends its match"
    connection = session.connection()
    row = connection.execute(_FINISH_MATCH, {
        "b_id": entry.match_id, "version": entry.idx + 1, "state": entry.snapshot, "status": _status(entry),
        "outcome": outcome, "finished_at": now, "ending": outcome.get("ending")}).first()
    if row is None:
        status = connection.execute(_MATCH_STATUS, {"b_id": entry.match_id}).scalar()
        raise ApiError(409, "match_over", f"match {entry.match_id} is {status or 'gone'}; no more actions are taken")
    night_id = connection.execute(_FINISH_ROOM, {"b_room_id": row.room_id}).scalar()
    if row.pace != "live":  # only a correspondence match has deadlines (app/correspondence)
        deadline_records.forget(connection, entry.match_id)
    # read once for every hook (ratings rank an abandoner last; the ending says "abandoned")
    abandoned = abandoned_seats(connection, entry.match_id)
    finished = FinishedMatch(entry.match_id, row.room_id, row.game, row.seats, _status(entry), entry.outcome,
                             row.started_at, now, row.rated is not False, outcome.get("ending"), abandoned, night_id)
    for hook in finish_hooks:
        hook(session, finished)


def _status(entry: LogEntry) -> str:
    """An outcome that says the match was aborted (by agreement, app/endings) makes it aborted."""
    return "aborted" if (entry.outcome or {}).get("ending") == "aborted" else entry.status


def record_action(session_factory: sessionmaker[Session], match_id: str, idx: int, seat: int,
                  action: dict, state_json: dict, outcome: dict | None) -> None:
    """Append one action with a snapshot in its own transaction (tools and tests; the server goes
    through the group-committing writer)."""
    with session_factory() as session, session.begin():
        write_log(session, [LogEntry(match_id, idx, seat, action, state_json, outcome)])


def log_length(session: Session, match_id: str) -> int:
    """How many actions the match's log holds (its current version)."""
    last = session.scalar(select(MatchAction.idx).where(MatchAction.match_id == match_id)
                          .order_by(MatchAction.idx.desc()).limit(1))
    return 0 if last is None else last + 1


def log_entry(session: Session, match_id: str, idx: int) -> tuple[int, dict] | None:
    """The (seat, action) at version ``idx`` of the match's log, if committed."""
    row = session.execute(select(MatchAction.seat, MatchAction.action)
                          .where(MatchAction.match_id == match_id, MatchAction.idx == idx)).first()
    return None if row is None else (row.seat, row.action)


def match_log(session: Session, match_id: str) -> list[tuple[int, dict]]:
    rows = session.execute(select(MatchAction.seat, MatchAction.action)
                           .where(MatchAction.match_id == match_id).order_by(MatchAction.idx))
    return [(seat, action) for seat, action in rows]


def replay_state(match: Match, log: list[tuple[int, dict]], upto: int | None = None):
    """Recompute the match state from seed + options + log (the first ``upto`` actions)."""
    return replay_match(match, log, upto)[0]


def replay_match(match: Match, log: list[tuple[int, dict]], upto: int | None = None):
    """(state, platform table) after the first ``upto`` actions of the log."""
    engine = engines.get(match.game)
    state = engine.new_game(len(match.seats), match.seed, match.options)
    return platform.replay(engine, state, log[:upto])
