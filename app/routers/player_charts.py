"""A player's page in figures (issue 33.4): rating over time per game (provisional marked), results
per game, and recent game nights; and the rating chart drawn by the server (SVG, as the night's)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response
from sqlalchemy import select

import engines
from app import history, ratings
from app.deps import DbDep, OptionalPlayer
from app.errors import ApiError, not_found
from app.limits.rest import rate_limit
from app.models import MatchResult, Player
from app.nights import charts, service as nights
from app.routers.rooms import RATE_LIMITED
from app.schemas import PlayerId

router = APIRouter(tags=["ratings"])
READ: dict[str, Any] = dict(dependencies=[rate_limit("nights")], responses={**RATE_LIMITED, 404: {"description": "`not_found`"}})
# The most rated matches one game's history shows (the newest).
MAX_POINTS = 200


def _player(session, player_id: str) -> Player:
    player = session.get(Player, player_id) if len(player_id) <= 32 else None
    if player is None:
        raise not_found("player", player_id)
    return player


def rating_history(session, player_id: str, game: str) -> list[dict]:
    rows = list(session.scalars(select(MatchResult).where(MatchResult.player_id == player_id, MatchResult.game == game,
                                                          MatchResult.rated.is_(True))
                                .order_by(MatchResult.finished_at.desc(), MatchResult.id.desc()).limit(MAX_POINTS)))
    rows.reverse()
    return [{"match_id": r.match_id, "at": history.iso(r.finished_at), "shown": ratings.shown(r.mu_after, r.sigma_after),
             "value": round(ratings.SHOWN_SCALE * r.mu_after), "provisional": r.sigma_after >= ratings.PROVISIONAL_SIGMA}
            for r in rows if r.mu_after is not None and r.sigma_after is not None]


def stats(session, player_id: str, viewer_id: str | None) -> dict:
    player = _player(session, player_id)
    per_game: dict[str, dict] = {}
    for game, status, rank in session.execute(select(MatchResult.game, MatchResult.status, MatchResult.rank)
                                              .where(MatchResult.player_id == player.id)):
        entry = per_game.setdefault(game, {"game": game, "played": 0, "wins": 0, "places": [0, 0, 0, 0], "aborted": 0})
        entry["played"] += 1
        if status == "aborted" or rank is None:
            entry["aborted"] += 1
        else:
            entry["places"][min(rank, 3)] += 1
            entry["wins"] += rank == 0
    return {"player_id": player.id, "name": player.name,
            "results": [per_game[g] for g in engines.ids() if g in per_game],
            "rating_history": {g: rating_history(session, player.id, g) for g in engines.ids() if g in per_game},
            "nights": nights.player_nights(session, player.id, viewer_id)}


@router.get("/api/players/{player_id}/stats", **READ)
async def player_stats(player_id: PlayerId, db: DbDep, viewer: OptionalPlayer) -> dict:
    """Results per game (places 1st/2nd/3rd/later, aborted), rating over time per game (after each
    rated match; ``provisional`` while uncertain), and recent game nights (a night's id, its secret
    link, only for a viewer who played in it)."""
    return await db.run(stats, player_id, viewer.id if viewer else None)


CHART_WORDS = {
    "en": ("Rating over time: {game}", "{name}'s rating in {game} after each rated match; hollow markers are provisional.",
           "rating (? = provisional)"),
    "ja": ("レーティングの推移: {game}", "{name}の{game}のレーティング(レーティング対象の対戦ごと)。白抜きは暫定。", "レーティング(白抜き=暫定)"),
}


@router.get("/api/players/{player_id}/ratings.svg", **READ, response_class=Response)
async def rating_chart(player_id: PlayerId, db: DbDep, game: Annotated[str, Query(max_length=40)],
                       lang: Annotated[Literal["en", "ja"], Query()] = "en") -> Response:
    """The player's rating in one game after each rated match (SVG), provisional points hollow."""
    try:
        engine = engines.get(game)
    except ValueError as exc:
        raise ApiError(422, "unknown_game", str(exc)) from None

    def read(session) -> tuple[str, list[dict]]:
        return _player(session, player_id).name, rating_history(session, player_id, engine.id)

    name, points = await db.run(read)
    title, desc, y_label = CHART_WORDS[lang]
    shown = engine.title_ja if lang == "ja" else engine.title
    series = [charts.Series(engine.id, shown, [float(p["value"]) for p in points],
                            [bool(p["provisional"]) for p in points])]
    svg = charts.line_chart(series, [str(i + 1) for i in range(len(points))], title.format(game=shown),
                            desc.format(name=name, game=shown) + " " + ", ".join(p["shown"] for p in points), y_label,
                            chart_id=f"rating-{engine.id}")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
