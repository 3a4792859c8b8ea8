"""The shape of the code, checked: no import circles in ``app/`` or ``engines/``, and no class in
``app/`` longer than 200 lines (a class that long does several jobs; split it by job).

Imports are read with ``ast`` from the source files, so nothing is imported to check them. Every
``import`` statement counts wherever it stands: at module level, inside a function (a deferred
import still ties the two modules together) and under ``if TYPE_CHECKING`` (a circle only the
type checker sees is still two modules that need each other). An import names its most specific
module: ``from app.cluster import fencing`` is an edge to ``app.cluster.fencing``, ``from
app.live.runner import MatchRunner`` one to ``app.live.runner``. The parent packages Python
initialises on the way (``app``, ``app.live``) are not counted as edges: importing a submodule
does not make a module depend on its package's ``__init__``, and counting them would report
every package whose ``__init__`` re-exports a submodule as a circle with that submodule."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "engines")
MAX_CLASS_LINES = 200


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def imported_modules(name: str, path: Path, modules: set[str]) -> set[str]:
    """The modules of ``app``/``engines`` that the file at ``path`` imports anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import submodule`` names the submodule; ``from module import thing`` the module
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # ``import app.live.runner as r`` etc.: the longest known name
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    files = source_files()
    return {name: imported_modules(name, path, set(files)) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module (Tarjan), as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_reader_sees_real_imports():
    """The checker reads what it should (so an empty list of circles means something)."""
    graph = import_graph()
    assert "app.live.runner" in graph["app.live.hub"]
    assert "engines.protocol" in graph["app.live.runner"]
    assert "app.cluster.fencing" in graph["app.cluster.ownership"]  # from app.cluster import fencing
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles_in_app_or_engines():
    assert cycles(import_graph()) == []


def test_no_class_in_app_over_200_lines():
    long = []
    for name, path in source_files().items():
        if not name.startswith("app"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert long == []
