"""Tracking lines in the window (issue 11, item 5): with them on (T, the HUD's switch,
the script's ``tracking``), once the aim rests and its preview is back, the cue ball's
path and the first object ball's are drawn, ending where the shot then played leaves
those balls, to the bit; any change of the stroke takes them away; off, nothing is
drawn; the choice for matches is remembered."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from direct.showbase.ShowBase import ShowBase
from panda3d.core import KeyboardButton

from rules import CUE
from sim.app.main import PoolApp, moving_words
from sim.app.screens.preferences import Preferences
from sim.app.script import ScriptError, run_script
from sim.physics.simulators.worker import PhysicsWorker
from sim.physics.tracking import TrackingLines
from sim.play.game import Game, GameSetup
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage
from tests.app.test_table_app import press
from tests.app.test_take_again_app import BREAK, hud_click

pytestmark = pytest.mark.app

WAIT_S = 60.0  # real seconds for a preview to come back from the worker process


def ten_ball() -> Game:
    return Game(GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob")))


def controller_of(app: PoolApp) -> TableController:
    assert app.controller is not None
    return app.controller


def lines_drawn(app: PoolApp) -> TrackingLines:
    """Frames until the tracking lines of the resting aim are on the cloth."""
    controller = controller_of(app)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        app.step()
        overlay = app.tracking_lines
        assert overlay is not None
        if overlay.showing is not None:
            assert overlay.showing is controller.preview.lines
            return overlay.showing
    raise AssertionError("no tracking lines came")


def rest(app: PoolApp, frames: int = 30) -> None:
    """Frames enough for the aim to rest and its preview to come back, and more."""
    controller = controller_of(app)
    deadline = time.monotonic() + WAIT_S
    app.step(frames)
    while controller.worker.preview_result() is None and time.monotonic() < deadline:
        app.step()
    app.step(2)


@pytest.fixture
def remembering(
    app_base: ShowBase, worker: PhysicsWorker, tmp_path: Path
) -> Iterator[tuple[PoolApp, Preferences]]:
    """A table that remembers the player's choices, in a file of this test's own."""
    preferences = Preferences(tmp_path / "preferences.json")
    app = PoolApp(app_base, None, worker=worker, realtime=False, preferences=preferences)
    yield app, preferences
    app.destroy()


def test_lines_end_where_the_shot_then_played_leaves_the_balls(table: PoolApp) -> None:
    table.play(ten_ball())
    run_script(table, [*BREAK, {"tracking": True}, {"aim_at": "1"}, {"power": 0.5}])
    controller = controller_of(table)
    assert controller.stage is Stage.AIM and controller.tracking
    lines = lines_drawn(table)
    preview = controller.worker.preview_result()
    assert preview is not None
    # From the preview of exactly this stroke: the object ball the cue ball hits first.
    assert lines.object_ball is not None and lines.object_ball.ball == "1"
    assert lines.contact is not None
    assert lines.cue.end == preview.shot.after[CUE]
    before = controller.balls()
    assert lines.cue.points[0] == pytest.approx(before[CUE], abs=2e-3)  # gaps eased
    # The shot played is the previewed one: its balls stop at the lines' ends, to the bit.
    run_script(table, [{"declare": "safety"}, {"shoot": "skip"}])
    after = controller.balls()
    for path in lines.paths:
        if path.pocketed:
            assert path.ball not in after
        else:
            assert after[path.ball] == path.end
    # A new turn (Bob's, after the safety), another stroke: its lines once it rests.
    assert controller.stage is Stage.AIM
    assert table.tracking_lines is not None and table.tracking_lines.showing is None
    assert lines_drawn(table) is not lines


def test_a_change_of_the_stroke_takes_the_lines_away_at_once(table: PoolApp) -> None:
    table.play(ten_ball())
    run_script(table, [*BREAK, {"tracking": True}, {"aim_at": "1"}])
    controller, overlay = controller_of(table), table.tracking_lines
    assert overlay is not None
    for change in ({"aim": controller.aim.direction + 3}, {"power": 0.3}, {"tip": [0, 0.2]}):
        lines_drawn(table)
        run_script(table, [change])
        table.step()
        assert overlay.showing is None and overlay.node.isHidden(), change
        assert controller.preview.lines is None
    again = lines_drawn(table)  # the new stroke's, once it rests
    assert again.cue.points[0] == pytest.approx(controller.balls()[CUE], abs=2e-3)


def test_off_draws_nothing(table: PoolApp) -> None:
    table.play(ten_ball())
    run_script(table, [*BREAK, {"aim_at": "1"}])
    controller, overlay = controller_of(table), table.tracking_lines
    assert overlay is not None
    assert not controller.tracking  # off in a match unless chosen
    rest(table)
    assert controller.worker.preview_result() is not None  # the preview ran all the same
    assert controller.preview.lines is None and overlay.showing is None
    assert overlay.node.getNumChildren() == 0  # nothing was ever built
    # On: the preview already back gives lines at once; off again: gone. Lines coming
    # back are among the words a window at rest draws one frame for.
    quiet = moving_words(table)
    run_script(table, [{"tracking": True}])
    assert lines_drawn(table).cue.ball == CUE
    assert moving_words(table) != quiet
    run_script(table, [{"tracking": False}])
    assert overlay.showing is None and controller.preview.lines is None
    # A script's bad value: one line naming the step, and nothing changed.
    with pytest.raises(ScriptError, match=r"step 1 \(tracking\): tracking is true or false"):
        run_script(table, [{"tracking": "yes"}])
    assert not controller.tracking


def test_the_key_and_the_switch_turn_them_on_and_off_remembered(
    remembering: tuple[PoolApp, Preferences],
) -> None:
    app, preferences = remembering
    app.play(ten_ball())
    run_script(app, BREAK)
    controller, hud = controller_of(app), app.hud
    assert hud is not None
    assert not controller.tracking and hud.tracking_button["text"] == "Tracking lines: off (T)"
    press(app, KeyboardButton.asciiKey("t"))
    assert controller.tracking and hud.tracking_button["text"] == "Tracking lines: on (T)"
    assert preferences.load()["tracking_lines"] is True
    lines_drawn(app)
    hud_click(app, hud.tracking_button)
    assert not controller.tracking and preferences.load()["tracking_lines"] is False
    assert app.tracking_lines is not None and app.tracking_lines.showing is None
    hud_click(app, hud.tracking_button)
    assert controller.tracking
    # The next match starts with the player's choice.
    app.play(ten_ball())
    assert controller_of(app).tracking


def test_a_table_with_tracking_set_draws_them_without_a_key(table: PoolApp) -> None:
    """The practice table sets the controller's ``tracking``: nothing else is needed."""
    table.play(ten_ball())
    run_script(table, BREAK)
    controller_of(table).tracking = True
    assert lines_drawn(table).object_ball is not None
