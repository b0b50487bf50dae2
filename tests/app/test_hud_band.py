"""The table's words (the physics' warm-up, a message) wrap inside the dock's words
block: they never run under the camera buttons, the cue-ball widget, the stroke buttons
or the prompt's bar; and red is for fouls only."""

from __future__ import annotations

from pathlib import Path

import pytest
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import Point3

from sim.app.hud.layout import Box
from sim.app.hud.widgets import RED
from sim.app.main import PoolApp
from sim.store.autosave import Autosave
from tests.app.test_table_app import after_break, step

LONG = (
    "the cue ball cannot go there: in hand in the kitchen: place it behind the head "
    "string, and this line goes on to be longer than any window is wide"
)


def _extent(app: PoolApp, text: OnscreenText) -> tuple[float, float, float, float]:
    """A text's left, right, bottom and top in the HUD's units."""
    low, high = Point3(), Point3()
    text.calcTightBounds(low, high)
    assert app.hud is not None
    screen = app.hud.root
    a, b = screen.getRelativePoint(text, low), screen.getRelativePoint(text, high)
    assert b.x > a.x, "the text has no extent"
    return a.x, b.x, a.z, b.z


@pytest.mark.app
def test_a_long_message_wraps_inside_the_words_block_clear_of_the_dock(table: PoolApp) -> None:
    table.play(after_break(90))
    step(table, 3)
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None
    controller.message = LONG
    step(table, 2)
    assert hud.message.textNode.getNumRows() > 1  # it wrapped
    left, right, bottom, top = _extent(table, hud.message)
    words = hud.words_block
    assert words.x0 <= left and right <= words.x1 and words.y0 <= bottom and top <= words.y1
    # Clear of every widget of the dock and of the prompt's bar, as they are drawn.
    widgets = [*hud.buttons.values(), *hud.camera_buttons, hud.fold_button, hud.bottom]
    names = {widget.getName() for widget in widgets} | {"disc"}
    drawn = [box for name, box in hud.drawn() if name in names]
    assert len(drawn) >= len(widgets)  # each one found (the discs are the cue-ball widget)
    scale = hud.layout.half_width, hud.layout.half_height
    message = Box(left / scale[0], right / scale[0], bottom / scale[1], top / scale[1])
    assert not any(message.overlaps(box) for box in drawn)


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
    table.modes.screen.close()  # the menu's Resume


@pytest.mark.app
def test_a_notice_outlives_a_resize(table: PoolApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """A resized window builds its HUD again for the new shape: the window's notice on
    it stays until the table moves on, as on the HUD it replaces."""
    table.play(after_break(90))
    step(table, 3)
    assert table.hud is not None
    table.hud.say("sound off (M)")
    step(table, 1)
    base = table.base
    original = base.getAspectRatio()
    monkeypatch.setattr(base, "getAspectRatio", lambda win=None: 4 / 3)
    base.adjustWindowAspectRatio(4 / 3)
    try:
        table.window_changed(base.win)
        step(table, 1)
        hud = table.hud
        assert hud is not None and hud.layout.half_width == pytest.approx(4 / 3)
        assert hud.message.getText() == "sound off (M)"
    finally:
        monkeypatch.undo()
        base.adjustWindowAspectRatio(original)
        table.window_changed(base.win)
