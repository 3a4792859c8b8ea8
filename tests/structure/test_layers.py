"""Layers, checked: a clean router translates HTTP to a service call and back; it runs no
transaction of its own. Read with ``ast`` from the source, as tests/structure/test_imports_and_sizes.py.

A router is clean when it
- imports nothing of the ORM: no ``sqlalchemy``, no ``app.store``, no models module (``app.models``,
  ``app.nights.models``...);
- defines no function of a session (a parameter or a lambda's named ``session`` or
  ``session_factory``, unannotated or typed as one: what ``db.run``, ``Hub.write`` and a plain
  ``def`` endpoint's ``SessionDep`` give) and names no ``store``;
- starts no database work itself: no ``db.run(...)``, no ``hub.write(...)``.

Every router is either clean or listed in ``NOT_YET_CLEAN`` (issue 49, point 1: what is left to
move into a service); a listed router that has become clean must leave the list."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUTERS = ROOT / "app" / "routers"

# Routers that still run transactions inline (the next ones to move into a service, as
# app/rooms/ holds the rooms' and the bots'): each breaks the rule above.
NOT_YET_CLEAN = {
    "accounts", "admin", "leaderboard", "matches", "me", "nights", "pages", "player_charts", "players", "push",
    "tables",
}
SESSION_NAMES = {"session", "session_factory"}
SESSION_ANNOTATIONS = {None, "Session", "SessionDep", "sessionmaker", "sessionmaker[Session]"}  # (SessionDep: app/deps.py)
TRANSACTION_CALLS = {("db", "run"), ("hub", "write")}


def orm_module(module: str) -> bool:
    return (module == "sqlalchemy" or module.startswith("sqlalchemy.") or module == "app.store"
            or module == "app.models" or module.endswith(".models"))


def violations(path: Path) -> list[str]:
    """What in the router at ``path`` breaks the rule, one line each (empty: it is clean)."""
    return source_violations(path.read_text(encoding="utf-8"), path.name)


def session_parameter(argument: ast.arg) -> bool:
    """A parameter that is a database session: so named, and not annotated as something else (the
    socket router's ``session: SocketSession`` is a socket's context)."""
    annotation = ast.unparse(argument.annotation) if argument.annotation is not None else None
    return argument.arg in SESSION_NAMES and annotation in SESSION_ANNOTATIONS


def source_violations(source: str, name: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        where = f"{name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            found += [f"{where} imports {alias.name}" for alias in node.names if orm_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:
                if orm_module(module) or orm_module(f"{module}.{alias.name}"):
                    found.append(f"{where} imports {module}.{alias.name}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
                if session_parameter(argument):
                    found.append(f"{where} a function of a {argument.arg}")
        elif isinstance(node, ast.Name) and node.id == "store":
            found.append(f"{where} uses store")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and (node.func.value.id, node.func.attr) in TRANSACTION_CALLS:
            found.append(f"{where} calls {node.func.value.id}.{node.func.attr}")
    return found


def routers() -> dict[str, Path]:
    return {path.stem: path for path in sorted(ROUTERS.glob("*.py")) if path.stem != "__init__"}


def test_clean_routers_run_no_transaction():
    broken = {name: violations(path) for name, path in routers().items() if name not in NOT_YET_CLEAN}
    assert {name: found for name, found in broken.items() if found} == {}, \
        "a clean router calls a service (app/rooms/service.py is one); it runs no transaction of its own"


def test_the_rooms_and_bots_routers_are_clean():
    assert {"rooms", "bots"} <= set(routers()) - NOT_YET_CLEAN


def test_the_list_of_routers_not_yet_clean_is_true():
    """Each listed router exists and still breaks the rule: one made clean leaves the list."""
    assert NOT_YET_CLEAN <= set(routers()), "a router of NOT_YET_CLEAN no longer exists"
    clean_now = sorted(name for name in NOT_YET_CLEAN if not violations(routers()[name]))
    assert clean_now == [], f"{clean_now} follow the rule now: take them off NOT_YET_CLEAN"


def test_the_rule_sees_a_transaction_inline():
    """The checker itself: each kind of breach is found, and a socket's context is no session."""
    source = ("from sqlalchemy import select\nfrom app import store\nfrom app.models import Room\n"
              "async def endpoint(db, hub):\n    def change(session):\n        store.get_room(session, 'x')\n"
              "    await db.run(change)\n    await hub.write(lambda session_factory: None)\n")
    kinds = {line.split(" ", 1)[1] for line in source_violations(source, "sample.py")}
    assert kinds == {"imports sqlalchemy.select", "imports app.store", "imports app.models.Room", "a function of a session",
                     "uses store", "calls db.run", "calls hub.write", "a function of a session_factory"}
    assert source_violations("def create(body, session: SessionDep):\n    pass\n", "p.py") != []
    assert source_violations("async def loop(session: SocketSession):\n    await session.live.wait()\n", "s.py") == []
