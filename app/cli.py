"""Maintenance commands: ``python -m app.cli rerate [--game G]``, ``python -m app.cli replay FILE``,
``python -m app.cli export MATCH_ID [-o FILE]`` (these use DATABASE_URL like the server) and
``python -m app.cli copy-database --from URL --to URL`` (move an instance, e.g. SQLite to PostgreSQL)."""

from __future__ import annotations

import argparse
import json
import sys

from app import history, ratings
from app.database_copy import CopyRefused, copy_database
from app.db import make_engine, make_session_factory, migrate
from app.settings import get_settings


def _session_factory():
    settings = get_settings()
    migrate(settings.database_url)
    return make_session_factory(make_engine(settings.database_url))


def cmd_rerate(args) -> int:
    """Recompute every rating from the matches; the result equals the incremental updates."""
    factory = _session_factory()
    with factory() as session, session.begin():
        count = ratings.rerate(session, args.game)
    print(f"re-rated {count} matches" + (f" of {args.game}" if args.game else ""))
    return 0


def cmd_replay(args) -> int:
    """Replay an export offline; print the outcome; fail if it differs from the recorded one."""
    with open(args.file, encoding="utf-8") as handle:
        record = json.load(handle)
    try:
        result = history.replay_export(record)
    except (ValueError, KeyError, TypeError) as exc:
        print(f"cannot replay {args.file}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0 if result["state_matches"] and result["outcome_matches"] else 1


def cmd_export(args) -> int:
    factory = _session_factory()
    with factory() as session:
        record = history.export_record(session, history.get_match(session, args.match_id))
    text = json.dumps(record, ensure_ascii=False, indent=1)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        print(text)
    return 0


def cmd_copy_database(args) -> int:
    """Copy every row of one instance into an empty database (see app/database_copy.py)."""
    try:
        report = copy_database(args.source, args.target)
    except CopyRefused as exc:
        print(f"copy refused: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    print("copied; point DATABASE_URL at the target and start the server")
    return 0


def cmd_room_ref(args) -> int:
    from app.observability.logs import room_ref
    print(room_ref(args.room_id))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.cli", description="Asobiba maintenance commands")
    commands = parser.add_subparsers(dest="command", required=True)
    rerate = commands.add_parser("rerate", help="recompute all ratings from scratch")
    rerate.add_argument("--game", help="only this game")
    rerate.set_defaults(run=cmd_rerate)
    replay = commands.add_parser("replay", help="replay a match export file offline and print the outcome")
    replay.add_argument("file")
    replay.set_defaults(run=cmd_replay)
    export = commands.add_parser("export", help="write a match's export record (admins: works for any match)")
    export.add_argument("match_id")
    export.add_argument("-o", "--output")
    export.set_defaults(run=cmd_export)
    copy = commands.add_parser("copy-database", help="copy a whole instance into an empty database (SQLite -> PostgreSQL)")
    copy.add_argument("--from", dest="source", required=True, help="source DATABASE_URL (stop its server first)")
    copy.add_argument("--to", dest="target", required=True, help="target DATABASE_URL (an empty database)")
    copy.set_defaults(run=cmd_copy_database)
    ref = commands.add_parser("room-ref", help="the ref that log lines show for a room id (logs never carry the id)")
    ref.add_argument("room_id")
    ref.set_defaults(run=cmd_room_ref)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
