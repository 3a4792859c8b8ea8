"""Game nights (issue 33, app/nights): the REST API, the night's charts and its link preview.

A night's id is a secret link like a room's: whoever holds it may read the night (spectators
follow it); playing in it takes a player token; the host alone changes it, opens the next table
and ends it (or, when the night lets the group choose, the members' votes open the next table).
Reads and pictures are throttled per token and address (``nights``), the link preview's picture
more tightly still (``previews``: drawing one costs CPU); changes take the same
credits as room changes (``actions``), a new table a room's (``rooms``)."""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

import engines
from app.deps import CurrentPlayer, DbDep, HubDep, SettingsDep
from app.limits.rest import rate_limit
from app.nights import charts, service
from app.routers.rooms import RATE_LIMITED
from app.schemas import ID_PATTERN, JsonObject, RoomId

router = APIRouter(prefix="/api/nights", tags=["nights"])
READ: dict[str, Any] = dict(dependencies=[rate_limit("nights")], responses={**RATE_LIMITED, 404: {"description": "`not_found`"}})
CHANGE_ERRORS = {**RATE_LIMITED, 403: {"description": "`not_host`, `not_a_member`"},
                 404: {"description": "`not_found`"}, 409: {"description": "`night_over`, `night_full`, `not_a_member`"}}


class NightSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scoring: Literal["places", "wins"] | None = Field(default=None, description="3/2/1/0 by place, or 1 per win")
    best_of: int | None = Field(default=None, ge=1, le=service.MAX_BEST_OF, strict=True,
                                description="end after this many matches, or when nobody can catch the leader")
    choose: Literal["host", "vote"] | None = Field(default=None, description="who picks the next game")


class NewNight(NightSettings):
    room_id: str = Field(pattern=ID_PATTERN, max_length=64, description="the host's table, before its start: the night's first")


class NightChange(NightSettings):
    no_best_of: bool = Field(default=False, description="true: play on without best-of-N")


class Vote(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, json_schema_extra={"enum": [*engines.ids()]})


class Next(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str | None = Field(default=None, max_length=40, json_schema_extra={"enum": [*engines.ids()]},
                             description="default: the group's vote, else the same game")
    options: JsonObject | None = Field(default=None, description="default: the same options (same game) or the game's")


class Leave(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player_id: str | None = Field(default=None, pattern=ID_PATTERN, max_length=32,
                                  description="the host marks someone gone; default the caller")


def _base(settings) -> str:
    return settings.invite_base()


async def _night(db, night_id: str, settings) -> dict:
    return await db.run(service.read, night_id, _base(settings))


@router.post("", status_code=201, dependencies=[rate_limit("rooms")], responses={
    **RATE_LIMITED, 403: {"description": "`not_host`"},
    409: {"description": "`room_not_open`, `already_a_night`"}, 404: {"description": "`not_found`: no such room"}})
async def create_night(body: NewNight, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep) -> dict:
    """Make the caller's table (not started yet) the first of a game night: everyone seated plays
    in it; the scoreboard counts from its first match."""
    chosen = service.Settings(body.scoring or "places", body.best_of, body.choose or "host")
    async with hub.lock(body.room_id):
        night_id = await db.run(service.create, player.id, body.room_id, chosen)
        await hub.refresh(body.room_id)  # its seats learn they play in a night
    return await _night(db, night_id, settings)


@router.get("/{night_id}", **READ)
async def get_night(night_id: RoomId, db: DbDep, settings: SettingsDep) -> dict:
    """The night: settings, players, the current table, every match with its points and replay,
    the standings and each player's running total match by match."""
    return await _night(db, night_id, settings)


@router.patch("/{night_id}", dependencies=[rate_limit("actions")], responses=CHANGE_ERRORS)
async def change_night(night_id: RoomId, body: NightChange, player: CurrentPlayer, db: DbDep,
                       settings: SettingsDep) -> dict:
    """The host switches the scoring (places or wins only), best-of-N or who picks the next game."""
    values = {k: v for k, v in body.model_dump(exclude={"no_best_of"}).items() if v is not None}
    if body.no_best_of:
        values["best_of"] = None
    await db.run(service.change, night_id, player.id, values)
    return await _night(db, night_id, settings)


@router.post("/{night_id}/join", dependencies=[rate_limit("actions")], responses=CHANGE_ERRORS)
async def join_night(night_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep) -> dict:
    """Play in the night: at once when its table has not started and has a free seat, else from
    the next table on."""
    table: str | None = await db.run(service.current_room_id, night_id)
    async with hub.lock(table or night_id):  # its table's seats change: as a room join, one at a time
        seated = await hub.write(_join, night_id, player.id)  # (on SQLite one at a time with renames)
        if seated:
            await hub.refresh(seated)
    return await _night(db, night_id, settings)


def _join(session_factory, night_id: str, player_id: str) -> str | None:
    with session_factory() as session:
        return service.join(session, night_id, player_id)


@router.post("/{night_id}/leave", dependencies=[rate_limit("actions")], responses=CHANGE_ERRORS)
async def leave_night(night_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep,
                      body: Leave | None = Body(default=None)) -> dict:
    """Leave the night (points are kept; not seated at the next tables). The host may mark a
    member who is gone."""
    table: str | None = await db.run(service.current_room_id, night_id)
    async with hub.lock(table or night_id):  # its table's seats change: as a room leave, one at a time
        freed = await db.run(service.leave, night_id, player.id, body.player_id if body else None)
        if freed:
            await hub.refresh(freed)
    return await _night(db, night_id, settings)


@router.post("/{night_id}/vote", dependencies=[rate_limit("actions")], responses=CHANGE_ERRORS)
async def vote_next(night_id: RoomId, body: Vote, player: CurrentPlayer, db: DbDep, hub: HubDep,
                    settings: SettingsDep) -> dict:
    """A member's pick for the next game; when the group chooses and everyone present has voted
    after the match, the next table opens with the most voted game."""
    opened = await db.run(service.vote, night_id, player.id, body.game)
    if opened is not None:
        await _moved(hub, opened)
    return await _night(db, night_id, settings)


@router.post("/{night_id}/next", dependencies=[rate_limit("rooms")], responses={
    **CHANGE_ERRORS, 409: {"description": "`table_not_over`, `night_over`, `night_full`"},
    422: {"description": "`unknown_game`, `bad_options`"}})
async def next_table(night_id: RoomId, player: CurrentPlayer, db: DbDep, hub: HubDep, settings: SettingsDep,
                     body: Next | None = Body(default=None)) -> dict:
    """The host opens the night's next table after a match: everyone present is seated (the game's
    size allowing; bots sit out first), and the match starts at once when every seat is taken.
    The old table points to the new one, so every page there follows."""
    body = body or Next()
    opened = await db.run(service.open_next, night_id, player.id, body.game, body.options)
    await _moved(hub, opened)
    return await _night(db, night_id, settings)


@router.post("/{night_id}/end", dependencies=[rate_limit("actions")], responses=CHANGE_ERRORS)
async def end_night(night_id: RoomId, player: CurrentPlayer, db: DbDep, settings: SettingsDep) -> dict:
    await db.run(service.end, night_id, player.id)
    return await _night(db, night_id, settings)


async def _moved(hub, opened: service.NextTable) -> None:
    """Every page of the old table learns where the night went; the new match runs (here, or on
    whichever process of a cluster takes it: ``attach_match`` claims it like a Start)."""
    await hub.refresh(opened.old_room_id)
    if opened.match_id:
        await hub.attach_match(opened.room_id, opened.match_id)
    else:
        await hub.refresh(opened.room_id)


# --- pictures ------------------------------------------------------------------------------------

WORDS = {
    "en": {"title": "Points after each match", "desc": "Each player's running total of points, match by match.",
           "y": "points (running total)", "x": "match", "match": "{n}", "heading": "Game night: final standings",
           "heading_on": "Game night: standings after {n} matches", "unit": "pts", "bot": "Bot {n}"},
    "ja": {"title": "各対戦後の得点", "desc": "各プレイヤーの累計得点(対戦ごと)。", "y": "累計得点", "x": "対戦",
           "match": "{n}", "heading": "ゲームナイト 最終順位", "heading_on": "ゲームナイト {n}戦後の順位", "unit": "点",
           "bot": "ボット{n}"},
}
_BOT_NAME = re.compile(r"^Bot (\d+)$")


def shown_names(night: dict, lang: str) -> dict[str, str]:
    """Each player's name as the page in ``lang`` shows it: a bot named "Bot 1" is "ボット1" on a
    Japanese page (static/i18n.js ``shownName``); other names as they are."""
    out = {}
    for player in night["players"]:
        bot = _BOT_NAME.match(player["name"]) if player.get("bot") else None
        out[player["player_id"]] = WORDS[lang]["bot"].format(n=bot.group(1)) if bot else player["name"]
    return out


def night_chart(night: dict, lang: str) -> str:
    """One line per player who has played a match that counted (a member still waiting for their
    first has no line yet), in the page's language. A line starts at the player's first match: a
    late joiner's is not drawn along 0 through the matches before they came."""
    words = WORDS[lang]
    names = shown_names(night, lang)
    shown = [s for s in night["standings"] if s["place"] is not None]

    def line(standing: dict) -> list[float | None]:
        first = standing.get("first_match") or 0  # (the index of the player's first match that counted)
        return [None if i < first else float(v) for i, v in enumerate(standing["cumulative"])]

    # a player keeps their colour, dash and marker from match to match (by their place among the
    # night's players, not in the standings, which change)
    style = {player["player_id"]: n for n, player in enumerate(night["players"])}
    series = [charts.Series(s["player_id"], names.get(s["player_id"], s["name"]), line(s), style=style.get(s["player_id"]))
              for s in shown]
    labels = [words["match"].format(n=i + 1) for i in range(night["played"])]
    desc = words["desc"] + " " + "; ".join(f'{names.get(s["player_id"], s["name"])}: {s["total"]}' for s in shown)
    return charts.line_chart(series, labels, words["title"], desc, words["y"], from_zero=True, chart_id="night-chart",
                             x_label=words["x"])


def standings_lines(night: dict, lang: str) -> list[tuple[str, str, int]]:
    """The picture's (place, name, points) lines: names as the page in ``lang`` shows them, "–"
    for someone who has no place yet."""
    names = shown_names(night, lang)
    return [(str(s["place"]) if s["place"] is not None else "–", names.get(s["player_id"], s["name"]), int(s["total"]))
            for s in night["standings"]]


@router.get("/{night_id}/chart.svg", **READ, response_class=Response)
async def chart(night_id: RoomId, db: DbDep, settings: SettingsDep,
                lang: Annotated[Literal["en", "ja"], Query()] = "en") -> Response:
    """Each player's running total after each match, one line per player (SVG)."""
    night = await _night(db, night_id, settings)
    return Response(night_chart(night, lang), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


# Pictures are drawn in one thread of their own: many asked at once wait for it, and never take the
# event loop's default executor (the readiness probe's database ping and the hub's writes use it)
# nor more than one core.
_DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="night-pictures")
_PICTURES_BYTES = 32 * 1024 * 1024  # some 1,000 pictures of ~30 KB


class Pictures:
    """An app's rendered pictures by what they show (heading, lines, unit: a night's state in one
    language; two nights that look the same share one), the least recently asked dropped past
    ``_PICTURES_BYTES``, so a picture is drawn once per state and language however many nights are
    asked in turn. A picture being drawn is in ``being_drawn``: a request for the same one waits
    for that drawing instead of drawing it again."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple, bytes] = OrderedDict()
        self.kept_bytes = 0
        self.being_drawn: dict[tuple, Future] = {}
        self.lock = threading.RLock()  # (a drawing done already calls _drawn at once, holding it)

    async def get(self, key: tuple, *args) -> bytes:
        with self.lock:
            picture = self.kept.get(key)
            if picture is not None:
                self.kept.move_to_end(key)
                return picture
            drawing = self.being_drawn.get(key)
            if drawing is None:
                drawing = self.being_drawn[key] = _DRAWING.submit(charts.standings_png, *args)
                drawing.add_done_callback(lambda done: self._drawn(key, done))
        # shielded: a client that goes away does not cancel the drawing the others wait for
        return await asyncio.shield(asyncio.wrap_future(drawing))

    def _drawn(self, key: tuple, drawing: Future) -> None:
        """(In the drawing thread, once a picture is drawn.) Keep it; drop the oldest past the bound."""
        with self.lock:
            self.being_drawn.pop(key, None)
            if drawing.cancelled() or drawing.exception() is not None:
                return
            picture = drawing.result()
            self.kept[key] = picture
            self.kept_bytes += len(picture)
            while self.kept_bytes > _PICTURES_BYTES and len(self.kept) > 1:
                self.kept_bytes -= len(self.kept.popitem(last=False)[1])


def _pictures(app) -> Pictures:
    pictures = getattr(app.state, "night_pictures", None)
    if pictures is None:
        pictures = app.state.night_pictures = Pictures()
    return pictures


@router.get("/{night_id}/standings.png", dependencies=[rate_limit("nights"), rate_limit("previews")],
            responses=READ["responses"], response_class=Response)
async def standings_image(night_id: RoomId, request: Request, db: DbDep, settings: SettingsDep,
                          lang: Annotated[Literal["en", "ja"], Query()] = "en") -> Response:
    """The link preview of the night (1200×630 PNG): the standings, final once the night is over.
    Throttled on its own too (``previews``, per token and address), more tightly than reads."""
    night = await _night(db, night_id, settings)
    words = WORDS[lang]
    heading = words["heading"] if night["status"] == "over" else words["heading_on"].format(n=night["played"])
    lines = standings_lines(night, lang)
    picture = await _pictures(request.app).get((heading, tuple(lines), words["unit"]), heading, lines, words["unit"])
    return Response(picture, media_type="image/png", headers={"Cache-Control": "no-cache"})

