"""Whether the game rules run compiled (``scripts/compile_engines.py``, mypyc), and whether that
build still matches its sources. This module itself is never compiled.

A compiled module sits beside its ``.py`` file and Python imports it first, so a build older than
its source would run silently instead of the code on disk; ``check`` refuses that at import of
``engines`` (the build's ``compiled.json`` holds each source's hash)."""

from __future__ import annotations

import hashlib
import json
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the build compiles: the rules of every game and the helpers they call on every step
# (engines/protocol.py stays Python: the engine objects subclass its Engine there).
SOURCES = (
    "engines/plain.py",
    "engines/peribit/data.py", "engines/peribit/scoring.py", "engines/peribit/engine.py",
    "engines/synomilia/data.py", "engines/synomilia/engine.py",
    "engines/three_magic/data.py", "engines/three_magic/spells.py", "engines/three_magic/engine.py",
    "engines/mipolin/data.py", "engines/mipolin/engine.py",
    "engines/makelandia/data.py", "engines/makelandia/engine.py",
)
# Hashed with them: not compiled, but the compiled code is built against its types.
HASHED = SOURCES + ("engines/protocol.py",)
GROUP = "asobiba_engines"  # mypyc's shared library: <GROUP>__mypyc.<suffix> in ROOT
STAMP = ROOT / "engines" / "compiled.json"


class StaleBuild(ImportError):
    pass


def built_files(root: Path = ROOT) -> list[Path]:
    """The compiled build's files for this Python (none: pure Python)."""
    found = [root / f"{GROUP}__mypyc{suffix}" for suffix in EXTENSION_SUFFIXES]
    for source in SOURCES:
        path = root / source
        found += [path.with_name(path.stem + suffix) for suffix in EXTENSION_SUFFIXES]
    return [path for path in found if path.is_file()]


def _hash(root: Path, source: str) -> str:
    return hashlib.sha256((root / source).read_bytes()).hexdigest()


def _stamp(root: Path) -> Path:
    return root / STAMP.relative_to(ROOT)


def source_hashes(root: Path = ROOT) -> dict[str, str]:
    """Taken before a build starts, so a file saved while it compiles shows as newer than it."""
    return {source: _hash(root, source) for source in HASHED}


def write_stamp(hashes: dict[str, str], root: Path = ROOT) -> None:
    _stamp(root).write_text(json.dumps({"sources": hashes}, indent=1) + "\n")


def remove_build(root: Path = ROOT) -> int:
    files = built_files(root) + ([_stamp(root)] if _stamp(root).is_file() else [])
    for path in files:
        path.unlink()
    return len(files)


def check(root: Path = ROOT) -> None:
    """Raise ``StaleBuild`` if compiled rules are present but do not match their sources."""
    if not built_files(root):
        return
    try:
        built = json.loads(_stamp(root).read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        built = {}
    stale = [source for source in HASHED if built.get(source) != _hash(root, source)]
    if stale:
        raise StaleBuild(f"the compiled game rules are older than {', '.join(stale)}: rebuild them with "
                         "`.venv/bin/python scripts/compile_engines.py`, or remove them with `--clean`")


def is_compiled() -> bool:
    """True when the rules in use are the compiled build."""
    from engines import plain

    return not str(plain.__file__).endswith(".py")
