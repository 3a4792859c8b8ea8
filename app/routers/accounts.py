"""Accounts: claim your guest name with a password, log in on another device, list and revoke
your sessions. The bearer token of a session works everywhere a guest token does."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, SecretStr

from app import json_codec
from app.accounts import service
from app.deps import CurrentPlayer, DbDep, HubDep, SessionDep, SettingsDep, bearer_token
from app.history import iso
from app.limits.rest import rate_limit

router = APIRouter(prefix="/api/accounts", tags=["accounts"])

def _unicode(secret: SecretStr) -> SecretStr:
    """A password is text a hash can encode: a lone surrogate (JSON "\\ud800") is refused (422)."""
    if json_codec.has_lone_surrogate(secret.get_secret_value()):
        raise ValueError("text must be valid Unicode (a lone surrogate)")
    return secret


Password = Annotated[SecretStr, Field(min_length=8, max_length=200, description="8–200 characters; never logged"),
                     AfterValidator(_unicode)]
AnyPassword = Annotated[SecretStr, Field(min_length=1, max_length=200), AfterValidator(_unicode)]
# A player's name, as ``POST /api/players`` takes it (no control characters).
Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]


class Claim(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"password": "correct horse battery"}]})
    password: Password
    name: Name | None = Field(default=None, description="claim this name instead of the current one (e.g. when it is taken)")


class Login(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "Hanako", "password": "correct horse battery"}]})
    name: Name
    password: AnyPassword


class PasswordChange(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"current_password": "correct horse battery",
                                                               "new_password": "staple battery horse"}]})
    current_password: AnyPassword
    new_password: Password


class SessionOpened(BaseModel):
    id: str = Field(description="the player id (unchanged by claiming)")
    name: str
    token: str = Field(description="bearer token of this session; shown once, stored hashed")
    session_id: str
    expires_at: str


BUSY = {"description": "`busy`: too many log-ins and claims at once on this server; retry after `Retry-After` seconds"}


def _device(request: Request) -> str:
    return request.headers.get("user-agent", "")


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


@router.post("", status_code=201, response_model=SessionOpened, dependencies=[rate_limit("logins")], summary="Claim the caller's guest name with a password",
             responses={409: {"description": "`already_claimed`, `name_taken`, `name_confusable_in_room` (a new name like a "
                                             "seat-mate's)"}, 503: BUSY})
async def claim(body: Claim, player: CurrentPlayer, request: Request, settings: SettingsDep, hub: HubDep) -> dict:
    """The caller's guest token stops working; use the returned session token from now on."""
    factory = request.app.state.session_factory
    opened, renamed_at = await request.app.state.password_work.run(
        service.claim, factory, player.id, body.password.get_secret_value(), body.name, settings.session_days,
        _device(request), _address(request))
    await request.app.state.live_sessions.end([f"guest:{player.id}"])  # the retired guest token's sockets too
    if renamed_at is not None:  # claimed under a new name
        hub.renamed(player.id, renamed_at)
    return opened


@router.post("/login", response_model=SessionOpened, dependencies=[rate_limit("logins")], summary="Log in with a claimed name and its password",
             responses={401: {"description": "`bad_credentials` (the same for an unknown name and a wrong password)"},
                        429: {"description": "`rate_limited`: too many attempts from this address, or for this name "
                                             "(see app/accounts/throttle.py); nothing was hashed"},
                        503: BUSY})
async def login(body: Login, request: Request, settings: SettingsDep, db: DbDep) -> dict:
    address = _address(request)

    async def known_address() -> bool:
        return await db.run(service.is_known_address, body.name, address, settings.session_days)

    # Per name (and name + address) before the hasher: a refused guess costs no hashing.
    await request.app.state.login_throttle.check(service.name_key(body.name), address, known_address)
    factory = request.app.state.session_factory
    return await request.app.state.password_work.run(service.login, factory, body.name, body.password.get_secret_value(),
                                                     settings.session_days, _device(request), address)


@router.post("/password", dependencies=[rate_limit("logins")], summary="Change your password; every other session ends",
             responses={403: {"description": "`wrong_password`: the current password is wrong; nothing changed"},
                        409: {"description": "`not_claimed`: a guest has no password"},
                        429: {"description": "`rate_limited`: too many attempts"}, 503: BUSY})
async def change_password(body: PasswordChange, player: CurrentPlayer, request: Request,
                          authorization: Annotated[str | None, Header()] = None) -> dict:
    """The current password is required; every other session of the account is revoked and its
    sockets and streams end (an intruder who knew the old password is out for good). The calling
    session stays. Answers how many sessions were revoked."""
    await request.app.state.login_throttle.check(service.name_key(player.name), _address(request), None)
    revoked = await request.app.state.password_work.run(
        service.change_password, request.app.state.session_factory, player.id, bearer_token(authorization),
        body.current_password.get_secret_value(), body.new_password.get_secret_value())
    return await _ended(request, revoked)


@router.get("/me", summary="Whether the caller has an account, and their sessions")
def me(player: CurrentPlayer, session: SessionDep, authorization: Annotated[str | None, Header()] = None) -> dict:
    current = service.current_session_id(session, bearer_token(authorization))
    return {"id": player.id, "name": player.name, "claimed": service.has_account(session, player.id),
            "sessions": [{"id": s.id, "device": s.device, "created_at": iso(s.created_at),
                          "expires_at": iso(s.expires_at), "current": s.id == current}
                         for s in service.sessions(session, player.id)]}


@router.post("/logout", summary="Revoke the session whose token made this call")
async def logout(player: CurrentPlayer, request: Request, db: DbDep,
                 authorization: Annotated[str | None, Header()] = None) -> dict:
    token = bearer_token(authorization)

    def revoke_current(session):
        current = service.current_session_id(session, token)
        return service.revoke(session, player.id, current) if current else []
    return await _ended(request, await db.run(revoke_current))


@router.delete("/sessions/{session_id}", summary="Revoke one of your sessions (e.g. a lost phone)")
async def revoke_session(session_id: str, player: CurrentPlayer, request: Request, db: DbDep) -> dict:
    return await _ended(request, await db.run(service.revoke, player.id, session_id[:32]))


@router.post("/logout-all", summary="Revoke every session of your account")
async def logout_all(player: CurrentPlayer, request: Request, db: DbDep) -> dict:
    return await _ended(request, await db.run(service.revoke, player.id, None))


async def _ended(request: Request, session_ids: list[str]) -> dict:
    """The revoked sessions' sockets and streams end too, on every process (4401)."""
    await request.app.state.live_sessions.end([f"session:{i}" for i in session_ids])
    return {"revoked": len(session_ids)}
