"""Match history: the record of a match, step-by-step replays recomputed from seed + options +
action log, self-contained exports (and replaying them offline), and aborting a stuck match.

Who may see what is decided by the routers; here ``omniscient`` / ``admin`` flags say how much to
show. A running match is only ever shown to admins (its seed and hidden state are still secret)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import engines
from app import ratings, store
from app.correspondence import records as deadline_records
from app.endings import actions as platform
from app.errors import ApiError, not_found
from app.models import Match, MatchAction, MatchResult, Room, utcnow
from engines.protocol import SYSTEM

EXPORT_FORMAT = "asobiba-match"
EXPORT_VERSION = 1
OVER = ("finished", "aborted")


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite hands datetimes back without their zone)."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).isoformat()


def get_match(session: Session, match_id: str) -> Match:
    match = session.get(Match, match_id) if isinstance(match_id, str) and len(match_id) <= 32 else None
    if match is None:
        raise not_found("match", match_id)
    return match


def require_over(match: Match, admin: bool) -> None:
    """Non-admins see a match only once it is over: before that, the seed and log would leak."""
    if match.status not in OVER and not admin:
        raise ApiError(409, "match_running", "the match is still running; its history is available once it is over")


def actions(session: Session, match_id: str) -> list[MatchAction]:
    return list(session.scalars(select(MatchAction).where(MatchAction.match_id == match_id).order_by(MatchAction.idx)))


def seat_list(match: Match) -> list[dict]:
    return [{"seat": i, "player_id": s["player_id"], "name": s["name"], "bot": bool(s.get("bot"))}
            for i, s in enumerate(match.seats)]


def match_record(session: Session, match: Match, admin: bool = False) -> dict:
    """What ``GET /api/matches/{id}`` shows: game, options, seats with names and rating changes,
    outcome, scores, duration. The room id (the room's secret link) only for admins."""
    engine = engines.get(match.game)
    results = {r.seat: r for r in session.scalars(select(MatchResult).where(MatchResult.match_id == match.id))}
    seats = []
    abandoned = ratings.abandoned_seats(session, match.id)
    for entry in seat_list(match):
        entry["abandoned"] = entry["seat"] in abandoned  # a bot played for them (zombie seat): counted a loss
        result = results.get(entry["seat"])
        entry["rank"] = result.rank if result else None
        entry["rating_change"] = rating_change(result) if result is not None and result.rated else None
        seats.append(entry)
    end = match.finished_at
    record = {
        "id": match.id, "game": match.game, "title": engine.title, "title_ja": engine.title_ja, "engine_version": match.engine_version,
        "options": match.options, "status": match.status, "ending": match.ending, "table_rated": match.rated,
        "seats": seats, "outcome": match.outcome,
        "scores": (match.outcome or {}).get("scores"), "steps": store.log_length(session, match.id),
        "rated": any(r.rated for r in results.values()),
        "unrated_reason": ratings.unrated_reason(session, match, abandoned),
        "rating_changes": [dict(rating_change(r), seat=r.seat, player_id=r.player_id) for r in results.values() if r.rated],
        "started_at": iso(match.started_at), "finished_at": iso(end),
        "duration_seconds": round((end - match.started_at).total_seconds(), 3) if end else None,
    }
    if admin:
        record["room_id"] = match.room_id
    return record


def rating_change(result: MatchResult) -> dict:
    """A rated result's change (a rated result has every rating column)."""
    mu0, sigma0, mu1, sigma1 = result.mu_before, result.sigma_before, result.mu_after, result.sigma_after
    assert mu0 is not None and sigma0 is not None and mu1 is not None and sigma1 is not None, "not rated"
    before = ratings.display_rating(mu0, sigma0)
    after = ratings.display_rating(mu1, sigma1)
    return {"before": ratings.describe(mu0, sigma0), "after": ratings.describe(mu1, sigma1),
            "delta": round(after - before, 3),  # of the conservative rating (the leaderboard's order)
            "shown_delta": ratings.shown_change(mu0, mu1)}  # of the figure players read ("1500?")


def parse_seat(match: Match, seat: str | None) -> int | str | None:
    """``None``/"" /"spectator" -> spectator view, "all" -> omniscient, "n" -> seat n."""
    if seat in (None, "", "spectator"):
        return None
    if seat == "all":
        return "all"
    if not (seat.isascii() and seat.isdigit()) or int(seat) >= len(match.seats):
        raise ApiError(422, "bad_seat", f"seat must be 0–{len(match.seats) - 1}, 'spectator' or 'all'; not {seat!r}")
    return int(seat)


def _platform_entry_for(action: dict, seat: int | str | None) -> dict:
    """A platform entry as ``seat``'s replay shows it. A missed deadline's bot move is that seat's
    own move, so it is hidden where the seat's other moves are: shown to ``all`` and to the late
    seat itself, the fact alone ("the bot played for Ben") to everyone else."""
    if "move" in action and seat != "all" and action.get("seat") != seat:
        return {key: value for key, value in action.items() if key != "move"}
    return action


def replay_step(session: Session, match: Match, seat: int | str | None, step: int | None) -> dict:
    """The match as ``seat`` saw it after ``step`` actions (default: the last step), recomputed
    from seed + options + log. ``seat="all"`` adds the full state and every seat's view. The
    step's action is whole for "all" and for the seat's own; another seat's is its public part
    (``Engine.public_action``), or absent where the game makes none of it public."""
    engine = engines.get(match.game)
    log = actions(session, match.id)
    if step is None:
        step = len(log)
    if not 0 <= step <= len(log):
        raise ApiError(422, "bad_step", f"step must be between 0 and {len(log)}, not {step}")
    state, table = store.replay_match(match, [(a.seat, a.action) for a in log], upto=step)
    viewer = seat if isinstance(seat, int) else None  # "all" and spectators see the public view
    last: dict | None = None
    if step:
        row = log[step - 1]
        last = {"idx": row.idx, "seat": row.seat, "at": iso(row.created_at)}
        if row.seat == platform.PLATFORM:  # a vote or an early end: public once the match is over
            last["action"] = _platform_entry_for(row.action, seat)
        elif seat == "all" or (seat is not None and row.seat == seat):
            last["action"] = row.action
        elif (public := engine.public_action(state, row.seat, row.action)) is not None:
            # another seat's move (or the server's own step), as the table showed it then: its
            # public part ("stacked a chip, sun side up"; a prediction only as made), marked so a
            # client can tell
            last["action"], last["public_part"] = public, public != row.action
    # as the table showed it (``Engine.shown_awaiting``); "all" sees who really was awaited
    awaiting = [] if table.ended is not None else sorted(
        engine.awaiting(state) if seat == "all" else engine.shown_awaiting(state))
    message = {
        "match_id": match.id, "game": match.game, "status": match.status, "step": step, "steps": len(log),
        "seat": seat, "players": seat_list(match), "view": engine.view(state, viewer), "awaiting": awaiting,
        "outcome": platform.outcome(engine, state, table), "last_action": last, "ending": match.ending,
        "rated": match.rated, "pace": match.pace,
    }
    if seat == "all":
        message["state"] = engine.state_to_json(state)
        message["views"] = [engine.view(state, s) for s in range(len(match.seats))]
        message["legal_actions"] = {str(s): engine.legal_actions(state, s) for s in awaiting if s != SYSTEM}
    return json.loads(json.dumps(message))


def export_record(session: Session, match: Match) -> dict:
    """A self-contained JSON record: enough to replay the match without our database."""
    return {
        "format": EXPORT_FORMAT, "format_version": EXPORT_VERSION, "match_id": match.id, "game": match.game,
        "engine_version": match.engine_version, "options": match.options, "seed": match.seed,
        "seats": seat_list(match), "status": match.status, "started_at": iso(match.started_at),
        "finished_at": iso(match.finished_at), "outcome": match.outcome, "ending": match.ending,
        "rated": match.rated, "actions": [{"idx": a.idx, "seat": a.seat, "action": a.action, "at": iso(a.created_at)}
                    for a in actions(session, match.id)],
        "final_state": match.state, "exported_at": iso(utcnow()),
    }


def replay_export(record: dict) -> dict:
    """Replay an export offline; say whether the result matches what the server recorded.
    ``ValueError`` for a file that is not an export we can read."""
    if not isinstance(record, dict) or record.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not an Asobiba match export (expected format {EXPORT_FORMAT!r})")
    if record.get("format_version") != EXPORT_VERSION:
        raise ValueError(f"unsupported export format_version {record.get('format_version')!r}; this build reads {EXPORT_VERSION}")
    engine = engines.get(record["game"])
    state = engine.new_game(len(record["seats"]), record["seed"], record["options"])
    table = platform.Table()
    for expected_idx, entry in enumerate(record["actions"]):
        if entry["idx"] != expected_idx:
            raise ValueError(f"action {expected_idx} is missing (found idx {entry['idx']})")
        state, table = platform.replay(engine, state, [(entry["seat"], entry["action"])], table)
    outcome = platform.outcome(engine, state, table)
    final = json.loads(json.dumps(engine.state_to_json(state)))
    return {
        "game": record["game"], "steps": len(record["actions"]), "outcome": outcome,
        "finished": outcome is not None,
        "engine_version": engine.version,
        "engine_version_matches": str(engine.version) == str(record.get("engine_version")),
        "outcome_matches": outcome == record.get("outcome"),
        "state_matches": final == record.get("final_state"),
    }


def abort_match(session_factory: sessionmaker[Session], match_id: str) -> Match:
    """Mark a running match and its room aborted (one transaction). Aborted matches are not rated,
    but the seats get history rows."""
    with session_factory() as session, session.begin():
        match = get_match(session, match_id)
        session.refresh(match, with_for_update=True)
        if match.status != "running":
            raise ApiError(409, "not_running", f"the match is {match.status}; only a running match can be aborted")
        resumed = store.load_match(session, match_id)  # the snapshot at the end, as for a finished match
        match.version = resumed.version
        match.state = engines.get(match.game).state_to_json(resumed.state)
        match.status = "aborted"
        match.finished_at = utcnow()
        room = session.get(Room, match.room_id)
        assert room is not None, "a match's room outlives it"
        room.status = "aborted"
        session.flush()
        if match.pace != "live":  # its deadlines end with it, as a finish's do (store._finish)
            deadline_records.forget(session.connection(), match.id)
        ratings.record_result(session, match)
        return match
