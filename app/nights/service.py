"""Game nights in the database: one transaction per change, each run in a worker (``db.run``).

The night's current table is its newest room (``rooms.night_id``); its matches are recorded when
they begin (``plan_start``, a ``store.start_plans`` entry: it also picks the seed that gives the
first move to the right person and mixes the teams); the scoreboard is computed from the
matches' result rows whenever it is read (``scoring``); and the match that decides a best-of-N
night ends it in the transaction that finishes the match (``on_finished``, a finish hook)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import engines
from app import ratings, store
from app.errors import ApiError, not_found
from app.history import iso
from app.models import Match, MatchResult, Player, Room, RoomSeat, utcnow
from app.names import check_seat_mates, name_to_seat
from app.nights import scoring, seating
from app.nights.models import Night, NightMatch, NightMember
from app.security import new_room_id

# Bounds: people (and bots) in one night, matches in one night, best of at most this many.
MAX_MEMBERS = 16
MAX_MATCHES = 60
MAX_BEST_OF = 25
OVER = ("finished", "aborted")


def get_night(session: Session, night_id: str, for_update: bool = False) -> Night:
    night = session.get(Night, night_id, with_for_update=for_update) \
        if isinstance(night_id, str) and len(night_id) <= 64 else None
    if night is None:
        raise not_found("night", night_id)
    return night


def current_room(session: Session, night_id: str) -> Room | None:
    return session.scalars(select(Room).where(Room.night_id == night_id)
                           .order_by(Room.created_at.desc(), Room.id).limit(1)).first()


def current_room_id(session: Session, night_id: str) -> str | None:
    room = current_room(session, night_id)
    return room.id if room is not None else None


def _table_locked(session: Session, night_id: str) -> Room | None:
    """The night's current table; one that has not started is read again under its row lock (what
    a room join or start holds), so its seats are read after any change under way, never
    overwritten by a seat taken meanwhile."""
    room = current_room(session, night_id)
    if room is not None and room.status == "open":
        session.refresh(room, with_for_update=True)
    return room


def members(session: Session, night_id: str) -> list[NightMember]:
    return list(session.scalars(select(NightMember).where(NightMember.night_id == night_id).order_by(NightMember.seq)))


def _add_member(session: Session, night_id: str, player_id: str, bot_level: str | None = None) -> NightMember:
    known = session.get(NightMember, (night_id, player_id))
    if known is not None:
        return known
    count = session.scalar(select(func.count()).select_from(NightMember).where(NightMember.night_id == night_id)) or 0
    if count >= MAX_MEMBERS:
        raise ApiError(409, "night_full", f"a night holds at most {MAX_MEMBERS} players")
    top = session.scalar(select(func.max(NightMember.seq)).where(NightMember.night_id == night_id))
    member = NightMember(night_id=night_id, player_id=player_id, seq=(top or 0) + 1 if top is not None else 0,
                         left=False, bot_level=bot_level)
    session.add(member)
    session.flush()
    return member


# --- creating, joining, leaving ------------------------------------------------------------------

@dataclass
class Settings:
    scoring: str = "places"
    best_of: int | None = None
    choose: str = "host"


def create(session: Session, host_id: str, room_id: str, settings: Settings) -> str:
    """Make the host's open room the first table of a new night. Returns the night's id."""
    room = store.get_room(session, room_id, for_update=True)
    if room.host_id != host_id:
        raise ApiError(403, "not_host", "only the host of the table can make it a game night")
    if room.status != "open":
        raise ApiError(409, "room_not_open", f"the room is {room.status}: a night starts from a table before its start")
    if room.night_id:
        raise ApiError(409, "already_a_night", "this table already belongs to a game night")
    night = Night(id=new_room_id(), host_id=host_id, scoring=settings.scoring, best_of=settings.best_of,
                  choose=settings.choose, status="on")
    session.add(night)
    session.flush()
    room.night_id = night.id
    for row in store.room_seats(session, room_id):  # everyone seated already plays in the night
        if row.player_id:
            bot = session.get(Player, row.player_id)
            _add_member(session, night.id, row.player_id,
                        (row.private_data or {}).get("bot_level") if bot is not None and bot.is_bot else None)
    _add_member(session, night.id, host_id)
    session.commit()
    return night.id


def change(session: Session, night_id: str, player_id: str, settings: dict) -> None:
    """The host changes the scoring, best-of-N or who picks the next game while the night is on."""
    night = get_night(session, night_id, for_update=True)
    _host_only(night, player_id, "change the night")
    _still_on(night)
    for key, value in settings.items():
        setattr(night, key, value)
    session.flush()
    _maybe_over(session, night)
    session.commit()


def join(session: Session, night_id: str, player_id: str) -> str | None:
    """The caller plays in the night from now on. Seated at once when the current table has not
    started and has a free seat; otherwise at the next table. Returns the room they sat down in."""
    night = get_night(session, night_id, for_update=True)
    _still_on(night)
    member = _add_member(session, night_id, player_id)
    member.left = False
    room = _table_locked(session, night_id)
    seated = None
    if room is not None and room.status == "open":
        rows = store.room_seats(session, room.id)
        if not any(r.player_id == player_id for r in rows):
            free = [r for r in rows if r.player_id is None]
            if free:
                check_seat_mates(session, room.id, player_id, name_to_seat(session, player_id))
                free[0].player_id = player_id
                seated = room.id
    session.commit()
    return seated


def leave(session: Session, night_id: str, player_id: str, who: str | None) -> str | None:
    """A member leaves the night (the host may mark someone gone): they keep their points and are
    not seated at the next tables. A seat they hold at a table that has not started is freed.
    Returns that room's id."""
    night = get_night(session, night_id, for_update=True)
    target = who or player_id
    if target != player_id:
        _host_only(night, player_id, "mark someone else as gone")
    member = session.get(NightMember, (night_id, target))
    if member is None:
        raise ApiError(409, "not_a_member", "that player does not play in this night")
    member.left = True
    member.vote = None
    room = _table_locked(session, night_id)
    freed = None
    if room is not None and room.status == "open":
        for row in store.room_seats(session, room.id):
            if row.player_id == target:
                row.player_id, row.private_data, freed = None, {}, room.id
    session.commit()
    return freed


def end(session: Session, night_id: str, player_id: str) -> None:
    night = get_night(session, night_id, for_update=True)
    _host_only(night, player_id, "end the night")
    _still_on(night)
    _close(night, "host")
    session.commit()


def _host_only(night: Night, player_id: str, what: str) -> None:
    if night.host_id != player_id:
        raise ApiError(403, "not_host", f"only the night's host can {what}")


def _still_on(night: Night) -> None:
    if night.status != "on":
        raise ApiError(409, "night_over", "the night is over")


def _close(night: Night, reason: str) -> None:
    night.status, night.end_reason, night.ended_at = "over", reason, utcnow()


# --- the next table ------------------------------------------------------------------------------

@dataclass
class NextTable:
    old_room_id: str
    room_id: str
    match_id: str | None  # started at once when every seat was filled


def vote(session: Session, night_id: str, player_id: str, game: str) -> NextTable | None:
    """A member's pick for the next game. When the night lets the group choose and every person
    present has voted while the table's match is over, the next table opens with the most voted
    game (a tie goes to the game voted first)."""
    _engine(game)
    night = get_night(session, night_id, for_update=True)
    _still_on(night)
    member = session.get(NightMember, (night_id, player_id))
    if member is None or member.left:
        raise ApiError(403, "not_a_member", "only someone playing in the night votes for the next game")
    member.vote = game
    session.flush()
    room = current_room(session, night_id)
    present = [m for m in members(session, night_id) if not m.left and m.bot_level is None and not _is_bot(session, m)]
    if night.choose == "vote" and room is not None and room.status in OVER and all(m.vote for m in present):
        return _open_next(session, night, room, None, None)
    session.commit()
    return None


def open_next(session: Session, night_id: str, player_id: str, game: str | None, options: dict | None) -> NextTable:
    """The host opens the night's next table (``game`` None: the group's vote, else the same game)."""
    night = get_night(session, night_id, for_update=True)
    _host_only(night, player_id, "choose the next game")
    _still_on(night)
    room = current_room(session, night_id)
    assert room is not None, "a night has its first table from the start"
    return _open_next(session, night, room, game, options)


def _is_bot(session: Session, member: NightMember) -> bool:
    player = session.get(Player, member.player_id)
    return bool(player and player.is_bot)


def _engine(game: str):
    try:
        return engines.get(game)
    except ValueError as exc:
        raise ApiError(422, "unknown_game", str(exc)) from None


def _open_next(session: Session, night: Night, old: Room, game: str | None, options: dict | None) -> NextTable:
    session.refresh(old, with_for_update=True)
    if old.next_room_id:  # asked twice (two clicks, two nodes): the same table
        follow = session.get(Room, old.next_room_id)
        session.commit()
        return NextTable(old.id, old.next_room_id, follow.match_id if follow is not None else None)
    if old.status not in OVER:
        raise ApiError(409, "table_not_over", f"the table is {old.status}: the next one opens when its match is over")
    played = session.scalar(select(func.count()).select_from(NightMatch).where(NightMatch.night_id == night.id)) or 0
    if played >= MAX_MATCHES:
        raise ApiError(409, "night_full", f"a night holds at most {MAX_MATCHES} matches")
    everyone = members(session, night.id)
    if game is None:
        votes = [m.vote for m in everyone if m.vote and not m.left]
        game = Counter(votes).most_common(1)[0][0] if votes else old.game
    engine = _engine(game)
    if options is None:
        options = old.options if engine.id == old.game else {}
    try:
        engine.new_game(engine.min_players, 0, options)
    except (ValueError, TypeError) as exc:
        raise ApiError(422, "bad_options", f"options {options!r} are not valid for {engine.id}: {exc}") from None
    counts = Counter(session.scalars(select(MatchResult.player_id).join(NightMatch, NightMatch.match_id == MatchResult.match_id)
                                     .where(NightMatch.night_id == night.id)))
    present = [seating.Present(m.player_id, _is_bot(session, m), m.seq, counts.get(m.player_id, 0), m.bot_level)
               for m in everyone if not m.left]
    count, seated = seating.seat_order(present, engine.min_players, engine.max_players, played)
    new = Room(id=new_room_id(), game=engine.id, options=options, num_seats=count, host_id=night.host_id,
               status="open", bot_think_seconds=old.bot_think_seconds, grace_seconds=old.grace_seconds,
               rated=old.rated, night_id=night.id)
    session.add(new)
    session.flush()
    for i in range(count):
        who = seated[i] if i < len(seated) else None
        data = {"bot_level": who.bot_level} if who is not None and who.bot and who.bot_level else {}
        session.add(RoomSeat(room_id=new.id, seat=i, player_id=who.player_id if who else None, private_data=data))
    old.next_room_id = new.id
    for m in everyone:
        m.vote = None
    session.flush()
    match_id = None
    # everyone is here: the match starts at once (not a table of bots alone: it would wait for a
    # person, app/live/timers.py; it stays open for the host to seat someone)
    if len(seated) == count and not all(who.bot for who in seated):
        match_id = store.start_match(session, new).id
    session.commit()
    return NextTable(old.id, new.id, match_id)


# --- the match's start and end -------------------------------------------------------------------

def plan_start(session: Session, room, seats: list) -> store.StartPlan | None:
    """A ``store.start_plans`` entry: the seed of a night table's match (the first move to the
    person whose turn it is, teams that repeat the fewest pairs) and its record in the night."""
    night_id = getattr(room, "night_id", None)
    if not night_id:
        return None
    night = session.get(Night, night_id)
    if night is None or night.status != "on":
        return None
    engine = engines.get(room.game)
    earlier = list(session.scalars(select(NightMatch).where(NightMatch.night_id == night_id).order_by(NightMatch.idx)))
    players = [s.player_id for s in seats]
    bots = {s.player_id for s in seats if s.is_bot}
    seq = {m.player_id: m.seq for m in members(session, night_id)}
    first = seating.first_mover(players, bots, seq, [m.first_player_id for m in earlier])
    together = seating.pair_counts([m.teams for m in earlier if m.teams])
    seed, state = seating.choose_seed(engine, len(seats), room.options, players,
                                      players.index(first) if first is not None else None, together)

    def record(match_id: str) -> None:
        for s in seats:
            if s.player_id and session.get(NightMember, (night_id, s.player_id)) is None:
                _add_member(session, night_id, s.player_id, (s.private_data or {}).get("bot_level") if s.is_bot else None)
        mover = engine.first_player(state)
        teams = engine.teams(state)
        session.add(NightMatch(match_id=match_id, night_id=night_id, room_id=room.id, idx=len(earlier),
                               game=room.game, first_player_id=players[mover] if mover is not None else None,
                               teams=[[players[s] for s in team] for team in teams] if teams else None))
        session.flush()

    return store.StartPlan(seed, state, record)


def on_finished(session: Session, finished) -> None:
    """A finish hook (after the ratings' one, which writes the result rows): the match that
    decides a best-of-N night ends it, in the same transaction. (Only a night's table has a
    night's matches: any other finish costs no statement here.)"""
    if finished.night_id is None:
        return
    night_id = session.scalar(select(NightMatch.night_id).where(NightMatch.match_id == finished.id))
    if night_id:
        night = session.get(Night, night_id, with_for_update=True)
        if night is not None and night.status == "on":
            _maybe_over(session, night)


def _maybe_over(session: Session, night: Night) -> None:
    board, matches = _board(session, night)
    reason = scoring.decided(night.scoring, night.best_of, board.totals, len(board.per_match))
    if reason:
        _close(night, reason)
        session.flush()


def install() -> None:
    """Register the hooks once (after ``ratings.install()``, whose result rows the scoreboard reads)."""
    if plan_start not in store.start_plans:
        store.start_plans.append(plan_start)
    if on_finished not in store.finish_hooks:
        store.finish_hooks.append(on_finished)


# --- reading -------------------------------------------------------------------------------------

def _board(session: Session, night: Night) -> tuple[scoring.Board, list[tuple[NightMatch, Match]]]:
    rows = [(nm, match) for nm, match in session.execute(
        select(NightMatch, Match).join(Match, Match.id == NightMatch.match_id)
        .where(NightMatch.night_id == night.id).order_by(NightMatch.idx))]
    over = [m for _, m in rows if m.status in OVER]
    ids = [m.id for m in over]
    ranks: dict[str, dict[str, int | None]] = {i: {} for i in ids}
    seated: dict[str, dict[int, str]] = {i: {} for i in ids}
    if ids:
        for result in session.scalars(select(MatchResult).where(MatchResult.match_id.in_(ids)).order_by(MatchResult.seat)):
            ranks[result.match_id][result.player_id] = result.rank
            seated[result.match_id][result.seat] = result.player_id
    people = [m.player_id for m in members(session, night.id)]
    played = [scoring.Played(m.id, ranks[m.id], _teams(m, seated[m.id])) for m in over]
    return scoring.board(night.scoring, people, played), rows


def _teams(match: Match, seated: dict[int, str]) -> list[list[str]] | None:
    """A team game's teams as its result says them (seat lists) in player ids, else None."""
    teams = (match.outcome or {}).get("teams") if match.status == "finished" else None
    if not teams:
        return None
    return [[seated[s] for s in team if s in seated] for team in teams]


def read(session: Session, night_id: str, base_url: str) -> dict:
    """The night as ``GET /api/nights/{id}`` shows it: settings, members, the current table,
    every match (points, places, replay), the standings and each player's running total."""
    night = get_night(session, night_id)
    board, rows = _board(session, night)
    everyone = {m.player_id: m for m in members(session, night.id)}
    names = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(board.players)))}
    room = current_room(session, night.id)
    over_index = 0
    matches = []
    for nm, match in rows:
        entry = {"idx": nm.idx, "match_id": match.id, "game": match.game, "title": engines.get(match.game).title,
                 "title_ja": engines.get(match.game).title_ja,
                 "status": match.status, "ending": match.ending, "room_id": nm.room_id,
                 "first_player_id": nm.first_player_id, "teams": nm.teams,
                 "players": [s["player_id"] for s in match.seats],
                 "started_at": iso(match.started_at), "finished_at": iso(match.finished_at),
                 "replay_url": f"/static/replay.html?match={match.id}" if match.status in OVER else None,
                 "points": None, "ranks": None, "places": None}
        if match.status in OVER:
            entry["points"] = board.per_match[over_index]
            entry["ranks"] = {p: r for p, r in _ranks(session, match.id).items()}
            entry["places"] = board.per_match_places[over_index]  # 1 = first, as the points count it
            over_index += 1
        matches.append(entry)
    votes = Counter(m.vote for m in everyone.values() if m.vote and not m.left)

    def who(player_id: str) -> dict:
        player = names.get(player_id)
        member = everyone.get(player_id)
        return {"player_id": player_id, "name": player.name if player else "?", "tag": ratings.player_tag(player_id),
                "bot": bool(player and player.is_bot), "left": bool(member and member.left),
                "member": member is not None, "vote": member.vote if member else None}

    return {
        "id": night.id, "host_id": night.host_id, "scoring": night.scoring, "best_of": night.best_of,
        "choose": night.choose, "status": night.status, "end_reason": night.end_reason,
        "created_at": iso(night.created_at), "ended_at": iso(night.ended_at),
        "room": {"id": room.id, "game": room.game, "status": room.status, "match_id": room.match_id} if room else None,
        "players": [who(p) for p in board.players],
        "matches": matches, "played": len(board.per_match),
        "standings": [{"place": place, "player_id": p, "name": who(p)["name"], "total": total,
                       "cumulative": board.cumulative(p), "first_match": board.first_played(p)}
                      for place, p, total in board.standings()],
        "totals": board.totals, "max_points": scoring.best_points(night.scoring),
        "votes": dict(votes),
        "share_url": f"{base_url}/n/{night.id}", "chart_url": f"/api/nights/{night.id}/chart.svg",
        "image_url": f"/api/nights/{night.id}/standings.png",
    }


def _ranks(session: Session, match_id: str) -> dict[str, int | None]:
    return {r.player_id: r.rank for r in session.scalars(select(MatchResult).where(MatchResult.match_id == match_id))}


def player_nights(session: Session, player_id: str, viewer_id: str | None, limit: int = 10) -> list[dict]:
    """The player's latest nights, newest first, with their place and total. A night's id is its
    secret link: it is given only to a viewer who plays in that night."""
    rows = list(session.scalars(select(Night).join(NightMember, NightMember.night_id == Night.id)
                                .where(NightMember.player_id == player_id)
                                .order_by(Night.created_at.desc(), Night.id).limit(limit)))
    out = []
    for night in rows:
        board, matches = _board(session, night)
        place = next((pl for pl, p, _ in board.standings() if p == player_id), None)
        shared = viewer_id is not None and session.get(NightMember, (night.id, viewer_id)) is not None
        out.append({"id": night.id if shared else None, "status": night.status, "created_at": iso(night.created_at),
                    "matches": len(matches), "place": place, "total": board.totals.get(player_id, 0),
                    "players": len(board.players)})
    return out
