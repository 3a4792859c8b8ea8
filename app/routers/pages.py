"""HTML entry points: the landing page and a room's invite link both load the browser client, with
Open Graph tags for link previews (app/page_html.py); an unknown room or address opened in a
browser gets the not-found page in the site's look, while API clients (``/api/*``, or anything not
asking for HTML) keep getting JSON errors."""

from fastapi import APIRouter, Header, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

import engines
from app import page_html
from app.deps import DbDep, HubDep, SettingsDep
from app.errors import ApiError, http_error_response
from app.limits.rest import rate_limit
from app.nights import service as nights
from app.settings import ROOT

router = APIRouter(include_in_schema=False)


def html_page(request: Request, html: str, status_code: int = 200, preload: tuple[str, ...] = ()) -> HTMLResponse:
    """A page made here: its scripts and stylesheets at their fingerprinted URLs, the modules they
    import (and ``preload``'s) preloaded (app/assets.py), and revalidated on each visit, like the
    pages served from static/."""
    return HTMLResponse(request.app.state.assets.page(html, preload), status_code=status_code,
                        headers={"Cache-Control": "no-cache"})
FAVICON = ROOT / "static" / "favicon.ico"
ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@router.get("/")
def landing(request: Request, settings: SettingsDep, accept_language: str | None = Header(default=None)) -> HTMLResponse:
    return html_page(request, page_html.landing(settings.invite_base(), accept_language))


@router.get("/r/{room_id}")
async def room_page(room_id: str, request: Request, hub: HubDep, settings: SettingsDep,
                    accept_language: str | None = Header(default=None)) -> HTMLResponse:
    if not 0 < len(room_id) <= 64 or not set(room_id) <= ID_CHARS:
        return html_page(request, page_html.not_found(accept_language, "room"), status_code=404)
    try:
        summary = (await hub.room(room_id)).summary()
    except ApiError as exc:
        if exc.status != 404:
            raise
        return html_page(request, page_html.not_found(accept_language, "room"), status_code=404)
    engine = engines.get(summary["game"])
    # the table's module is fetched with the page's own (static/tables.js loads it after the room)
    return html_page(request, page_html.room(settings.invite_base(), summary, engine.title,
                                             engine.title_ja, accept_language),
                     preload=(f"games/{engine.id}.js",))


@router.get("/n/{night_id}", dependencies=[rate_limit("nights")])  # a database read each time: as the API
async def night_page(night_id: str, request: Request, db: DbDep, settings: SettingsDep,
                     accept_language: str | None = Header(default=None)) -> HTMLResponse:
    """A game night's shareable link (static/night.html with its link-preview tags)."""
    if not 0 < len(night_id) <= 64 or not set(night_id) <= ID_CHARS:
        return html_page(request, page_html.not_found(accept_language), status_code=404)
    try:
        night = await db.run(nights.read, night_id, settings.invite_base())
    except ApiError as exc:
        if exc.status != 404:
            raise
        return html_page(request, page_html.not_found(accept_language), status_code=404)
    return html_page(request, page_html.night(settings.invite_base(), night_id, night, accept_language))


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """Browsers ask for /favicon.ico on every first load; answer it rather than 404. Its URL cannot
    carry a fingerprint, so a week rather than a year."""
    return FileResponse(FAVICON, media_type="image/x-icon", headers={"Cache-Control": "public, max-age=604800"})


def wants_html(request: Request) -> bool:
    """A browser opening an address (not the API, not a script fetching JSON)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/")) or path == "/api":
        return False
    return "text/html" in request.headers.get("accept", "")


async def not_found_handler(request: Request, exc: StarletteHTTPException):
    """404 for a browser: the site's page; for everyone else the API's JSON error."""
    if exc.status_code == 404 and wants_html(request):
        return html_page(request, page_html.not_found(request.headers.get("accept-language")), status_code=404)
    if exc.status_code == 404:
        return JSONResponse(status_code=404, content={"error": {"code": "not_found", "message": f"nothing at {request.url.path}"}})
    return http_error_response(exc.status_code, str(exc.detail), getattr(exc, "headers", None))
