"""The place a player finished a match in (1 = first; None: no place, an aborted match): one rule
for everything that counts it. A player's match list (app/routers/leaderboard.py) and a game
night's points (app/nights/scoring.py) use this function on the recorded ranks, where an
abandonment counts last (as for ratings). The end panel and the replay in the browser
(static/end_panel.js ``placeOf``) say the place the game itself gave, from the outcome's ranks:
the same unless someone abandoned (their place there is what the bot that played for them did).

A place is the rank + 1 (0 is first, ties share a rank). In a team game the places are the teams':
a team's rank is its best member's (as for ratings), and its place 1 + the number of teams that did
strictly better, so the losing team of two is 2nd, not 3rd behind two winning seats."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

Who = TypeVar("Who", bound=Hashable)  # a seat number or a player id


def places(ranks: Mapping[Who, int | None], teams: Iterable[Iterable[Who]] | None = None) -> dict[Who, int | None]:
    """Each one's place from their ranks; ``teams``: lists of the same keys, for a team game."""
    if not teams:
        return {who: rank + 1 if rank is not None else None for who, rank in ranks.items()}
    team_of: dict[Hashable, Hashable] = {who: n for n, team in enumerate(teams) for who in team}
    best: dict[Hashable, int] = {}
    for who, rank in ranks.items():
        if rank is not None:
            key = team_of.get(who, who)  # (one in no team competes alone)
            best[key] = min(rank, best.get(key, rank))
    return {who: None if rank is None else 1 + sum(1 for r in best.values() if r < best[team_of.get(who, who)])
            for who, rank in ranks.items()}
