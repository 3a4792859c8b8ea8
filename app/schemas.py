"""Request and response bodies of the REST API (Pydantic v2)."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

import engines
from app import json_codec
from fastapi import Path
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

# Every number a client sends fits a JavaScript number exactly and every id a 64-bit database column.
MAX_INT = 2**53 - 1
MAX_DEPTH = 16
MAX_SEATS = 64
MAX_OFFSET = 1_000_000  # deepest page of any list


def json_problem(value: Any, depth: int = 0) -> str | None:
    """Why a client's JSON value cannot be taken as it is (None if it can): nesting deeper than
    MAX_DEPTH, integers beyond ±MAX_INT, NaN or infinities, NUL characters (PostgreSQL stores none),
    lone surrogates (no UTF-8 encoding: a database or a log line would fail on them)."""
    if depth > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return None if -MAX_INT <= value <= MAX_INT else f"integer {value} is out of range (±{MAX_INT})"
    if isinstance(value, float):
        return None if math.isfinite(value) else "numbers must be finite"
    if isinstance(value, str):
        if "\x00" in value:
            return "text must not contain NUL characters"
        return "text must be valid Unicode (a lone surrogate)" if json_codec.has_lone_surrogate(value) else None
    # (plain loops: every action frame of the live socket is checked, and generators cost more)
    if isinstance(value, list):
        for item in value:
            problem = json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            problem = json_problem(key, depth + 1) or json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    return f"unsupported value of type {type(value).__name__}"


def _plain_json(value: Any) -> Any:
    problem = json_problem(value)
    if problem:
        raise ValueError(problem)
    return value


JsonObject = Annotated[dict[str, Any], AfterValidator(_plain_json)]
Version = Annotated[int, Field(ge=0, le=MAX_INT, strict=True)]
SeatNumber = Annotated[int, Field(ge=0, lt=MAX_SEATS, strict=True)]


ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
RoomId = Annotated[str, Path(pattern=ID_PATTERN, description="the room's id (the secret of its invite link)")]
MatchId = Annotated[str, Path(pattern=ID_PATTERN)]
PlayerId = Annotated[str, Path(pattern=ID_PATTERN)]


def _options_schema(schema: dict) -> None:
    """Every game's room options with their types and ranges (which ones a game takes: GET /api/games)."""
    kinds = {"int": "integer", "float": "number", "bool": "boolean"}
    properties: dict[str, dict] = {}
    for engine in engines.all_engines():
        for option in engine.options:
            prop = {"type": kinds.get(option["type"], "string")}
            if "min" in option:
                prop["minimum"] = option["min"]
            if "max" in option:
                prop["maximum"] = option["max"]
            if option.get("floor"):
                prop["description"] = f"seconds: 0 (none) or at least {option['floor']}"
            properties.setdefault(option["name"], prop)
    schema.update(type="object", properties=properties, additionalProperties=False,
                  description="the game's room options (see GET /api/games); an option another game has is refused")


class NewPlayer(BaseModel):
    name: str = Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$", examples=["Hanako"],
                      description="any text without control characters")


class PlayerRename(NewPlayer):
    """A new name for the caller: the same rules as a new player's name (the one name validator,
    inherited), checked against claimed names the same way."""


class PlayerCreated(BaseModel):
    id: str
    name: str
    token: str = Field(description="Bearer token; shown only once, stored hashed")


class GameInfo(BaseModel):
    id: str
    title: str
    title_ja: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]
    rules_url: str


# The table's pace (app/correspondence/pace.py): live clocks, or days per move.
Pace = Literal["live", "1d", "2d", "3d", "7d"]
OnDeadline = Literal["bot", "lose"]
PACE_HELP = ('"live" (the game\'s own clocks, minutes) or a correspondence table: "1d", "2d", "3d" or "7d" per '
             "move (each awaited seat its own deadline); nobody needs to stay connected")
ON_DEADLINE_HELP = ('at a correspondence deadline: "bot" plays the late seat\'s move, or the late player '
                    '"lose"s (as by resigning; a team concedes)')


class NewRoom(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"game": "synomilia", "options": {"reveal_delay": 3}, "seats": 2}]})
    game: str = Field(max_length=40, json_schema_extra={"enum": [*engines.ids()]})
    options: JsonObject = Field(default_factory=dict, json_schema_extra=_options_schema)
    seats: int | None = Field(default=None, ge=1, le=MAX_SEATS, strict=True,
                              description="number of seats; default the game's minimum")
    bot_think_seconds: float | None = Field(default=None, ge=0, le=30)
    grace_seconds: float | None = Field(default=None, ge=0, le=3600, description=(
        "seconds a seated player may be away from the running match before the game's bot plays for "
        "them until they come back (a zombie seat); default the server's (60), 0 = never, else at least "
        "MIN_GRACE_SECONDS (20): a shorter one is refused (`timing_too_short`)"))
    rated: bool = Field(default=True, strict=True, description=(
        "false: a casual table; its matches leave every rating unchanged"))
    pace: Pace = Field(default="live", description=PACE_HELP)
    on_deadline: OnDeadline = Field(default="bot", description=ON_DEADLINE_HELP)


class RoomSettings(BaseModel):
    """What the host may change in the lobby until Start: the table's size and the game's options
    (``options`` are merged into the room's: name only what changes)."""
    model_config = ConfigDict(json_schema_extra={"examples": [{"seats": 6}, {"options": {"turn_seconds": 90}}]})
    seats: int | None = Field(default=None, ge=1, le=MAX_SEATS, strict=True, description="number of seats")
    options: JsonObject | None = Field(default=None, json_schema_extra=_options_schema)
    rated: bool | None = Field(default=None, strict=True, description="false: a casual table (no rating changes)")
    pace: Pace | None = Field(default=None, description=PACE_HELP)
    on_deadline: OnDeadline | None = Field(default=None, description=ON_DEADLINE_HELP)


class JoinRoom(BaseModel):
    seat: SeatNumber | None = None


class ActionIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"action": {"type": "pass"}, "version": 12}]})
    action: JsonObject
    version: Version = Field(description="the version of the view this action answers; a stale one is refused")
