"""Play whole matches through the real store (the same transactions the server uses, finish hooks
included) without a server: fast enough to play every game and many rated matches per test."""

from __future__ import annotations

import random

from sqlalchemy import select

import engines
from app import ratings, store
from app.db import make_engine, make_session_factory, migrate
from app.models import Match, MatchAction, MatchResult, Player, PlayerRating, Room, RoomSeat
from app.security import hash_token, new_id, new_room_id, new_token
from engines.protocol import SYSTEM


def session_factory_for(database_url: str):
    migrate(database_url)
    ratings.install()
    engine = make_engine(database_url)
    return engine, make_session_factory(engine)


def make_players(factory, names: list[str], bot: bool = False) -> list[str]:
    with factory() as session, session.begin():
        players = [Player(id=new_id(), name=name, token_hash=hash_token(new_token()), is_bot=bot) for name in names]
        session.add_all(players)
    return [p.id for p in players]


def start(factory, game: str, player_ids: list[str], options: dict | None = None) -> str:
    with factory() as session, session.begin():
        room = Room(id=new_room_id(), game=game, options=options or {}, num_seats=len(player_ids),
                    host_id=player_ids[0], status="open")
        session.add(room)
        session.flush()
        session.add_all([RoomSeat(room_id=room.id, seat=i, player_id=pid, private_data={})
                         for i, pid in enumerate(player_ids)])
        session.flush()
        match = store.start_match(session, room)
    return match.id


def random_steps(engine, state, rng: random.Random, max_steps: int | None = None):
    """(seat, action, state after) of random legal actions from ``state`` to the end (or
    ``max_steps``), SYSTEM steps first, as the server does: the choices ``play`` makes."""
    steps = 0
    while engine.awaiting(state) and (max_steps is None or steps < max_steps):
        awaited = engine.awaiting(state)
        seat = SYSTEM if SYSTEM in awaited else rng.choice(sorted(awaited))
        legal = engine.legal_actions(state, seat)
        action = legal[0] if seat == SYSTEM else rng.choice(legal)
        state = engine.apply(state, seat, action)
        steps += 1
        yield seat, action, state


def play(factory, match_id: str, rng: random.Random, max_steps: int | None = None) -> int:
    """Random legal actions (SYSTEM steps first, as the server does). All but the last action are
    written in one transaction (speed); the last goes through ``store.record_action``, the
    server's own write path, so finish hooks run exactly as live."""
    with factory() as session:
        match = session.get(Match, match_id)
        engine = engines.get(match.game)
        state = engine.state_from_json(match.state)
        version = match.version
    log, states = [], [state]
    for seat, action, state in random_steps(engine, state, rng, max_steps):
        log.append((seat, action))
        states.append(state)
    if not log:
        return 0
    with factory() as session, session.begin():
        match = session.get(Match, match_id)
        session.add_all([MatchAction(match_id=match_id, idx=version + i, seat=seat, action=action)
                         for i, (seat, action) in enumerate(log[:-1])])
        match.version = version + len(log) - 1
        match.state = engine.state_to_json(states[-2])
    seat, action = log[-1]
    store.record_action(factory, match_id, version + len(log) - 1, seat, action,
                        engine.state_to_json(state), engine.outcome(state))
    return len(log)


def play_match(factory, game: str, player_ids: list[str], rng: random.Random, options: dict | None = None) -> str:
    match_id = start(factory, game, player_ids, options)
    play(factory, match_id, rng)
    return match_id


def rating_snapshot(factory) -> tuple[list, list]:
    """Every rating and every result row, in a stable order, as plain tuples (exact floats)."""
    with factory() as session:
        rows = [(r.player_id, r.game, r.mu, r.sigma, r.games)
                for r in session.scalars(select(PlayerRating).order_by(PlayerRating.game, PlayerRating.player_id))]
        results = [(r.match_id, r.seat, r.player_id, r.status, r.rank, r.rated, r.mu_before, r.sigma_before,
                    r.mu_after, r.sigma_after)
                   for r in session.scalars(select(MatchResult).order_by(MatchResult.match_id, MatchResult.seat))]
    return rows, results
