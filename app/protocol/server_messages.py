"""What the server sends on the live socket (and, the same objects, as NDJSON stream lines).

These models describe the wire for the schema and for tests; the live path does not build them.
Views are plain dicts made once per version and seat and encoded once (``app.live.wire``), so
typing them costs the hot path nothing. Fields a message may leave out are marked optional."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

Ref = Annotated[Union[str, int], Field(description="the id of the client message this answers")]


class _ServerMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ViewMessage(_ServerMessage):
    """What a seat sees at one version (also ``GET /api/rooms/{id}/view`` and the actions' answer)."""
    type: Literal["view"] = "view"
    version: int
    seat: int | None = Field(description="the seat this view is for (0-based); null for spectators")
    match_id: str
    view: dict[str, Any] = Field(description="the game's view for this seat: only what the seat may know")
    awaiting: list[int] = Field(description="seats whose move is awaited (-1: the server's automatic step)")
    legal_actions: list[dict[str, Any]] = Field(description="what this seat may send now (empty when not awaited)")
    deadlines: dict[str, int] = Field(description="seat -> its clock's end (Unix ms, the server's clock)")
    outcome: dict[str, Any] | None = Field(description="the result, once the match is over (an early end, "
                                                       "app/endings: `ending` says resigned, aborted, claimed, "
                                                       "timeout, or unattended: every player had left)")
    platform: dict[str, Any] = Field(default_factory=dict, description=(
        "open votes (app/endings): `abort_votes` and `resign_votes` (seats; public, as each vote is a version "
        "every seat receives); `declined`, once a proposal was turned down: the latest no, `{kind, seat}` "
        "(`kind` \"abort\" or \"resign\"; by a seat that had voted for it: withdrawn)"))
    resync: bool | None = Field(default=None, description="true: a full view after a gap too long to fill; "
                                                          "views missed before it are not sent")


class RoomMessage(_ServerMessage):
    """The room's summary: seats (name, presence, bot, zombie), status, host, match id, spectators.
    Coalesced: at most one per ``ROOM_PUSH_INTERVAL``."""
    type: Literal["room"]
    room: dict[str, Any]


class ErrorMessage(_ServerMessage):
    """The message answered (``ref`` when it carried an ``id``) changed nothing."""
    type: Literal["error"]
    code: str = Field(description="stable: malformed, stale_version, illegal_action, rate_limited, ...")
    message: str
    ref: Ref | None = None
    retry_after: int | None = Field(default=None, description="rate_limited: seconds until a credit is back")


class Ack(_ServerMessage):
    """An action sent with an ``id`` was committed at ``version``."""
    type: Literal["ack"]
    ref: Ref
    version: int


class ChatLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int
    channel: str = Field(description='"room", or "team:<n>" for a team\'s own chat')
    player_id: str
    name: str
    text: str = Field(description="plain text: render it as text, never as HTML")
    at: str = Field(description="ISO 8601 time, UTC")
    notice: Literal["bot_plays", "back"] | None = Field(default=None, description=(
        'channel "notice": a bot plays for the named player until they are back, or they are back'))
    seat: int | None = Field(default=None, description="a notice's seat (0-based)")


class ChatMessage(_ServerMessage):
    type: Literal["chat"]
    message: ChatLine


class ChatHistory(_ServerMessage):
    """The last chat lines this socket may read, once after it opens."""
    type: Literal["chat_history"]
    messages: list[ChatLine]


class Pong(_ServerMessage):
    type: Literal["pong"]


class RematchState(_ServerMessage):
    """Who said yes to a rematch; ``rematch_id`` once the new match started."""
    type: Literal["rematch"]
    room_id: str
    match_id: str | None
    confirmed: list[int]
    waiting: list[int]
    rematch_id: str | None
    available: bool


class StreamPing(_ServerMessage):
    """NDJSON stream only: sent after 10 s without another line."""
    type: Literal["ping"]


ServerMessage = Annotated[Union[ViewMessage, RoomMessage, ErrorMessage, Ack, ChatMessage, ChatHistory, Pong,
                                RematchState], Field(discriminator="type")]
StreamLine = Annotated[Union[ViewMessage, RoomMessage, ChatMessage, ErrorMessage, StreamPing], Field(discriminator="type")]
