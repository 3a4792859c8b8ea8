"""HTML entry points: the landing page and a room's invite link both load the browser client."""

from fastapi import APIRouter
from fastapi.responses import FileResponse

from app.settings import ROOT

router = APIRouter(include_in_schema=False)
INDEX = ROOT / "static" / "index.html"


@router.get("/")
def landing() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/r/{room_id}")
def room_page(room_id: str) -> FileResponse:
    return FileResponse(INDEX)
