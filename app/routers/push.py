"""Notifications (issue 31): the server's VAPID public key, the caller's choices (which kinds are
pushed, the page's sound) and the caller's browsers (push subscriptions). A player reads and
changes only their own; every call is throttled (``push``), a player holds at most
``PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER`` subscriptions, and an endpoint the server may not post to
(not https on a public address, ``app/push/guard.py``) is refused before anything is stored."""

from __future__ import annotations

import asyncio
import base64
import binascii
from typing import Any, Literal

from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from app.deps import CurrentPlayer, DbDep, SettingsDep
from app.errors import ApiError
from app.limits.rest import rate_limit
from app.push import store
from app.push.guard import MAX_ENDPOINT_CHARS, EndpointRefused, check_url

router = APIRouter(tags=["notifications"])
RESOLVE_SECONDS = 5.0  # the endpoint's host must resolve within this long

THROTTLED: dict[int | str, dict[str, Any]] = {429: {"description": "`rate_limited`: too many calls; see `Retry-After`"}}


def _b64(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


class Kinds(BaseModel):
    model_config = ConfigDict(extra="forbid")
    your_turn: StrictBool | None = None
    hours_left: StrictBool | None = None
    match_ended: StrictBool | None = None
    chat_mention: StrictBool | None = None


class PrefsUpdate(BaseModel):
    """Only what is given changes."""
    model_config = ConfigDict(extra="forbid")
    kinds: Kinds | None = None
    sound: StrictBool | None = None


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(min_length=80, max_length=100, pattern=r"^[A-Za-z0-9_-]+={0,2}$")
    auth: str = Field(min_length=16, max_length=32, pattern=r"^[A-Za-z0-9_-]+={0,2}$")

    @field_validator("p256dh")
    @classmethod
    def _point(cls, value: str) -> str:
        """The browser's public key: an uncompressed P-256 point (else nothing could be encrypted to it)."""
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _b64(value))
        except ValueError:
            raise ValueError("p256dh is not a P-256 public key") from None
        return value.rstrip("=")

    @field_validator("auth")
    @classmethod
    def _secret(cls, value: str) -> str:
        if len(_b64(value)) != 16:
            raise ValueError("auth is not a 16-byte secret")
        return value.rstrip("=")


class NewSubscription(BaseModel):
    """``PushSubscription.toJSON()`` of the browser, and the language to write notifications in."""
    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(min_length=8, max_length=MAX_ENDPOINT_CHARS)
    keys: SubscriptionKeys
    expirationTime: int | None = Field(default=None, ge=0, le=2**53 - 1)
    lang: Literal["en", "ja"] = "en"


class RemoveSubscription(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT_CHARS)


def _public_key(request: Request) -> str:
    return request.app.state.notifier.public_key


@router.get("/api/push/key", dependencies=[rate_limit("push")], responses=THROTTLED,
            summary="The VAPID public key (the browser's applicationServerKey)")
async def vapid_key(request: Request) -> dict:
    return {"public_key": _public_key(request)}


@router.get("/api/me/notifications", dependencies=[rate_limit("push")], responses=THROTTLED,
            summary="The caller's notification choices and how many browsers are subscribed")
async def my_notifications(request: Request, player: CurrentPlayer, db: DbDep) -> dict:
    return dict(await db.run(store.prefs, player.id), public_key=_public_key(request))


@router.put("/api/me/notifications", dependencies=[rate_limit("push")], responses=THROTTLED,
            summary="Choose which notifications are pushed, and the page's sound")
async def set_notifications(body: PrefsUpdate, request: Request, player: CurrentPlayer, db: DbDep) -> dict:
    kinds = {k: v for k, v in (body.kinds.model_dump() if body.kinds else {}).items() if v is not None}
    return dict(await db.run(store.set_prefs, player.id, kinds, body.sound), public_key=_public_key(request))


@router.post("/api/me/push-subscriptions", status_code=201, dependencies=[rate_limit("push")], responses={
    409: {"description": "`too_many_subscriptions`: the player has the most browsers subscribed"},
    422: {"description": "`bad_endpoint`: not an https endpoint on a public address"}, **THROTTLED},
    summary="Subscribe this browser (the caller's)")
async def subscribe(body: NewSubscription, request: Request, player: CurrentPlayer, db: DbDep,
                    settings: SettingsDep) -> dict:
    allow = settings.push_allow_loopback_http
    try:
        check_url(body.endpoint, allow)
        # DNS may block: the notifier's resolver threads (not the shared default executor), bounded in time.
        await asyncio.wait_for(request.app.state.notifier.check(body.endpoint), RESOLVE_SECONDS)
    except EndpointRefused as exc:
        raise ApiError(422, "bad_endpoint", str(exc)) from None
    except asyncio.TimeoutError:
        raise ApiError(422, "bad_endpoint", "the endpoint's host did not resolve in time") from None
    await db.run(store.subscribe, player.id, body.endpoint, body.keys.p256dh, body.keys.auth, body.lang,
                 settings.push_max_subscriptions_per_player)
    return await db.run(store.prefs, player.id)


@router.post("/api/me/push-subscriptions/remove", dependencies=[rate_limit("push")], responses=THROTTLED,
             summary="Unsubscribe one of the caller's browsers (by its endpoint)")
async def unsubscribe(body: RemoveSubscription, player: CurrentPlayer, db: DbDep) -> dict:
    removed = await db.run(store.unsubscribe, player.id, body.endpoint)
    return dict(await db.run(store.prefs, player.id), removed=removed)
