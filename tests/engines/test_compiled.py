"""The optional compiled build (scripts/compile_engines.py): a build older than its sources is
refused at import instead of running silently in place of the code on disk. The build itself is
made and the engine tests run on it in .ci/run (it takes a minute); here its files are stood in for
by empty ones in a copy of the sources, to test the check alone."""

from __future__ import annotations

import os
import re
import shutil
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

from engines import compiled


@pytest.fixture
def sources(tmp_path):
    for source in compiled.HASHED:
        (tmp_path / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled.ROOT / source, tmp_path / source)
    return tmp_path


def fake_build(root) -> None:
    for source in compiled.SOURCES:
        path = root / source
        path.with_name(path.stem + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    (root / f"{compiled.GROUP}__mypyc{EXTENSION_SUFFIXES[0]}").write_bytes(b"")


def test_no_build_is_pure_python_and_passes(sources):
    assert compiled.built_files(sources) == []
    compiled.check(sources)


def test_a_build_matching_its_sources_passes(sources):
    fake_build(sources)
    compiled.write_stamp(compiled.source_hashes(sources), sources)
    compiled.check(sources)
    assert len(compiled.built_files(sources)) == len(compiled.SOURCES) + 1


def edit(root, source: str) -> None:
    with open(root / source, "a") as file:
        file.write("\n# edited\n")


# A compiled source, and engines/protocol.py: not compiled, but the rules were built against its types.
@pytest.mark.parametrize("source", ["engines/synomilia/engine.py", "engines/protocol.py"])
def test_a_source_edited_after_the_build_is_refused_with_what_to_do(sources, source):
    fake_build(sources)
    compiled.write_stamp(compiled.source_hashes(sources), sources)
    edit(sources, source)
    with pytest.raises(compiled.StaleBuild, match=re.escape(source) + r".*compile_engines\.py"):
        compiled.check(sources)


def test_a_source_saved_while_the_build_compiles_is_newer_than_the_build(sources):
    before = compiled.source_hashes(sources)  # what the build compiles
    edit(sources, "engines/plain.py")  # saved meanwhile
    fake_build(sources)
    compiled.write_stamp(before, sources)
    with pytest.raises(compiled.StaleBuild, match=r"engines/plain\.py"):
        compiled.check(sources)


def test_a_build_without_its_record_is_refused_and_clean_removes_it(sources):
    fake_build(sources)
    with pytest.raises(compiled.StaleBuild):
        compiled.check(sources)
    assert compiled.remove_build(sources) == len(compiled.SOURCES) + 1
    compiled.check(sources)


def test_the_rules_in_use_are_the_build_this_run_expects():
    """.ci/run runs the engine tests a second time on the compiled build with
    ASOBIBA_EXPECT_COMPILED=1: that run must really use it, and every other run pure Python."""
    assert compiled.is_compiled() is (os.environ.get("ASOBIBA_EXPECT_COMPILED") == "1")
