"""One declared interface for a match, whatever runs it (app/live/match.py): the local runner and
the cluster's mirror both have every member of ``Match``, and no code in ``app/`` asks which kind
of match it holds."""

from __future__ import annotations

import ast
import asyncio
import inspect

from app.cluster.mirror import MirrorMatch
from app.clock import SystemClock
from app.live.match import Match
from app.live.runner import MatchRunner
from engines import get as get_engine
from tests.structure.test_imports_and_sizes import source_files

KINDS = {"Match", "MatchRunner", "MirrorMatch"}


def protocol_members() -> set[str]:
    members = set(Match.__annotations__)
    members |= {name for name, value in vars(Match).items()
                if not name.startswith("_") and (callable(value) or isinstance(value, property))}
    return members


def test_the_runner_and_the_mirror_have_every_member_of_match():
    members = protocol_members()
    assert {"current", "submit", "missed_views", "finished", "stop", "listener", "lock"} <= members

    async def both():  # (made on a running loop: each holds an asyncio lock)
        async def forward(seat, action, version):
            return version

        state = get_engine("synomilia").new_game(2, 1, {})
        return (MatchRunner("m", "synomilia", 1, 2, state, 0, {}, clock=SystemClock(), writer=None),
                MirrorMatch("m", "synomilia", 2, forward))

    runner, mirror = asyncio.run(both())
    for match in (runner, mirror):
        missing = sorted(name for name in members if not hasattr(match, name))
        assert missing == [], f"{type(match).__name__} lacks {missing}"
        for name in members:
            declared = getattr(Match, name, None)
            if inspect.iscoroutinefunction(declared):
                assert inspect.iscoroutinefunction(getattr(match, name)), name


def test_no_code_in_app_asks_which_kind_of_match_it_holds():
    asked = []
    for name, path in source_files().items():
        if not name.startswith("app"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "type"):
                named = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
                        {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
                if named & KINDS:
                    asked.append(f"{name}:{node.lineno}")
    assert asked == []
