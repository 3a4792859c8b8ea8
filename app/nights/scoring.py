"""The night's scoreboard, from the finishing places of its matches (pure arithmetic, no database).

Points per match go by the *place* a player finished in, the place the match's end panel and
replay show ("Rank 2"; one rule, app/places.py), so the points and the rank shown always
agree: "places" gives 3/2/1 to the 1st/2nd/3rd place and 0 below; "wins" gives 1 to every first
place. A player's place is their rank + 1 (ranks as the match result gives them: 0 is first, ties
share a rank, so two shared firsts get 3 each). In a team game the places are the teams': a
team's place is 1 + the number of teams that did strictly better, and each of its players gets
that place's points, so the losing team of two is 2nd and each of its players gets 2 (not the 3rd
place, 1 point, that its players' rank 2, "two seats did better", would make). An abandonment
counts last, as for ratings (the recorded rank): the one case where the night's place differs
from the end panel's (which shows what the bot that played for them did), and then the places
below it are not closed up (Peribit, the winner abandoned: the night has Ben 2nd, Cho 3rd, the
abandoner 4th). An aborted match gives nobody points or a place.

Totals add them up. Everyone who played in the night is on the board, a member who left included
(they keep their points); a member who has not yet finished a match that counted (a late joiner,
a bot whose first match is still being played) is listed after them without a place.

Best of N: the night ends after N matches that are over, or as soon as the leader cannot be
caught: their total is more than anyone else's total plus the most points the matches still to
play could give them (``decided``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.places import places

SCORINGS = ("places", "wins")
PLACES = (3, 2, 1)


def points(scoring: str, rank: int | None) -> int:
    """One player's points for finishing at 0-based ``rank`` (their place - 1; None: no place)."""
    if rank is None:
        return 0
    if scoring == "wins":
        return 1 if rank == 0 else 0
    return PLACES[rank] if 0 <= rank < len(PLACES) else 0


def best_points(scoring: str) -> int:
    """The most points one match gives one player."""
    return 1 if scoring == "wins" else PLACES[0]


@dataclass
class Played:
    """A match of the night that is over: each player's rank as recorded (None: aborted, or no
    rank) and, for a team game, its teams (lists of player ids)."""

    match_id: str
    ranks: dict[str, int | None]
    teams: list[list[str]] | None = None


@dataclass
class Board:
    scoring: str
    players: list[str]  # everyone on the board, in the order of their first appearance
    per_match: list[dict[str, int]] = field(default_factory=list)  # points of each match that is over
    per_match_places: list[dict[str, int | None]] = field(default_factory=list)  # and each one's place there
    totals: dict[str, int] = field(default_factory=dict)

    def has_played(self, player: str) -> bool:
        """Whether the player has a place in a match that is over (an aborted one gives none)."""
        return self.first_played(player) is not None

    def first_played(self, player: str) -> int | None:
        """The index (in ``per_match``) of the first match over in which the player has a place."""
        return next((i for i, where in enumerate(self.per_match_places) if where.get(player) is not None), None)

    def cumulative(self, player: str) -> list[int]:
        """The player's running total after each match (0 for a match they did not play)."""
        out, total = [], 0
        for match in self.per_match:
            total += match.get(player, 0)
            out.append(total)
        return out

    def standings(self) -> list[tuple[int | None, str, int]]:
        """(place, player, total), best first; equal totals share a place (1, 1, 3). Whoever has
        not played a match that counted yet comes last, without a place (None)."""
        ranked = [p for p in self.players if self.has_played(p)]
        waiting = [p for p in self.players if not self.has_played(p)]
        order = sorted(ranked, key=lambda p: (-self.totals.get(p, 0), self.players.index(p)))
        out: list[tuple[int | None, str, int]] = []
        for i, player in enumerate(order):
            total = self.totals.get(player, 0)
            place = out[-1][0] if out and out[-1][2] == total else i + 1
            out.append((place, player, total))
        return out + [(None, player, self.totals.get(player, 0)) for player in waiting]


def board(scoring: str, members: list[str], played: list[Played]) -> Board:
    players = list(members)
    result = Board(scoring, players)
    for match in played:
        where = places(match.ranks, match.teams)
        for player in match.ranks:
            if player not in players:
                players.append(player)
        result.per_match_places.append(where)
        result.per_match.append({player: points(scoring, place - 1 if place is not None else None)
                                 for player, place in where.items()})
    result.totals = {p: sum(m.get(p, 0) for m in result.per_match) for p in players}
    return result


def decided(scoring: str, best_of: int | None, totals: dict[str, int], played: int) -> str | None:
    """Why a best-of-N night is over after ``played`` matches: "played" (all N), "decided" (the
    leader cannot be caught), or None (it goes on; always None without best-of-N)."""
    if best_of is None:
        return None
    if played >= best_of:
        return "played"
    ranked = sorted(totals.values(), reverse=True)
    if len(ranked) < 2:
        return None
    return "decided" if ranked[0] > ranked[1] + (best_of - played) * best_points(scoring) else None
