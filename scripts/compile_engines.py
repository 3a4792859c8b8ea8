"""The optional compiled build of the game rules (issue 34): mypyc compiles each game's rules to C.

    .venv/bin/python scripts/compile_engines.py           # build in place (about a minute on 2 cores)
    .venv/bin/python scripts/compile_engines.py --clean   # back to pure Python

The rules are typed Python (mypy checks them in CI); mypyc turns the modules in ``SOURCES`` into
C extensions placed beside their sources, which Python imports in preference to the ``.py``
files. Nothing else changes: same functions, same results (the engine tests run on both builds in
CI), about 30 % less CPU per engine step and 10-15 % more moves per second at 100 rooms
(benchmarks/README.md). Without a build, or after ``--clean``, everything runs as pure Python.

``engines/compiled.json`` records each source's hash at build time: ``engines/__init__.py``
refuses to start with compiled rules older than their source (edited since the build), which
would otherwise run silently instead of the code on disk. mypy (which contains mypyc) and a C
compiler with Python's headers are needed to build; at run time nothing more than the build's
own files (and ``librt``, mypyc's runtime library, when the build needs it)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# engines/compiled.py by its path: importing the engines package would refuse a stale build first.
_spec = importlib.util.spec_from_file_location("engines_compiled", ROOT / "engines" / "compiled.py")
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    clean()
    hashes = compiled.source_hashes()
    with tempfile.TemporaryDirectory() as temp:
        setup(name="asobiba-engines", packages=[],
              ext_modules=mypycify(list(compiled.SOURCES), opt_level="3", group_name=compiled.GROUP, multi_file=True),
              script_args=["-q", "build_ext", "--inplace", "--build-temp", temp, "--parallel", str(os.cpu_count() or 1)])
    shutil.rmtree(ROOT / "build", ignore_errors=True)  # mypyc's generated C (kept there by mypycify)
    compiled.write_stamp(hashes)
    print(f"compiled {len(compiled.SOURCES)} modules: {', '.join(compiled.SOURCES)}")


def clean() -> None:
    removed = compiled.remove_build()
    if removed:
        print(f"removed {removed} compiled files")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled build (pure Python again)")
    if parser.parse_args().clean:
        clean()
    else:
        build()
