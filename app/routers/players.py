"""Guest players: a name and a bearer token; the caller's name can change (one identity per
browser, renamed anywhere)."""

from fastapi import APIRouter
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.accounts.models import Account
from app.names import name_key
from app.deps import CurrentPlayer, HubDep, SessionDep
from app.errors import ApiError
from app.limits.rest import rate_limit
from app.models import Player, Room, RoomSeat
from app.names import check_at_tables, check_player_name
from app.schemas import NewPlayer, PlayerCreated, PlayerRename
from app.security import hash_token, new_id, new_token

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", response_model=PlayerCreated, status_code=201, dependencies=[rate_limit("players")],
             responses={409: {"description": "`name_claimed`, `name_confusable`: the name is, or looks like, an account's"},
                        422: {"description": "`name_invisible`: invisible or direction-changing characters"},
                        429: {"description": "`rate_limited`: too many new players from this address; see `Retry-After`"}})
def create_player(body: NewPlayer, session: SessionDep) -> PlayerCreated:
    check_player_name(session, body.name)  # name_invisible, name_claimed, name_confusable
    token = new_token()
    player = Player(id=new_id(), name=body.name.strip() or "?", token_hash=hash_token(token))
    session.add(player)
    session.commit()
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me")
def who_am_i(player: CurrentPlayer) -> dict:
    return {"id": player.id, "name": player.name}


@router.patch("/me", dependencies=[rate_limit("names")], responses={
    409: {"description": "`name_claimed`: another player's account holds the name; `name_confusable`: the name looks "
                         "like an account's; `name_confusable_in_room`: like a seat-mate's"},
    422: {"description": "`name_invisible`: invisible or direction-changing characters"},
    429: {"description": "`rate_limited`: too many name changes; see `Retry-After`"}})
async def rename_me(body: PlayerRename, player: CurrentPlayer, hub: HubDep) -> dict:
    """Change the caller's name (a guest's, or an account's, whose log-in name it is too). The
    same player keeps their seats, history and ratings; every table they sit at shows the new name."""
    new_name = body.name.strip() or "?"

    def rename(session_factory) -> list[str]:
        with session_factory() as session:
            look = check_player_name(session, new_name, player.id)
            rooms = check_at_tables(session, player.id, new_name)  # no table may show two names alike
            row = session.get(Player, player.id)
            row.name = new_name
            account = session.get(Account, player.id)
            if account is not None:
                account.name_key, account.name_skeleton = name_key(new_name), look
            try:
                session.flush()
            except IntegrityError:
                raise ApiError(409, "name_confusable",
                               f"the name {new_name!r} looks like an account's name: choose another name") from None
            session.commit()
            return rooms

    room_ids = await hub.write(rename)  # (on SQLite after any join being written: Hub.write)
    hub.renamed(player.id, room_ids)  # seats carry names: everyone at the table sees the new one
    return {"id": player.id, "name": new_name}
