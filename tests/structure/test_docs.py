"""The README stays a map (at most 150 lines) whose every link leads somewhere, and every page it
moved to docs/ is linked from it (docs/decisions/2026-12-07-readme-is-a-map.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_the_readme_is_at_most_150_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines: move detail to docs/"


def test_every_relative_link_in_the_readme_exists():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert links, "the README links to nothing"
    missing = [link for link in links if not link.startswith(("http:", "https:")) and not (ROOT / link).exists()]
    assert not missing, f"README links to files that do not exist: {missing}"


def test_every_page_in_docs_is_reachable_from_the_readme():
    text = README.read_text(encoding="utf-8")
    pages = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").glob("*.md"))
    unlinked = [page for page in pages if page not in text]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def test_every_path_the_readme_names_in_backquotes_exists():
    """A map that names a file that moved sends the reader nowhere."""
    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:app|engines|static|tests|scripts|migrations|deploy|docs|benchmarks)/[\w./<>-]*)`", text))
    missing = [path for path in sorted(named) if "<" not in path and not (ROOT / path.rstrip("/")).exists()]
    assert not missing, f"README names paths that do not exist: {missing}"


def test_every_test_listed_as_slow_exists():
    """tests/slow.py names modules and functions: a renamed test must not silently join the fast path
    while its old name stays listed."""
    import ast

    from tests.slow import SLOW_MODULES, SLOW_TESTS
    missing = [module for module in sorted(SLOW_MODULES | set(SLOW_TESTS)) if not (ROOT / module).exists()]
    assert not missing, f"tests/slow.py lists missing modules: {missing}"
    gone = []
    for module, functions in SLOW_TESTS.items():
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        gone += [f"{module}::{name}" for name in sorted(functions - defined)]
    assert not gone, f"tests/slow.py lists tests that do not exist: {gone}"
