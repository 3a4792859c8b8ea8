"""What a client sends on the live socket, and the one function that reads a received frame.

Every message is a JSON object whose ``type`` picks its model; any may carry an ``id`` (a string of
up to 64 characters or an integer) that the answers to it repeat as ``ref``. A frame that is not
JSON, not an object with a known ``type``, or whose fields do not fit the model is refused as a
whole (``MalformedFrame``: the socket answers ``error`` ``malformed``) and nothing is applied.
Unknown fields are refused too, so a client's typo is an error rather than a silent default."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app import json_codec
from app.schemas import MAX_INT

MessageId = Annotated[Union[Annotated[str, Field(max_length=64)], Annotated[int, Field(strict=True, ge=-MAX_INT, le=MAX_INT)]],
                      Field(description="optional: answers to this message (an error, an action's ack) repeat it as ref")]
Version = Annotated[int, Field(strict=True, ge=0, le=MAX_INT, description="a match version (views count from 0)")]


class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: MessageId | None = None


class Hello(_ClientMessage):
    """The first frame of every socket: who is connecting. ``token`` is the player's bearer token,
    or null (or absent) for a spectator. Sent as a frame, not in the URL, so no proxy or browser
    history records it. A socket that sends anything else first, or nothing within a few seconds,
    is closed (1008)."""
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=256)] | None = None


class Action(_ClientMessage):
    """Play ``action`` (one of the view's ``legal_actions``) in answer to the view of ``version``;
    a stale version is refused (``stale_version``). With an ``id``, the commit is answered by an
    ``ack``. A *platform action* (app/endings) ends a match early for any game, at any version and
    turn: ``{"platform": "resign" | "abort" | "claim"}`` or ``{"platform": "decline", "kind":
    "abort" | "resign"}``."""
    type: Literal["action"]
    action: Any = Field(description="the game's action object, one of the view's legal_actions; or a "
                        "platform action: resign, abort, decline, claim")
    version: Version


class Sync(_ClientMessage):
    """What did I miss? The views after ``version`` (up to the resync window), else one full view
    marked ``resync``; without a version, the current view."""
    type: Literal["sync"]
    version: Version | None = None


class Chat(_ClientMessage):
    """A chat line to the room, or to the sender's team in a team game."""
    type: Literal["chat"]
    text: str = Field(description="non-empty once trimmed, no NUL characters; the server bounds its length")
    channel: Literal["room", "team"] = "room"


class Ping(_ClientMessage):
    """Answered by ``pong`` (keeps proxies from closing an idle socket)."""
    type: Literal["ping"]


class Rematch(_ClientMessage):
    """A seated player's yes to a rematch once the match is over (as ``POST /api/rooms/{id}/rematch``)."""
    type: Literal["rematch"]


ClientMessage = Annotated[Union[Hello, Action, Sync, Chat, Ping, Rematch], Field(discriminator="type")]
CLIENT_MESSAGES = TypeAdapter(ClientMessage)


class MalformedFrame(Exception):
    """A frame refused before anything was done with it; ``ref`` is the message's ``id`` when it
    had a usable one."""

    code = "malformed"

    def __init__(self, message: str, ref: str | int | None = None):
        super().__init__(message)
        self.message = message
        self.ref = ref

    def as_error(self) -> dict:
        error: dict[str, str | int] = {"type": "error", "code": self.code, "message": self.message}
        if self.ref is not None:
            error["ref"] = self.ref
        return error


def parse_client_frame(text: str) -> ClientMessage:
    """The message a text frame carries, or ``MalformedFrame`` saying what is wrong with it."""
    try:
        data = json_codec.loads(text)
    except json_codec.InvalidText as exc:
        raise MalformedFrame(f"the frame is not valid JSON: {exc}") from None
    except ValueError:
        raise MalformedFrame("the frame is not valid JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedFrame('a message must be a JSON object with a "type"')
    ref = message_ref(data.get("id"))
    try:
        return CLIENT_MESSAGES.validate_python(data)
    except ValidationError as exc:
        raise MalformedFrame(_describe(exc, data["type"]), ref) from None


def message_ref(value) -> str | int | None:
    """The ``id`` an answer may repeat: a string of up to 64 characters or an integer within ±2^53."""
    if isinstance(value, str) and len(value) <= 64:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT:
        return value
    return None


def _describe(exc: ValidationError, kind: str) -> str:
    """One short sentence about the first problem (Pydantic's full report is long and echoes input)."""
    error = exc.errors(include_url=False, include_input=False)[0]
    if error["type"] == "union_tag_invalid":
        return f"unknown message type {kind[:64]!r}"
    where = ".".join(str(part) for part in error["loc"][1:]) or "message"
    return f"{kind[:64]} message: {where}: {error['msg']}"
