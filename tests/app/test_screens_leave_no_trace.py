"""The state test of issue 28: every screen opened over a table and closed again in turn
(the menu, the replay viewer and its side by side of two attempts, the match summary, a
drill and its summary, the practice table's set-up, the start screen and each of its
panels), and the Graphics row switched to Quality and back to Fast, leave the table
drawn as a fresh table draws it: pixel for pixel, the HUD included, read back from the
offscreen buffer. (About 25 s: one break taken again, one quality table's shaders.)

Mesa's software GL does not dither, and the picture holds no clock, so the tolerance is
a handful of single pixels, for one thing only: where a pocket's liner meets the cloth
both lie at z = 0, and which of the two wins that tie depends on the order Panda3D draws
them in, which it sorts by render state, that is by the states' addresses in memory (a
run in three moved one pixel). State left behind differs by far more: simplepbr's tone
mapping left on (the pale cloth and wood of issue 28, friction 3) changes nearly every
pixel; a drill's overhead view kept for the next table, all of them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray
from panda3d.core import KeyboardButton

from sim.app.headless import grab_rgb
from sim.app.main import PoolApp
from sim.app.scene.scene import Quality
from sim.app.screens.drilltable import DrillSummaryMode
from sim.app.screens.modes import MatchSummaryMode
from sim.app.screens.start import StartChoices
from sim.app.script import run_script
from sim.play.table.turn import Stage
from sim.store.drillfile import shipped_drills
from sim.store.gamefile import load, save
from tests.app.test_table_app import after_break, press

pytestmark = pytest.mark.app

MAX_FRAMES = 60 * 120  # for the physics to be ready (its line in the HUD goes then)
DEPTH_TIES = 8  # pixels that may differ: see above


def _picture(app: PoolApp) -> NDArray[np.uint8]:
    """The window once the table is at rest: the physics ready (the HUD's line counting
    its loading seconds gone), a few frames drawn."""
    for _ in range(MAX_FRAMES):
        if app.worker.ready:
            break
        app.step()
    assert app.worker.ready
    app.step(4)
    return grab_rgb(app.base).copy()


def _table(app: PoolApp, game_file: Path) -> NDArray[np.uint8]:
    app.play(load(game_file), save=False)
    return _picture(app)


def _new_game(app: PoolApp, quality: Quality) -> None:
    """On the start screen: a new game started with Graphics set to ``quality``."""
    start = app.start_screen
    assert start is not None
    start.fill(StartChoices(game="nine-ball", quality=quality))
    app.step()
    start.start()
    app.step(3)
    assert app.controller is not None and app.scene is not None
    assert app.scene.quality == quality


def test_screens_and_quality_on_then_off_leave_the_table_as_a_fresh_one(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))  # statistics, drill history
    game_file = tmp_path / "game.poolsim"
    save(after_break(90), game_file)
    fresh = _table(table, game_file)
    engine = table.base.graphicsEngine
    buffers = engine.getNumWindows()  # the window, and any offscreen buffer drawn each frame

    # Over the table: the menu, the replay viewer, the match summary.
    table.open_menu()
    table.step(2)
    assert table.menu is not None
    press(table, KeyboardButton.escape())  # a real key, as the player closes it
    assert table.menu is None
    table.open_replay()
    table.step(5)
    assert table.replay is not None
    press(table, KeyboardButton.escape())
    table.step()
    assert table.modes.screen is None
    controller = table.controller
    assert controller is not None
    table.modes.open(MatchSummaryMode(table, controller))
    table.step(2)
    summary = table.modes.screen
    assert isinstance(summary, MatchSummaryMode)
    summary.close()
    table.step()
    # The break taken again and played again, then the replay's side by side of the two.
    run_script(table, [{"take_again": True}, {"shoot": "skip"}, {"replay": None}])
    run_script(table, [{"compare": 0}, {"compare": None}])
    press(table, KeyboardButton.escape())
    table.step()
    assert table.modes.screen is None

    # A drill on its practice table (overhead, tracking lines on), and its summary.
    table.drills.open(shipped_drills()[0])
    table.step(3)
    run = table.drills.run
    assert run is not None
    table.modes.open(DrillSummaryMode(table, run, table.drills.again))
    table.step(2)
    drill_summary = table.modes.screen
    assert isinstance(drill_summary, DrillSummaryMode)
    press(table, KeyboardButton.escape())
    assert table.modes.screen is None
    # The practice table's set-up (U), and back to the table as it was (U again).
    press(table, KeyboardButton.asciiKey("u"))
    assert table.controller is not None and table.controller.stage is Stage.SETUP
    press(table, KeyboardButton.asciiKey("u"))
    assert table.controller.stage is not Stage.SETUP

    # The start screen and each of its panels; then Quality, then Fast again.
    table.show_start_screen()
    table.step(2)
    for panel in ("open_statistics", "open_saved", "open_drills"):
        start = table.start_screen
        assert start is not None
        screen = getattr(start, panel)()  # in the form's place; Back: the form again
        assert screen is not None and table.modes.screen is screen
        table.step(2)
        screen.close()
        table.step()
        assert table.start_screen is not None
    _new_game(table, "quality")
    assert table.base.poolsim_pbr_pipeline is not None  # drawn through simplepbr
    table.open_menu()
    table.step()
    menu = table.menu
    assert menu is not None
    (new_game,) = [b for b in menu.buttons if b["text"] == "New game"]
    new_game.commandFunc(None)
    table.step(2)
    _new_game(table, "fast")

    after = _table(table, game_file)
    # simplepbr's filter buffer and the quality lamp's shadow buffer are gone, not drawn
    # unseen each frame.
    assert engine.getNumWindows() == buffers
    differ = np.any(fresh != after, axis=2)
    ys, xs = np.nonzero(differ)
    where = f"x {xs.min()}..{xs.max()}, y {ys.min()}..{ys.max()}" if len(xs) else ""
    assert differ.sum() <= DEPTH_TIES, (
        f"{differ.sum()} pixels differ from a fresh table's ({where})"
    )
