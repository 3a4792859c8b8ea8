"""FastAPI dependencies as ``Annotated`` aliases: ``DbDep``, ``SessionDep``, ``CurrentPlayer``,
``OptionalPlayer``, ``SettingsDep``, ``HubDep``, ``AdminDep``.

Database work never runs on the event loop: ``async def`` endpoints call ``await db.run(fn)``
(``DbDep``, a worker thread sized to the pool); ``SessionDep`` is only for plain ``def``
endpoints, which FastAPI runs in its own thread pool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.accounts import service as accounts
from app.accounts.live_sessions import Credential
from app.db import Database
from app.errors import ApiError
from app.live.hub import Hub
from app.models import Player
from app.security import hash_token, same_secret
from app.settings import Settings


def get_session(request: Request) -> Iterator[Session]:
    with request.app.state.session_factory() as session:
        yield session


# Dependencies that do no I/O are ``async def``: FastAPI runs a plain ``def`` dependency in its
# thread pool, a thread hop (and a fight for the GIL with the event loop) on every request.
async def get_db(request: Request) -> Database:
    return request.app.state.db


async def get_settings_dep(request: Request) -> Settings:
    return request.app.state.settings


async def get_hub(request: Request) -> Hub:
    return request.app.state.hub


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_token", "Authorization header must be 'Bearer <token>'")
    return token.strip()


def player_and_credential(session: Session, token: str) -> tuple[Player, Credential]:
    """The player of a token, and what the token is (a guest token or a log-in session, with its
    expiry): sockets and streams opened with it end when it does (``app.accounts.live_sessions``)."""
    player = session.scalar(select(Player).where(Player.token_hash == hash_token(token)))
    credential = Credential.guest(player.id) if player is not None else None
    if player is None:
        row = accounts.live_session(session, token)  # a claimed name's log-in session
        if row is not None:
            player, credential = session.get(Player, row.player_id), Credential.session(row.id, row.expires_at)
    if player is None or player.is_bot or credential is None:
        raise ApiError(401, "bad_token", "unknown or revoked token")
    return player, credential


def player_for_token(session: Session, token: str) -> Player:
    return player_and_credential(session, token)[0]


async def get_optional_player(request: Request, db: Annotated[Database, Depends(get_db)],
                              authorization: Annotated[str | None, Header()] = None) -> Player | None:
    token = bearer_token(authorization)
    if not token:
        return None
    player, request.state.credential = await db.run(player_and_credential, token)
    return player


async def get_current_player(player: Annotated[Player | None, Depends(get_optional_player)]) -> Player:
    if player is None:
        raise ApiError(401, "bad_token", "this needs a player token: POST /api/players first")
    return player


def client_ip(request: Request) -> str | None:
    return request.client.host if request.client else None


async def check_secret(request: Request, token: str, *secrets: str) -> bool:
    """Whether ``token`` is one of ``secrets`` (the admin or metrics token), each try throttled per
    IP (``Limiter.guess``: wrong ones cost, and past the limit everything is 429)."""
    right = any(same_secret(token, secret) for secret in secrets if secret)
    await request.app.state.limiter.guess(client_ip(request), right)
    return right


async def require_admin(request: Request, settings: Annotated[Settings, Depends(get_settings_dep)],
                        authorization: Annotated[str | None, Header()] = None) -> None:
    token = bearer_token(authorization)
    if not token or not settings.admin_token or not await check_secret(request, token, settings.admin_token):
        raise ApiError(403, "not_admin", "this needs the admin token")


DbDep = Annotated[Database, Depends(get_db)]
SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
CurrentPlayer = Annotated[Player, Depends(get_current_player)]
OptionalPlayer = Annotated[Player | None, Depends(get_optional_player)]
AdminDep = Annotated[None, Depends(require_admin)]
HubDep = Annotated[Hub, Depends(get_hub)]
