"""Ratings for players: a leaderboard per game, a player's ratings, and their match history.
Declared after ``players.router`` so ``/api/players/me`` keeps its own route."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import func, select
from sqlalchemy.orm import aliased

import engines
from app import history, ratings
from app.accounts.models import Account
from app.deps import SessionDep, SettingsDep
from app.errors import ApiError, not_found
from app.models import Abandonment, Match, MatchResult, Player, PlayerRating
from app.places import places
from app.schemas import MAX_OFFSET, PlayerId

router = APIRouter(tags=["ratings"])


@router.get("/api/games/{game}/leaderboard")
def leaderboard(game: str, session: SessionDep, settings: SettingsDep, limit: Annotated[int, Query(ge=1, le=500)] = 100,
                include_provisional: bool = True) -> dict:
    """Rated players by conservative rating (mu - 3 sigma); provisional while sigma is high.
    Listed: claimed accounts that met at least ``min_opponents`` distinct claimed accounts in rated
    matches of the game (a guest's rating is on its own page only)."""
    try:
        engines.get(game)
    except ValueError as exc:
        raise ApiError(404, "unknown_game", str(exc)) from None
    order = (PlayerRating.mu - 3 * PlayerRating.sigma).desc()
    query = (select(PlayerRating, Player.name).join(Player, Player.id == PlayerRating.player_id)
             .where(PlayerRating.game == game))
    if not include_provisional:
        query = query.where(PlayerRating.sigma < ratings.PROVISIONAL_SIGMA)
    needed = settings.leaderboard_min_opponents
    if needed:
        query = query.where(PlayerRating.player_id.in_(select(Account.player_id)),
                            _claimed_opponents(game).correlate(PlayerRating).scalar_subquery() >= needed)
    rows = session.execute(query.order_by(order, PlayerRating.player_id).limit(limit)).all()
    return {"game": game, "provisional_sigma": ratings.PROVISIONAL_SIGMA, "min_opponents": needed, "entries": [
        {"rank": i + 1, "player_id": r.player_id, "name": name, "tag": ratings.player_tag(r.player_id), "games": r.games,
         **ratings.describe(r.mu, r.sigma)}
        for i, (r, name) in enumerate(rows)]}


def _claimed_opponents(game: str):
    """How many distinct claimed accounts the rating's player met in rated matches of ``game``
    (guest alts that lose on purpose count for nothing: docs/decisions/2026-12-07-leaderboard-eligibility.md)."""
    mine, theirs = aliased(MatchResult), aliased(MatchResult)
    return (select(func.count(func.distinct(theirs.player_id)))
            .select_from(mine)
            .join(theirs, theirs.match_id == mine.match_id)
            .join(Account, Account.player_id == theirs.player_id)
            .where(mine.player_id == PlayerRating.player_id, mine.game == game, mine.rated.is_(True),
                   theirs.player_id != mine.player_id, theirs.rated.is_(True)))


@router.get("/api/players/{player_id}")
def player_profile(player_id: PlayerId, session: SessionDep) -> dict:
    """A player's rating in every game they were rated in, and their latest matches."""
    player = _player(session, player_id)
    rows = session.scalars(select(PlayerRating).where(PlayerRating.player_id == player.id).order_by(PlayerRating.game))
    abandoned = session.scalar(select(func.count()).select_from(Abandonment).where(Abandonment.player_id == player.id))
    return {"id": player.id, "name": player.name, "tag": ratings.player_tag(player.id), "bot": player.is_bot,
            "abandoned": abandoned,  # matches where a bot had to play for them (zombie seats)
            "provisional_sigma": ratings.PROVISIONAL_SIGMA,
            "ratings": [{"game": r.game, "games": r.games, **ratings.describe(r.mu, r.sigma)} for r in rows],
            "recent_matches": _matches(session, player.id, None, 10, 0)}


@router.get("/api/players/{player_id}/matches")
def player_matches(player_id: PlayerId, session: SessionDep, game: Annotated[str | None, Query(max_length=40)] = None,
                   limit: Annotated[int, Query(ge=1, le=200)] = 50,
                   offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> dict:
    """Matches the player sat in that are over (running ones are never listed), newest first."""
    player = _player(session, player_id)
    return {"player_id": player.id, "matches": _matches(session, player.id, game, limit, offset)}


def _places(session, matches: list[Match]) -> dict[str, dict[int, int | None]]:
    """Each match's places by seat (1 = first; None: no rank, e.g. aborted), from every seat's
    recorded rank (an abandonment counts last, as for ratings) by the one rule (app/places.py),
    so a player's list says the place a game night counts. One query for the whole page."""
    recorded: dict[str, dict[int, int | None]] = {}
    rows = session.execute(select(MatchResult.match_id, MatchResult.seat, MatchResult.rank)
                           .where(MatchResult.match_id.in_([m.id for m in matches]))) if matches else []
    for row in rows:
        recorded.setdefault(row.match_id, {})[row.seat] = row.rank
    out = {}
    for match in matches:
        outcome = match.outcome or {}
        ranks = {**dict(enumerate(outcome.get("ranks") or [])), **recorded.get(match.id, {})}
        out[match.id] = places(ranks, outcome.get("teams"))
    return out


def _player(session, player_id: str) -> Player:
    player = session.get(Player, player_id) if len(player_id) <= 32 else None
    if player is None:
        raise not_found("player", player_id)
    return player


def _matches(session, player_id: str, game: str | None, limit: int, offset: int) -> list[dict]:
    query = (select(MatchResult, Match).join(Match, Match.id == MatchResult.match_id)
             .where(MatchResult.player_id == player_id))
    if game:
        query = query.where(MatchResult.game == game)
    rows = session.execute(query.order_by(MatchResult.finished_at.desc(), MatchResult.id.desc())
                           .limit(limit).offset(offset)).all()
    placed = _places(session, [match for _, match in rows])
    out = []
    for result, match in rows:
        change = history.rating_change(result) if result.rated else None
        out.append({"match_id": match.id, "game": match.game, "status": match.status, "seat": result.seat,
                    "rank": result.rank, "place": placed[match.id].get(result.seat), "rated": result.rated,
                    "rating_change": change,
                    "players": [s["name"] for s in match.seats], "reason": (match.outcome or {}).get("reason"),
                    "finished_at": history.iso(result.finished_at)})
    return out
