"""Request and response bodies of the REST API (Pydantic v2)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class NewPlayer(BaseModel):
    name: str = Field(min_length=1, max_length=40, examples=["Hanako"])


class PlayerCreated(BaseModel):
    id: str
    name: str
    token: str = Field(description="Bearer token; shown only once, stored hashed")


class GameInfo(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]
    rules_url: str


class NewRoom(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"game": "synomilia", "options": {"reveal_delay": 3}, "seats": 2}]})
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int | None = Field(default=None, description="number of seats; default the game's minimum")
    bot_think_seconds: float | None = Field(default=None, ge=0, le=30)


class JoinRoom(BaseModel):
    seat: int | None = None


class ActionIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"action": {"type": "pass"}, "version": 12}]})
    action: dict[str, Any]
    version: int = Field(description="the version of the view this action answers; a stale one is refused")


class ViewMessage(BaseModel):
    """What a seat sees: the same shape as the WebSocket ``view`` message."""
    type: str = "view"
    version: int
    seat: int | None
    match_id: str
    view: dict[str, Any]
    awaiting: list[int]
    legal_actions: list[dict[str, Any]]
    deadlines: dict[str, int]
    outcome: dict[str, Any] | None
