"""OpenSkill ratings (Plackett–Luce) per game, and the per-seat results of every match that is over.

Rules (kept simple so a re-rating from scratch gives exactly the incremental numbers):
- Only finished matches are rated; aborted ones get result rows but no rating change.
- A match with a bot seat from its start (in ``match.seats``) is not rated at all: a win against a
  bot says little, and rating only the humans of a mixed match would rate them against an opponent
  that has no rating. Nor is a match at a table the host made unrated (``match.rated`` false, a
  casual table). A bot the host seats later in place of a leaver plays for someone who abandoned
  the match (its abandonment is written with it), as a zombie seat's bot does (below); the host
  cannot seat one in their own seat (``own_seat``).
- A bot that played for an absent player (a zombie seat, ``Abandonment``) does not void the match:
  an abandonment counts as a loss for the leaver (ranked after every seat that was not abandoned,
  as lichess counts it), and the others' results stand as played. In a team game the leaver's
  team is ranked after the teams without a leaver. Rage-quitting cannot make a lost match unrated.
- Free-for-all games rate by ``outcome["ranks"]`` (0 = best, ties share a rank: a draw is a draw).
  Team games (``outcome["teams"]`` set) rate the teams as units; a team's rank is its best
  member's rank.
- Matches are rated in the order (finished_at, match id); ``rerate`` replays exactly that order.
- A player is provisional while sigma >= ``PROVISIONAL_SIGMA``.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import cast

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from app import store
from app.models import Match, MatchResult, Player, PlayerRating, Room, RoomSeat

MODEL = PlackettLuce()
# Sigma starts at 25/3 ≈ 8.33 and falls by roughly 0.1–0.3 per rated two-player match.
PROVISIONAL_SIGMA = 7.0


def display_rating(mu: float, sigma: float) -> float:
    """The conservative rating shown to players (openskill's ordinal with z = 3)."""
    return mu - 3 * sigma


# The figure players read: the skill estimate μ on the scale people know from lichess, where
# everyone starts at 1500 (μ 25 × 60), marked "?" while provisional ("1500?"). The conservative
# ``rating`` (μ − 3σ) still orders the leaderboard, so a lucky newcomer does not top it, but it is
# no longer what a new player is shown: it starts at 0 and goes negative after a first loss.
SHOWN_SCALE = 60


def shown(mu: float, sigma: float) -> str:
    figure = str(round(SHOWN_SCALE * mu))
    return f"{figure}?" if sigma >= PROVISIONAL_SIGMA else figure


def shown_change(mu_before: float, mu_after: float) -> int:
    """How far the figure players read (``shown``) moved: 1500 → 1523 is +23."""
    return round(SHOWN_SCALE * mu_after) - round(SHOWN_SCALE * mu_before)


def describe(mu: float, sigma: float) -> dict:
    return {"rating": round(display_rating(mu, sigma), 3), "mu": round(mu, 3), "sigma": round(sigma, 3),
            "provisional": sigma >= PROVISIONAL_SIGMA, "shown": shown(mu, sigma)}


def player_tag(player_id: str) -> str:
    """A short, stable tag that tells two players of the same name apart ("Aya #k3f9q2")."""
    return "#" + player_id[:6]


# Built once: every finished match asks them, in the action writer's batch transaction. The seats
# of the match's room a bot holds now, while the room is still on that match (a bot the host seats
# after it, for a rematch in the same room, is the next match's, which names it in its seats).
_BOT_SEATS = (select(RoomSeat.seat).join(Player, RoomSeat.player_id == Player.id)
              .join(Room, Room.id == RoomSeat.room_id)
              .where(RoomSeat.room_id == bindparam("b_room"), Room.match_id == bindparam("b_match"),
                     Player.is_bot.is_(True)))


def unrated_reason(session: Session, match: Match | store.FinishedMatch,
                   abandoned: AbstractSet[int] | None = None) -> str | None:
    """Why this match does not change ratings, or None when it does (``abandoned``: the match's
    abandoned seats when the caller has read them already)."""
    if match.status == "aborted":
        return "the match was aborted"
    if match.status != "finished" or not match.outcome or match.outcome.get("ranks") is None:
        return "the match did not finish"
    if getattr(match, "rated", True) is False:
        return "the table was unrated"
    if any(seat.get("bot") for seat in match.seats):
        return "a bot played"
    # Abandonments before the bots the host seated: a leaver's seat a bot took over is abandoned
    # (written with the bot, app/rooms/bots.py), so it counts as the leaver's loss, as a zombie
    # seat does; leaving and then a bot in the seat must never make a lost match unrated.
    if abandoned is None:
        abandoned = abandoned_seats(session, match.id)
    if len(abandoned) >= len(match.seats):
        return "every player left"  # bots played it out for all of them: nobody's result to rate
    taken_over = session.connection().execute(_BOT_SEATS, {"b_room": match.room_id, "b_match": match.id}).scalars()
    if set(taken_over) - abandoned:
        return "a bot took over a seat"  # in place of a leaver whose abandonment was never written
    ids = [seat["player_id"] for seat in match.seats]
    if len(set(ids)) != len(ids):
        return "one player held several seats"
    return None


def abandoned_seats(session: Session, match_id: str) -> AbstractSet[int]:
    return store.abandoned_seats(session.connection(), match_id)


def counted_ranks(ranks: list[int], abandoned: AbstractSet[int], teams: list | None = None) -> list[int]:
    """The ranks as rated and recorded: a seat (in a team game, a team) whose player abandoned the
    match comes after every other, whatever the bot that played for them did."""
    if not abandoned:
        return list(ranks)
    last = max(ranks) + 1
    if teams:
        out = list(ranks)
        for team in teams:
            if set(team) & abandoned:
                for s in team:
                    out[s] = last
        return out
    return [last if s in abandoned else rank for s, rank in enumerate(ranks)]


def _groups(match: Match, ranks: list[int]) -> tuple[list[list[int]], list[int]]:
    """Seats grouped into rated units (one per seat, or one per team) and each unit's rank."""
    teams = (match.outcome or {}).get("teams")
    if teams:
        groups = [list(team) for team in teams if team]
        return groups, [min(ranks[s] for s in group) for group in groups]
    return [[s] for s in range(len(ranks))], list(ranks)


def record_result(session: Session, match: Match | store.FinishedMatch,
                  abandoned: AbstractSet[int] | None = None) -> None:
    """Write the match's result rows and, when it is rated, update the players' ratings
    (``abandoned``: as for ``unrated_reason``).

    Runs inside the transaction that marks the match finished (a ``store.finish_hooks`` entry) or
    aborted, so ratings and the outcome are committed together or not at all."""
    finished_at = match.finished_at or match.started_at
    ranks = (match.outcome or {}).get("ranks") if match.status == "finished" else None
    if ranks:
        if abandoned is None:
            abandoned = abandoned_seats(session, match.id)
        ranks = counted_ranks(ranks, abandoned, (match.outcome or {}).get("teams"))
    rows = [{"match_id": match.id, "seat": i, "player_id": seat["player_id"], "game": match.game,
             "status": match.status, "rank": ranks[i] if ranks else None, "rated": False,
             "finished_at": finished_at, "mu_before": None, "sigma_before": None, "mu_after": None,
             "sigma_after": None}
            for i, seat in enumerate(match.seats)]
    if ranks is not None and unrated_reason(session, match, abandoned) is None:  # (a rated match has ranks)
        _rate(session, match, rows, finished_at, ranks)
    session.connection().execute(_ADD_RESULTS, rows)


_RATINGS = PlayerRating.__table__
# Built once (every finished match runs them, in the action writer's batch transaction). The
# ratings are read locked, in player id order (one lock order: no deadlocks on PostgreSQL).
_LOCKED_RATINGS = (select(_RATINGS.c.player_id, _RATINGS.c.mu, _RATINGS.c.sigma, _RATINGS.c.games)
                   .where(_RATINGS.c.game == bindparam("b_game"), _RATINGS.c.player_id.in_(bindparam("b_ids", expanding=True)))
                   .order_by(_RATINGS.c.player_id).with_for_update())
_NEW_RATING = insert(_RATINGS)
_SET_RATING = update(_RATINGS).where(_RATINGS.c.player_id == bindparam("b_player"), _RATINGS.c.game == bindparam("b_game"))
_ADD_RESULTS = insert(MatchResult.__table__)


def _rate(session: Session, match, rows: list[dict], finished_at, ranks: list[int]) -> None:
    """Rate a finished match: every seat's rating before and after in its result row, and the
    players' ratings moved on (a player's first rated match starts from the model's prior)."""
    connection = session.connection()
    ids = sorted({row["player_id"] for row in rows})
    current = {r.player_id: r for r in connection.execute(_LOCKED_RATINGS, {"b_game": match.game, "b_ids": ids})}
    groups, group_ranks = _groups(match, ranks)
    seat_player = [row["player_id"] for row in rows]
    teams = [[MODEL.rating(mu=current[seat_player[s]].mu, sigma=current[seat_player[s]].sigma)
              if seat_player[s] in current else MODEL.rating(mu=MODEL.mu, sigma=MODEL.sigma) for s in group]
             for group in groups]
    new, changed = [], []
    for group, team, new_team in zip(groups, teams, MODEL.rate(teams, ranks=cast(list[float], group_ranks))):
        for seat, before, after in zip(group, team, new_team):
            player_id = seat_player[seat]
            rows[seat].update(rated=True, mu_before=before.mu, sigma_before=before.sigma,
                              mu_after=float(after.mu), sigma_after=float(after.sigma))
            values = {"mu": float(after.mu), "sigma": float(after.sigma), "updated_at": finished_at}
            if player_id in current:
                changed.append(dict(values, b_player=player_id, b_game=match.game,
                                    games=current[player_id].games + 1))
            else:
                new.append(dict(values, player_id=player_id, game=match.game, games=1))
    if new:
        connection.execute(_NEW_RATING, new)
    if changed:
        connection.execute(_SET_RATING, changed)


def on_match_finished(session: Session, match: store.FinishedMatch) -> None:
    record_result(session, match, match.abandoned)


def install() -> None:
    """Register the finish hook once (``create_app`` may run many times in one process)."""
    if on_match_finished not in store.finish_hooks:
        store.finish_hooks.append(on_match_finished)


def rerate(session: Session, game: str | None = None) -> int:
    """Rebuild every result row and rating from the matches, in the incremental order. Returns the
    number of matches processed. The caller commits."""
    query = select(Match).where(Match.status.in_(("finished", "aborted")))
    results, ratings = delete(MatchResult), delete(PlayerRating)
    if game:
        query = query.where(Match.game == game)
        results, ratings = results.where(MatchResult.game == game), ratings.where(PlayerRating.game == game)
    session.execute(results)
    session.execute(ratings)
    session.flush()
    count = 0
    for match in session.scalars(query.order_by(Match.finished_at, Match.id)):
        record_result(session, match)
        count += 1
    return count
