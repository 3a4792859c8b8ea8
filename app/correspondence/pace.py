"""A table's pace: ``live`` (the games' own clocks, minutes) or correspondence, days per move.

A correspondence table gives every awaited person a deadline of the pace's length from the moment
their decision became theirs (each seat its own in a simultaneous phase). At a deadline the table
does what the host chose (``on_deadline``): ``bot`` — the game's easy bot plays that one move for
the late seat (the person keeps the seat); ``lose`` — the late player loses as by resigning (in a
team game their team concedes). Nobody needs to stay connected: no seat is handed to a bot for
being away."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

DAY = 86_400.0
PACES: dict[str, float | None] = {"live": None, "1d": DAY, "2d": 2 * DAY, "3d": 3 * DAY, "7d": 7 * DAY}
ON_DEADLINE = ("bot", "lose")
# Seconds before a correspondence deadline at which the "12 hours left" event is emitted.
WARN_BEFORE = 12 * 3600.0


def seconds(pace: str | None) -> float | None:
    """Seconds per move of ``pace`` (None: live)."""
    return PACES.get(pace or "live")


def is_correspondence(pace: str | None) -> bool:
    return seconds(pace) is not None


def next_deadlines(old: Mapping[int, float], before: Iterable[int], after: Iterable[int], actor: int, now: float,
                   length: float, bots: Iterable[int] = (), vacations: Mapping[int, float] | None = None) -> dict[int, float]:
    """The deadlines after a step: every awaited person (``after``: seats >= 0, not a bot) keeps the
    deadline they had while they stay awaited, and gets a fresh one (``length`` from ``now``, or
    from the end of their vacation) when their decision is new: not awaited ``before``, or they
    just acted (``actor``) and are awaited again, or they had none."""
    before, bots, vacations = set(before), set(bots), vacations or {}
    deadlines = {}
    for seat in sorted(after):
        if seat < 0 or seat in bots:
            continue
        if seat in before and seat != actor and seat in old:
            deadlines[seat] = old[seat]
        else:
            deadlines[seat] = max(now, vacations.get(seat) or 0.0) + length
    return deadlines


def changes(old: Mapping[int, float], new: Mapping[int, float]) -> dict[int, float | None]:
    """What the database must change: new or moved deadlines, and None for those that are gone.
    Deadlines that stay are left alone (a vacation may have moved them in the database meanwhile)."""
    changed: dict[int, float | None] = {seat: due for seat, due in new.items() if old.get(seat) != due}
    changed.update({seat: None for seat in old if seat not in new})
    return changed
