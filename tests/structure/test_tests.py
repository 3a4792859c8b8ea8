"""The tests' own structure: waiting and comparing views are written once (tests/support/waiting.py,
tests/engines/observe.py), and tests observe app objects through their public interface.

Rules, checked on the syntax tree of every module under tests/ except tests/support/:

1. No module defines a function named ``wait_for`` (or the old view helpers ``vjson``,
   ``_vjson``): wait with ``tests.support.waiting.wait_for`` / ``wait_until_equal``, compare
   views with ``tests.engines.observe.view_json``.
2. No module reads or writes an attribute whose name starts with a single underscore on another
   object (``x._name``; dunders such as ``__name__`` are public). Allowed:
   - ``self._name`` and ``cls._name``: a test class's own state;
   - names that tests/ itself defines (a ``def _name`` or an assignment ``obj._name = ...`` in a
     class under tests/, e.g. the test client's ``Api._headers``): test-local, not the app's;
   - the pairs in ``STILL_PRIVATE`` below, each a place where no public interface exists yet.
     The list may only shrink: a pair no longer found fails too, so it is removed when fixed."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
SUPPORT = TESTS / "support"
OWN_HELPERS = {"wait_for", "vjson", "_vjson"}

# (module under tests/, attribute): private reads of app (or library) objects left to rewrite.
STILL_PRIVATE = {
    ("ops/test_logs.py", "_stop_listener"),  # app.logs: flushing the queued log lines
    ("ops/test_loop_lag.py", "_handle"),  # the lag probe's scheduled callback
    ("ops/test_loop_lag.py", "_Largest"),  # a unit test of app.metrics' private gauge kind
    ("ops/test_gc_tuning.py", "_base"),  # the full-collection pacing's baseline
    ("platform/test_zombie_seats.py", "_task"),  # a failure message: the absence watch's expiry task
    ("platform/test_zombie_seats.py", "_tasks"),  # the runner's pending timers (bots_waiting)
    ("platform/test_push_guard_bounds.py", "_loop"),  # the notifier's event loop, set by the test
    ("platform/test_push_guard_bounds.py", "_dropped_said_at"),  # the notifier's last "dropped" log
    ("platform/test_push.py", "_value"),  # prometheus_client counter values
    ("security/test_push_fairness.py", "_value"),  # prometheus_client counter values
    ("live/test_hub_memory.py", "_idle_sweeper"),  # the server thread's event loop, from the sweeper task
    ("cluster/test_bus.py", "_pubsub"),  # the bus's Redis subscription, cut behind its back
    ("cluster/test_bus.py", "_confirmed"),  # the bus's confirmed subscriptions
    ("cluster/test_bus.py", "_tasks"),  # the bus's listener tasks
    ("security/test_preview_cost.py", "_night"),  # app.nights.router's night reader, wrapped to count reads
}


def trees() -> dict[Path, ast.AST]:
    return {path: ast.parse(path.read_text(), str(path)) for path in TESTS.rglob("*.py")}


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_test_module_writes_its_own_wait_or_view_helper():
    found = [f"{path.relative_to(TESTS)}:{node.lineno} def {node.name}"
             for path, tree in trees().items() if SUPPORT not in path.parents
             for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in OWN_HELPERS]
    assert found == [], "use tests.support.waiting / tests.engines.observe.view_json"


def test_tests_observe_app_objects_through_their_public_interface():
    parsed = trees()
    own: set[str] = set()  # underscore names that tests/ defines itself
    for tree in parsed.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(node.name):
                own.add(node.name)
            elif isinstance(node, ast.ClassDef):
                for inner in ast.walk(node):
                    if (isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store)
                            and isinstance(inner.value, ast.Name) and inner.value.id == "self" and private(inner.attr)):
                        own.add(inner.attr)
    found: dict[tuple[str, str], list[int]] = {}
    for path, tree in parsed.items():
        if SUPPORT in path.parents:
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and private(node.attr)):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if node.attr in own:
                continue
            found.setdefault((path.relative_to(TESTS).as_posix(), node.attr), []).append(node.lineno)
    new = {f"{where}:{lines[0]} ._{name.lstrip('_')}" for (where, name), lines in found.items()
           if (where, name) not in STILL_PRIVATE}
    assert new == set(), ("a test reads a private attribute of an app object: observe it through a public "
                          "interface (a read-only property, a method, an observable effect)")
    assert STILL_PRIVATE - set(found) == set(), "no longer read: remove these from STILL_PRIVATE"
