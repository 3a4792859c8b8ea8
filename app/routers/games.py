"""The game catalog."""

from fastapi import APIRouter

import engines
from app.schemas import GameInfo

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameInfo])
def list_games() -> list[GameInfo]:
    return [GameInfo(id=e.id, title=e.title, title_ja=e.title_ja,
                     min_players=e.min_players, max_players=e.max_players,
                     options=list(e.options), rules_url=f"/static/rules/{e.id}.html")
            for e in engines.all_engines()]
