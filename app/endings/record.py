"""How a match ended, stored with it (``matches.ending``): the platform's endings are written
with the outcome (``store._finish``); a match a bot finished for someone who abandoned it is
marked ``abandoned`` here, in the same transaction, so the history and the admin pages say so."""

from __future__ import annotations

from sqlalchemy import bindparam, update

from app import store
from app.models import Match

_MATCHES = Match.__table__
_MARK = (update(_MATCHES).where(_MATCHES.c.id == bindparam("b_id"), _MATCHES.c.ending.is_(None))
         .values(ending="abandoned"))


def on_match_finished(session, match: store.FinishedMatch) -> None:
    if match.ending is None and match.abandoned:
        session.connection().execute(_MARK, {"b_id": match.id})


def install() -> None:
    if on_match_finished not in store.finish_hooks:
        store.finish_hooks.append(on_match_finished)
