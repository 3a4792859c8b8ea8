"""Who sits where at a night's next table, who moves first, and the teams (pure; no database).

- Everyone present is seated again: the members who have not left, people first; bots fill the
  seats people leave (a bot sits out before a person does). When a game takes fewer players than
  are present, those who played the fewest of the night's matches sit in, then by arrival.
  Fewer than the game needs: the other seats stay free for the host to fill (a bot) or for
  someone to join before the start.
- Seats go round: the seat order is the arrival order turned by one for every match played.
- The first player rotates: of the people seated, the one who has moved first least often this
  night (then the one who moved first longest ago, then by arrival) is given the first move.
- Teams are mixed fairly: of the candidate deals, the one whose teams put together the fewest
  pairs of players who were teammates before tonight wins.

The last two are decided by choosing the match's seed among a few random candidates by what every
seat sees at the start anyway (who moves first, the public teams); nothing hidden depends on the
choice, and each candidate seed is as random as any other."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from itertools import combinations
from typing import Any

# How many random seeds a night's match may try for the wanted first player and teams.
SEED_CANDIDATES = 48


@dataclass
class Present:
    player_id: str
    bot: bool
    seq: int  # arrival order in the night
    played: int = 0  # the night's matches they sat in
    bot_level: str | None = None


def seat_order(present: list[Present], min_players: int, max_players: int, played_matches: int) -> tuple[int, list[Present]]:
    """(number of seats, who sits, in seat order) for a game of ``min_players``-``max_players``."""
    people = sorted((p for p in present if not p.bot), key=lambda p: (p.played, p.seq))
    bots = sorted((p for p in present if p.bot), key=lambda p: (p.played, p.seq))
    seated = people[:max_players]
    seated += bots[:max(0, max_players - len(seated))]
    seated.sort(key=lambda p: p.seq)
    if seated:
        turn = played_matches % len(seated)
        seated = seated[turn:] + seated[:turn]
    return max(min_players, min(max_players, len(seated))), seated


def first_mover(seated: list[str | None], bots: set[str], seq: dict[str, int],
                firsts: list[str | None]) -> str | None:
    """The seated person who should move first: fewest first moves tonight, then longest ago, then
    arrival. Bots take a turn only at a table of bots."""
    people = [p for p in seated if p is not None and p not in bots] or [p for p in seated if p is not None]
    if not people:
        return None

    def key(player: str) -> tuple:
        count = sum(1 for f in firsts if f == player)
        last = max((i for i, f in enumerate(firsts) if f == player), default=-1)
        return (count, last, seq.get(player, 1 << 30))

    return min(people, key=key)


def pair_counts(teams_before: list[list[list[str]]]) -> dict[frozenset, int]:
    """How often each pair of players were teammates in the night's earlier team games."""
    counts: dict[frozenset, int] = {}
    for teams in teams_before:
        for team in teams:
            for a, b in combinations(team, 2):
                key = frozenset((a, b))
                counts[key] = counts.get(key, 0) + 1
    return counts


def choose_seed(engine, num_seats: int, options: dict, players: list[str | None], first_seat: int | None,
                together: dict[frozenset, int], candidates: int = SEED_CANDIDATES) -> tuple[int, Any]:
    """A random seed (and its new game) whose first player is ``first_seat`` and whose teams repeat
    the fewest earlier pairings, among ``candidates`` random seeds (the first that is perfect wins)."""
    best: tuple | None = None
    for _ in range(max(1, candidates)):
        seed = secrets.randbits(63)
        state = engine.new_game(num_seats, seed, options)
        miss = 0 if first_seat is None or engine.first_player(state) == first_seat else 1
        teams = engine.teams(state) or []
        repeats = sum(together.get(frozenset((players[a], players[b])), 0)
                      for team in teams for a, b in combinations(team, 2)
                      if players[a] is not None and players[b] is not None)
        score = (miss, repeats)
        if best is None or score < best[0]:
            best = (score, seed, state)
        if score == (0, 0):
            break
    assert best is not None, "at least one candidate"
    return best[1], best[2]
