"""Guest players: a name and a bearer token."""

from fastapi import APIRouter

from app.accounts.service import name_is_claimed
from app.deps import CurrentPlayer, SessionDep
from app.errors import ApiError
from app.limits.rest import rate_limit
from app.models import Player
from app.schemas import NewPlayer, PlayerCreated
from app.security import hash_token, new_id, new_token

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", response_model=PlayerCreated, status_code=201, dependencies=[rate_limit("players")],
             responses={429: {"description": "`rate_limited`: too many new players from this address; see `Retry-After`"}})
def create_player(body: NewPlayer, session: SessionDep) -> PlayerCreated:
    if name_is_claimed(session, body.name):
        raise ApiError(409, "name_claimed", f"the name {body.name.strip()!r} belongs to an account: log in, or choose another name")
    token = new_token()
    player = Player(id=new_id(), name=body.name.strip() or "?", token_hash=hash_token(token))
    session.add(player)
    session.commit()
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me")
def who_am_i(player: CurrentPlayer) -> dict:
    return {"id": player.id, "name": player.name}
