"""Starting the table from the command line: the screenshot is written whole and checked
(Panda3D's writer fails without a word: ``--screenshot /sys/x.png`` exited 0, writing
nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.app.launch import _save_screenshot

pytestmark = pytest.mark.app


class _App:
    """What _save_screenshot asks of the app: a screenshot written, or not."""

    def __init__(self, writes: bytes | None) -> None:
        self.writes = writes

    def screenshot(self, path: Path) -> None:
        if self.writes is not None:
            path.write_bytes(self.writes)


def test_a_screenshot_written_lands_whole_with_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "new" / "shot.png"
    assert _save_screenshot(_App(b"\x89PNG picture"), target) is None
    assert target.read_bytes() == b"\x89PNG picture"
    assert [p.name for p in target.parent.iterdir()] == ["shot.png"]


def test_a_screenshot_not_written_is_one_line_and_the_old_file_stays(tmp_path: Path) -> None:
    target = tmp_path / "shot.xyz"
    target.write_bytes(b"the old one")
    problem = _save_screenshot(_App(None), target)
    assert problem is not None and "could not be written" in problem and "\n" not in problem
    assert target.read_bytes() == b"the old one"
    assert [p.name for p in tmp_path.iterdir()] == ["shot.xyz"]


def test_a_screenshot_under_a_regular_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("mine")
    problem = _save_screenshot(_App(b"png"), tmp_path / "a-file" / "shot.png")
    assert problem is not None and problem.startswith("cannot write the screenshot")
