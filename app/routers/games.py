"""The game catalog."""

from fastapi import APIRouter

import engines
from app.schemas import GameInfo

router = APIRouter(prefix="/api/games", tags=["games"])

# Japanese titles for the catalog: presentation, so kept here rather than in the (pure) engines.
TITLES_JA = {
    "synomilia": "シノミリア",
    "peribit": "ペリビット",
    "three_magic": "スリーマジック",
    "mipolin": "みぽりん・ざ・げーむ",
    "makelandia": "マケランディア",
}


@router.get("", response_model=list[GameInfo])
def list_games() -> list[GameInfo]:
    return [GameInfo(id=e.id, title=e.title, title_ja=TITLES_JA.get(e.id, e.title),
                     min_players=e.min_players, max_players=e.max_players,
                     options=list(e.options), rules_url=f"/static/rules/{e.id}.html")
            for e in engines.all_engines()]
