"""Tracking lines on a practice table opened from a position reach the screen of a
window at rest (issue 28, friction 6: they drew nothing until T was pressed twice).

The window comes to rest while the physics loads on a first launch; the lines come back
from it later. A window at rest drew one frame for them, and Panda3D shows a frame only
as it flips it, when it renders the next: the lines never reached the screen until a
key woke the window. Now the frame with the lines and the next, which shows it, are
both drawn.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from panda3d.core import ClockObject

from sim.app.main import PoolApp, moving_words
from sim.app.rest import DRAWN_BEFORE_REST, REST_AFTER, RestingWindow
from sim.play.game import Game, GameSetup
from sim.play.table.turn import Stage
from sim.store.positionfile import load_position

pytestmark = pytest.mark.app

WAIT_S = 60.0  # real seconds for the preview to come back from the worker process
POSITION = {
    "format": "poolsim-position",
    "version": 1,
    "game": "nine-ball",
    "table": "9ft",
    "turn": "A",
    "cue_ball_in_hand": None,
    "balls": {"cue": [0.6, 0.8], "1": [0.7, 1.6], "9": [0.9, 2.0]},
}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_lines_of_a_position_table_reach_a_window_at_rest(
    table: PoolApp, tmp_path: Path
) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps(POSITION))
    # As ``poolsim play --practice --position FILE`` opens it.
    session = Game(GameSetup(game="nine-ball", seed=1, practice=True))
    session.set_up(load_position(position))
    table.play(session)
    controller, overlay = table.controller, table.tracking_lines
    assert controller is not None and overlay is not None
    assert controller.tracking and controller.stage is Stage.AIM  # on at the practice table
    assert controller.preview.lines is None
    clock = Clock()
    rest = RestingWindow(table.base, clock=clock)
    win = table.base.win
    try:
        for _ in range(DRAWN_BEFORE_REST):
            rest.frame(busy=False, mouse=None, words=moving_words(table))
        clock.now += REST_AFTER + 0.1
        rest.frame(busy=False, mouse=None, words=moving_words(table))
        assert rest.resting and not win.isActive()  # at rest before the lines are back
        deadline = time.monotonic() + WAIT_S
        while controller.preview.lines is None and time.monotonic() < deadline:
            table.step()
            rest.frame(busy=False, mouse=None, words=moving_words(table))
        assert controller.preview.lines is not None, "no tracking lines came back"
        # The frame that draws them, and the next, which flips it onto the screen.
        assert win.isActive()
        table.step()
        assert overlay.showing is controller.preview.lines
        rest.frame(busy=False, mouse=None, words=moving_words(table))
        assert rest.resting and win.isActive()
        table.step()
    finally:
        rest.ignoreAll()
        win.setActive(True)
        frames = ClockObject.getGlobalClock()  # back to the test session's 60 fps clock
        frames.setMode(ClockObject.MNonRealTime)
        frames.setFrameRate(60)
