"""Correspondence deadlines in the database (``match_deadlines``). Written inside the action
writer's transaction with the log entry that changed them (``write_changes``), so a deadline
exists exactly when its log entry is committed, under the same fencing check; read when a
runner resumes (``load``); each function takes a synchronous ``Session`` or connection."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import bindparam, delete, func, insert, select, update

from sqlalchemy.exc import IntegrityError

from app.models import Match, MatchAction, MatchDeadline, Player

_TABLE = MatchDeadline.__table__
_DELETE_ONE = delete(_TABLE).where(_TABLE.c.match_id == bindparam("b_match"), _TABLE.c.seat == bindparam("b_seat"))
_INSERT = insert(_TABLE)
_DELETE_ALL = delete(_TABLE).where(_TABLE.c.match_id == bindparam("b_match"))
# The match's row, locked till the transaction ends (PostgreSQL; SQLite has one writer anyway): a
# unit of log entries changing the deadlines and ``add_missing`` take it, so the check "no entry
# past the version yet" and the insert are one step against the writer's deletes (under READ
# COMMITTED, a delete cannot see a row inserted by a transaction still open: without the lock a
# first deadline stored late came back after the move that had removed it).
_LOCK_MATCH = select(Match.__table__.c.id).where(Match.__table__.c.id == bindparam("b_match")).with_for_update()


@dataclass
class Stored:
    """A correspondence match's deadlines as the database has them, and its seats' vacations."""

    room_id: str = ""
    seats: list[dict] = field(default_factory=list)  # the match's seats: {"player_id", "name", "bot"}
    deadlines: dict[int, float] = field(default_factory=dict)
    warned: set[int] = field(default_factory=set)  # seats whose "12 hours left" was emitted
    vacations: dict[int, float] = field(default_factory=dict)  # seat -> vacation end (still to come)


def write_changes(connection, match_id: str, changes: dict[int, float | None]) -> None:
    """Apply ``pace.changes``: a new or moved deadline replaces the seat's row (not yet warned),
    None deletes it."""
    if changes:
        connection.execute(_LOCK_MATCH, {"b_match": match_id})
    for seat, due in changes.items():
        connection.execute(_DELETE_ONE, {"b_match": match_id, "b_seat": seat})
        if due is not None:
            connection.execute(_INSERT, {"match_id": match_id, "seat": seat, "due_at": due, "warned": False})


def add_missing(session, match_id: str, version: int, deadlines: dict[int, float]) -> None:
    """Store the deadlines of the seats that have none yet (the match's first decisions), each in
    a transaction of its own: one another process stored first stays (and is read back). Nothing
    is added once the match is over or has moved past ``version`` (its later entries wrote theirs)."""
    for seat, due in deadlines.items():
        try:
            with session.begin():
                session.execute(_LOCK_MATCH, {"b_match": match_id})
                running = session.scalar(select(Match.status).where(Match.id == match_id)) == "running"
                last = session.scalar(select(func.max(MatchAction.idx)).where(MatchAction.match_id == match_id))
                if running and (last if last is not None else -1) == version - 1 and session.scalar(select(_TABLE.c.seat).where(
                        _TABLE.c.match_id == match_id, _TABLE.c.seat == seat)) is None:
                    session.execute(_INSERT, {"match_id": match_id, "seat": seat, "due_at": due, "warned": False})
        except IntegrityError:
            session.rollback()


def forget(connection, match_id: str) -> None:
    """The match is over: no deadline of it is left."""
    connection.execute(_DELETE_ALL, {"b_match": match_id})


def load(session, match_id: str, room_id: str, seats: list[dict]) -> Stored:
    """The deadlines of ``match_id`` and the vacations of its seated people (``seats``: the match's
    ``[{"player_id", ...}]``; a vacation that has ended is the reader's to ignore, by its clock)."""
    stored = Stored(room_id, seats)
    for row in session.execute(select(_TABLE.c.seat, _TABLE.c.due_at, _TABLE.c.warned).where(_TABLE.c.match_id == match_id)):
        stored.deadlines[row.seat] = row.due_at
        if row.warned:
            stored.warned.add(row.seat)
    ids = {s.get("player_id"): seat for seat, s in enumerate(seats) if s.get("player_id") and not s.get("bot")}
    if ids:
        for player_id, until in session.execute(select(Player.id, Player.vacation_until).where(Player.id.in_(ids))):
            if until is not None:
                stored.vacations[ids[player_id]] = until
    return stored


def version(session, match_id: str) -> int:
    """How many entries the match's log holds."""
    last = session.scalar(select(func.max(MatchAction.idx)).where(MatchAction.match_id == match_id))
    return 0 if last is None else last + 1


def read_one(session, match_id: str, seat: int) -> float | None:
    return session.scalar(select(_TABLE.c.due_at).where(_TABLE.c.match_id == match_id, _TABLE.c.seat == seat))


def mark_warned(session, match_id: str, seat: int, due: float) -> bool:
    """The "12 hours left" event of this deadline is to be emitted: True for exactly one caller
    (a conditional update; a deadline moved or already warned answers False)."""
    done = session.execute(update(_TABLE).where(_TABLE.c.match_id == match_id, _TABLE.c.seat == seat,
                                                _TABLE.c.due_at == due, _TABLE.c.warned.is_(False))
                           .values(warned=True)).rowcount
    session.commit()
    return done == 1
