"""Fencing tokens in PostgreSQL: each time a process takes a running match over it claims the next
epoch of that match, and every commit of an action checks, inside its own transaction, that its
process still holds the newest epoch. A paused or partitioned old owner that wakes up after a
takeover is refused even when it is at the same version as the new owner.

The check takes the row's lock until the commit ends, and a claim waits for that lock, so a claim
and a commit are ordered: a commit either lands before the claim (and the new owner's reload from
the database sees it) or is refused. Functions take a sync ``Session`` (an ``AsyncSession`` runs
them with ``run_sync``)."""

from __future__ import annotations

from typing import cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.errors import ApiError
from app.models import MatchOwner, utcnow


def claim(session: Session, match_id: str, node_id: str) -> int:
    """Make this node the match's owner: returns its new epoch (one more than any before).
    Commit the session before loading the match, so the reload sees every earlier commit."""
    insert = (postgresql if session.get_bind().dialect.name == "postgresql" else sqlite).insert
    statement = insert(MatchOwner).values(match_id=match_id, epoch=1, node_id=node_id, claimed_at=utcnow())
    statement = statement.on_conflict_do_update(
        index_elements=[MatchOwner.match_id],
        set_={"epoch": MatchOwner.epoch + 1, "node_id": node_id, "claimed_at": utcnow()},
    ).returning(MatchOwner.epoch)
    return session.execute(statement).scalar_one()


def check(session: Session, match_id: str, epoch: int) -> None:
    """Inside a commit's transaction: refuse it unless ``epoch`` is still the match's newest."""
    held = cast(CursorResult, session.execute(update(MatchOwner).where(MatchOwner.match_id == match_id,
                                                                        MatchOwner.epoch == epoch)
                                              .values(epoch=MatchOwner.epoch))).rowcount
    if held != 1:
        raise ApiError(503, "not_owner",
                       f"this server no longer owns match {match_id} (epoch {epoch} was superseded); retry")


def check_entries(session: Session, entries, held: dict[str, int]) -> None:
    """Inside a commit's transaction: refuse it unless every entry comes from the runner of the
    epoch this process holds (``held``: match id -> epoch; a match given up is not in it) and
    that epoch is still the match's newest."""
    for match_id, epoch in {(entry.match_id, entry.epoch) for entry in entries}:
        if epoch is None or held.get(match_id) != epoch:
            raise ApiError(503, "not_owner", f"this server does not own match {match_id} (epoch {epoch}); retry")
        check(session, match_id, epoch)


class FencedWriter:
    """The action writer as one owner's runner sees it: every entry it appends carries the epoch
    the runner was started under. The commit's fence then judges the runner that made the entry,
    not the epoch its process holds when the batch commits: a runner replaced by a newer take-over
    (of the same process, after a Redis restart) cannot commit under its successor's epoch."""

    def __init__(self, writer, epoch: int):
        self.writer = writer
        self.epoch = epoch

    def append(self, *entries):
        for entry in entries:
            entry.epoch = self.epoch
        return self.writer.append(*entries)


def current(session: Session, match_id: str) -> int:
    return session.scalar(select(MatchOwner.epoch).where(MatchOwner.match_id == match_id)) or 0
