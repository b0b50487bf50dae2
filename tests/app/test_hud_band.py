"""Lines the HUD centres (the physics' warm-up, a message) wrap inside the band between
its corners' widgets: they never run under the camera buttons, the referee's panel, the
cue-ball widget or the stroke buttons."""

from __future__ import annotations

from pathlib import Path

import pytest
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import Point3

from sim.app.main import PoolApp
from sim.app.widgets import RED
from sim.store.autosave import Autosave
from tests.app.test_table_app import after_break, step

LONG = (
    "the cue ball cannot go there: in hand in the kitchen: place it behind the head "
    "string, and this line goes on to be longer than any window is wide"
)


def _extent(app: PoolApp, text: OnscreenText) -> tuple[float, float, float, float]:
    """A text's left, right, bottom and top in aspect2d units."""
    low, high = Point3(), Point3()
    text.calcTightBounds(low, high)
    screen = app.base.aspect2d
    a, b = screen.getRelativePoint(text, low), screen.getRelativePoint(text, high)
    assert b.x > a.x, "the text has no extent"
    return a.x, b.x, a.z, b.z


@pytest.mark.app
def test_a_long_message_wraps_between_the_corners_above_the_prompt(table: PoolApp) -> None:
    table.play(after_break(90))
    step(table, 3)
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None
    controller.message = LONG
    step(table, 2)
    left, right, bottom, _ = _extent(table, hud.message)
    aspect = table.base.getAspectRatio()
    assert hud.message.textNode.getNumRows() > 1  # it wrapped
    assert left > -aspect + 0.5  # clear of the power meter and the cue-ball widget
    assert right < aspect - 0.88  # clear of the stroke buttons
    assert bottom > -0.90  # above the prompt's bar: it grew up, not into it
    camera_right = max(
        table.base.aspect2d.getRelativePoint(b, Point3(b.getBounds()[1], 0, 0)).x
        for b in hud.camera_buttons
    )
    hud.warmup.setText(LONG)
    warm_left, warm_right, _, _ = _extent(table, hud.warmup)
    assert warm_left > camera_right and warm_right < aspect - 0.86  # clear of the panel


@pytest.mark.app
def test_red_is_for_fouls_only(table: PoolApp, tmp_path: Path) -> None:
    """A refusal, a notice, help and "saved" are not fouls: none of them is red."""
    table.autosave = Autosave(tmp_path / "autosave.poolsim")
    table.play(after_break(90))
    step(table, 3)
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None
    controller.message = "the cue ball cannot go there"
    step(table, 1)
    assert tuple(hud.message.textNode.getTextColor()) != pytest.approx(RED)
    table.open_menu()
    menu = table.menu
    assert menu is not None
    menu.save_copy()  # the path field, and its help line
    assert tuple(menu.note.textNode.getTextColor()) != pytest.approx(RED)
    menu.save_copy()  # saved
    assert menu.note.getText().startswith("saved ")
    assert tuple(menu.note.textNode.getTextColor()) != pytest.approx(RED)
    table.close_menu()
