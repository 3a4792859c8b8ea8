"""HTML entry points: the landing page and a room's invite link both load the browser client."""

from fastapi import APIRouter
from fastapi.responses import FileResponse

from app.settings import ROOT

router = APIRouter(include_in_schema=False)
INDEX = ROOT / "static" / "index.html"
FAVICON = ROOT / "static" / "favicon.ico"


@router.get("/")
def landing() -> FileResponse:
    return FileResponse(INDEX)


@router.get("/r/{room_id}")
def room_page(room_id: str) -> FileResponse:
    return FileResponse(INDEX)


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """Browsers ask for /favicon.ico on every first load; answer it rather than 404."""
    return FileResponse(FAVICON, media_type="image/x-icon")
