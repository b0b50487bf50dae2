"""The stamp that tells a first run (pooltool's physics being compiled) from a later one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.paths import numba_cache_dir
from sim.physics.simulators import compiled


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache's folder: the arithmetic's own, inside the user's NUMBA_CACHE_DIR."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    folder = numba_cache_dir()
    assert folder.parent == tmp_path and folder.name.startswith("fixed-dot-1-")
    return folder


def test_no_stamp_is_a_first_run(cache: Path) -> None:
    assert not compiled.compiled_before()


def test_a_finished_warm_up_is_remembered(cache: Path) -> None:
    compiled.mark_compiled(41.27)
    assert compiled.compiled_before()
    assert json.loads((cache / compiled.STAMP).read_text())["warm_up_seconds"] == 41.3


def test_other_versions_or_a_damaged_stamp_mean_compiling_again(cache: Path) -> None:
    compiled.mark_compiled(40.0)
    stamp = json.loads((cache / compiled.STAMP).read_text())
    stamp["versions"]["numba"] = "0.0.1"
    (cache / compiled.STAMP).write_text(json.dumps(stamp))
    assert not compiled.compiled_before()
    (cache / compiled.STAMP).write_text("{not json")
    assert not compiled.compiled_before()
    (cache / compiled.STAMP).write_text("[1, 2]")
    assert not compiled.compiled_before()


def test_a_read_only_cache_costs_only_the_wording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "numba"))
    compiled.mark_compiled(40.0)  # no error
    assert not compiled.compiled_before()
