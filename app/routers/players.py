"""Guest players: a name and a bearer token; the caller's name can change (one identity per
browser, renamed anywhere)."""

from fastapi import APIRouter
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.accounts.models import Account
from app.accounts.service import name_is_claimed, name_key
from app.deps import CurrentPlayer, DbDep, HubDep, SessionDep
from app.errors import ApiError
from app.limits.rest import rate_limit
from app.models import Player, Room, RoomSeat
from app.schemas import NewPlayer, PlayerCreated, PlayerRename
from app.security import hash_token, new_id, new_token

router = APIRouter(prefix="/api/players", tags=["players"])
# A rename is pushed to the player's tables that people are looking at: open and running rooms,
# newest first, at most this many (a player hosts at most MAX_OPEN_ROOMS_PER_PLAYER open rooms).
RENAME_PUSH_ROOMS = 50


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


@router.patch("/me", dependencies=[rate_limit("names")], responses={
    409: {"description": "`name_claimed`: another player's account holds the name"},
    429: {"description": "`rate_limited`: too many name changes; see `Retry-After`"}})
async def rename_me(body: PlayerRename, player: CurrentPlayer, db: DbDep, hub: HubDep) -> dict:
    """Change the caller's name (a guest's, or an account's, whose log-in name it is too). The
    same player keeps their seats, history and ratings; every table they sit at shows the new name."""
    new_name = body.name.strip() or "?"

    def rename(session) -> list[str]:
        if name_is_claimed(session, new_name, except_player=player.id):
            raise ApiError(409, "name_claimed", f"the name {new_name!r} belongs to an account: choose another name")
        row = session.get(Player, player.id)
        row.name = new_name
        account = session.get(Account, player.id)
        if account is not None:
            account.name_key = name_key(new_name)
        try:
            session.flush()
        except IntegrityError:
            raise ApiError(409, "name_claimed", f"the name {new_name!r} belongs to an account: choose another name") from None
        rooms = list(session.scalars(
            select(Room.id).join(RoomSeat, RoomSeat.room_id == Room.id)
            .where(RoomSeat.player_id == player.id, Room.status.in_(("open", "running")))
            .order_by(Room.created_at.desc()).limit(RENAME_PUSH_ROOMS)))
        session.commit()
        return rooms

    room_ids = await db.run(rename)
    for room_id in room_ids:
        await hub.refresh(room_id)  # seats carry names: everyone at the table sees the new one
    for room_id in set(hub.rooms) - set(room_ids):  # finished tables still on someone's screen
        live = hub.rooms.get(room_id)
        if live is not None and live.seat_of(player.id) is not None:
            await hub.refresh(room_id)
    return {"id": player.id, "name": new_name}
