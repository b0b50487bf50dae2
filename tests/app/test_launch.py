"""Starting the table from the command line: the screenshot is written whole and checked
(Panda3D's writer fails without a word: ``--screenshot /sys/x.png`` exited 0, writing
nothing), and a table is laid out at once, pooltool loading after it (a replay says what
it waits for from its first frame)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from numpy.typing import NDArray

from sim.app.launch import _save_screenshot
from tests.app.conftest import step

if TYPE_CHECKING:
    from sim.app.main import PoolApp

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


def test_a_replay_opened_from_the_command_line_says_what_it_waits_for_from_its_first_frame(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28, friction 17: a black window for some 4 s before "loading the physics".
    A replay plays pooltool's shots: the line is drawn in the first frames, the replay
    laid out once pooltool is loaded (held back here), and the line gone with it."""
    from sim.app import launch
    from sim.physics import pooltool_setup

    loaded = False
    monkeypatch.setattr(pooltool_setup, "pooltool_loaded", lambda wait=0.0: loaded)
    monkeypatch.setattr(pooltool_setup, "load_pooltool_in_background", lambda: None)
    blank = _frame(table)
    line = launch.OpeningLine(table.base)
    opened: list[bool] = []
    launch._open_when_loaded(table, line, lambda: opened.append(True))
    assert _line_drawn(_frame(table), blank)
    assert line.text.getText().startswith("setting up the table")
    for _ in range(3):  # waiting, and saying so
        assert not opened and _line_drawn(_frame(table), blank)
    loaded = True
    after = _frame(table)
    assert opened == [True]
    assert line.text.isEmpty() and after.tolist() == blank.tolist()  # the line gone


def test_a_table_opened_from_the_command_line_is_laid_out_at_once(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28, friction 18: a table is drawn from its plan, without waiting for
    pooltool, and pooltool starts loading once the table is on screen (not before:
    the import would take the interpreter in turns with the table's laying out)."""
    from sim.app import launch
    from sim.physics import pooltool_setup

    started: list[bool] = []
    monkeypatch.setattr(pooltool_setup, "pooltool_loaded", lambda wait=0.0: False)
    monkeypatch.setattr(pooltool_setup, "load_pooltool_in_background", lambda: started.append(True))
    line = launch.OpeningLine(table.base)
    opened: list[bool] = []
    launch._open_at_once(table, line, lambda: opened.append(True))
    assert opened == [True] and line.text.isEmpty() and not started
    step(table.base, 1)
    assert not started  # the table's first frame is still to show
    step(table.base, 2)
    assert started == [True]


def test_the_first_table_is_drawn_without_pooltool_in_the_window(tmp_path: Path) -> None:
    """``poolsim play --game ten-ball``, its background import of pooltool held back: the
    table is laid out and drawn (its screenshot written) with pooltool never imported in
    the window's process (the physics worker, a process of its own, loads it)."""
    import os
    import subprocess
    import sys

    shot = tmp_path / "table.png"
    probe = (
        "import sys\n"
        "import sim.physics.pooltool_setup as setup\n"
        "setup.load_pooltool_in_background = lambda: None\n"
        "from sim.cli import main\n"
        f"sys.argv = ['poolsim', 'play', '--game', 'ten-ball', '--seed', '5', "
        f"'--screenshot', {str(shot)!r}, '--frames', '2']\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    print('pooltool imported:', 'pooltool' in sys.modules)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    env |= {"POOLSIM_DATA_DIR": str(tmp_path), "POOLSIM_CONFIG_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=600, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "pooltool imported: False"
    assert shot.stat().st_size > 0


def _line_drawn(frame: NDArray[np.uint8], blank: NDArray[np.uint8]) -> bool:
    """A line of text across the window's middle, and nothing else, on ``blank``."""
    changed = np.argwhere(np.any(frame != blank, axis=2))
    rows = changed[:, 0] / frame.shape[0]
    return len(changed) > 100 and rows.min() > 0.4 and rows.max() < 0.6


def _frame(app: PoolApp) -> NDArray[np.uint8]:
    from sim.app.headless import grab_rgb

    step(app.base, 2)  # a frame shows as the next one is drawn
    return grab_rgb(app.base)
