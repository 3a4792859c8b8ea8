"""The night's scoreboard, from the finishing places of its matches (pure arithmetic, no database).

Points per match: "places" gives 3/2/1 to the 1st/2nd/3rd place and 0 below (a place is the
match result's rank + 1; ties share a rank, so two shared firsts get 3 each); "wins" gives 1 to
every first place. An aborted match gives nobody points. Totals add them up; everyone who played
in the night is on the board, a member who left included (they keep their points).

Best of N: the night ends after N matches that are over, or as soon as the leader cannot be
caught: their total is more than anyone else's total plus the most points the matches still to
play could give them (``decided``)."""

from __future__ import annotations

from dataclasses import dataclass, field

SCORINGS = ("places", "wins")
PLACES = (3, 2, 1)


def points(scoring: str, rank: int | None) -> int:
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
    """A match of the night that is over: each player's rank (None: aborted, or no rank)."""

    match_id: str
    ranks: dict[str, int | None]


@dataclass
class Board:
    scoring: str
    players: list[str]  # everyone on the board, in the order of their first appearance
    per_match: list[dict[str, int]] = field(default_factory=list)  # points of each match that is over
    totals: dict[str, int] = field(default_factory=dict)

    def cumulative(self, player: str) -> list[int]:
        """The player's running total after each match (0 for a match they did not play)."""
        out, total = [], 0
        for match in self.per_match:
            total += match.get(player, 0)
            out.append(total)
        return out

    def standings(self) -> list[tuple[int, str, int]]:
        """(place, player, total), best first; equal totals share a place (1, 1, 3)."""
        order = sorted(self.players, key=lambda p: (-self.totals.get(p, 0), self.players.index(p)))
        out: list[tuple[int, str, int]] = []
        for i, player in enumerate(order):
            total = self.totals.get(player, 0)
            place = out[-1][0] if out and out[-1][2] == total else i + 1
            out.append((place, player, total))
        return out


def board(scoring: str, members: list[str], played: list[Played]) -> Board:
    players = list(members)
    result = Board(scoring, players)
    for match in played:
        got = {}
        for player, rank in match.ranks.items():
            if player not in players:
                players.append(player)
            got[player] = points(scoring, rank)
        result.per_match.append(got)
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
