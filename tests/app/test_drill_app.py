"""A drill through the window, as a player finds it (issue 11, item 7): the start
screen's Drills button lists the drills, a click opens one on a practice table (the
zone on the cloth, the HUD saying the drill, the attempt and the goal); a scoring
attempt and a missing one are said in plain words, the balls put back each time; at
the session's end the summary shows the attempts and the player's history, written to
the data folder; Try again starts a new session; and the script's ``drill`` action
opens a drill by name, a name that is no drill refused in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from panda3d.core import KeyboardButton

from sim.app.main import PoolApp
from sim.app.screens.drilltable import DrillSummaryMode
from sim.app.screens.start.drills import DrillsScreen
from sim.app.script import ScriptError, run_script
from sim.physics.simulate import MAX_SPEED
from sim.play.table.turn import MIN_POWER_SPEED
from sim.store.drillfile import drill_named
from tests.app.test_table_app import press, step

pytestmark = pytest.mark.app

STOP = drill_named("stop-shot")
(REFERENCE,) = STOP.reference


def power_of(speed: float) -> float:
    """The power meter's setting for a cue speed (the controller's curve, inverted)."""
    return float(((speed - MIN_POWER_SPEED) / (MAX_SPEED - MIN_POWER_SPEED)) ** (2 / 3))


MADE = [
    {"aim": REFERENCE.aim},
    {"power": power_of(REFERENCE.speed)},
    {"tip": [REFERENCE.a, REFERENCE.b]},
    {"shoot": "skip"},
]
MISSED = [{"aim": REFERENCE.aim + 6}, {"shoot": "skip"}]


def click_widget(app: PoolApp, widget: Any) -> None:
    """A click with the virtual mouse in the middle of ``widget`` as drawn."""
    from panda3d.core import MouseButton, Point3

    left, right, bottom, top = widget.getBounds()
    middle = app.base.aspect2d.getRelativePoint(
        widget, Point3((left + right) / 2, 0, (bottom + top) / 2)
    )
    x, z = middle.x, middle.z
    width, height = app.base.win.getXSize(), app.base.win.getYSize()
    aspect = app.base.getAspectRatio()
    mouse = app.virtual_mouse()
    mouse.setMousePos(int((x / aspect + 1) / 2 * width), int((1 - z) / 2 * height))
    step(app)
    mouse.pressButton(MouseButton.one())
    step(app)
    mouse.releaseButton(MouseButton.one())
    step(app, 2)


def hud_words(app: PoolApp) -> tuple[str, str, str]:
    hud = app.hud
    assert hud is not None
    hud.refresh()
    return hud.title.getText(), hud.status.getText(), hud.message.getText()


def test_a_drill_from_the_start_screen_scored_and_kept(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    table.show_start_screen()
    step(table, 2)
    screen = table.start_screen
    assert screen is not None
    click_widget(table, screen.drills_button)
    drills = table.modes.screen  # the drills' list, in the form's place
    assert isinstance(drills, DrillsScreen) and len(drills.list.rows) >= 8
    click_widget(table, drills.list.rows[0])  # Stop shot, the first
    step(table, 3)
    assert table.drills.run is not None and table.drills.run.drill == STOP.drill
    assert table.drills.overlay is not None and not table.drills.overlay.node.isHidden()
    controller = table.controller
    assert controller is not None and controller.practice
    start = dict(STOP.drill.position.balls)
    assert controller.balls() == start
    title, status, message = hud_words(table)
    assert title == "Drill: Stop shot · attempt 1 of 5"
    assert status == "Goal: Pocket the 3 in the foot-right corner and stop the cue ball in the zone"
    assert message == f"{STOP.drill.instruction} Tracking lines and the hint are off in this drill."

    run_script(table, MADE)
    title, _, message = hud_words(table)
    assert title == "Drill: Stop shot · attempt 2 of 5 · best so far 20 of 20"
    assert message == (
        "Attempt 1: The 3 went in the foot-right corner; the cue ball stopped in the zone. "
        "Made it: 20 of 20 points. The balls are back for attempt 2."
    )
    assert controller.balls() == start  # put back, as take it again does

    run_script(table, MISSED)
    title, _, message = hud_words(table)
    assert title == "Drill: Stop shot · attempt 3 of 5 · best so far 20 of 20"
    assert message.startswith("Attempt 2: The 3 stayed out; the cue ball stopped ")
    assert "Missed: 0 of 20 points." in message
    assert controller.balls() == start

    run_script(table, MISSED * 3)
    summary = table.modes.screen
    assert isinstance(summary, DrillSummaryMode)
    assert (
        summary.summary.summary.getText() == "1 of 5 made; best 20 of 20 points, 20 of 100 in all."
    )
    history = json.loads((tmp_path / "drills.json").read_text())
    (session,) = history["sessions"]
    assert session["drill"] == "stop-shot" and session["player"] == "Player 1"
    assert session["points"] == [20, 0, 0, 0, 0] and session["made"] == 1
    assert hud_words(table)[0] == "Drill: Stop shot · finished · best 20 of 20"

    click_widget(table, summary.summary.buttons[0])  # Try again
    assert table.modes.screen is None
    assert hud_words(table)[0] == "Drill: Stop shot · attempt 1 of 5"
    assert controller.balls() == start

    run_script(table, MISSED * 5)  # a second session, closed: the menu offers it again
    summary = table.modes.screen
    assert isinstance(summary, DrillSummaryMode)
    assert "2 sessions so far" in " ".join(line.getText() for line in summary.summary.lines)
    click_widget(table, summary.summary.buttons[1])  # Close
    assert table.modes.screen is None
    assert hud_words(table)[2].endswith("Esc, then Try the drill again, for a new session.")
    table.open_menu()
    menu = table.menu
    assert menu is not None
    (again,) = [b for b in menu.buttons if b["text"] == "Try the drill again"]
    click_widget(table, again)
    assert table.menu is None and hud_words(table)[0] == "Drill: Stop shot · attempt 1 of 5"
    assert len(json.loads((tmp_path / "drills.json").read_text())["sessions"]) == 2
    run_script(table, MISSED * 5)  # a third: the summary answers the script's Try again
    assert isinstance(table.modes.screen, DrillSummaryMode)
    run_script(table, [{"drill_again": True}])
    assert table.modes.screen is None
    assert hud_words(table)[0] == "Drill: Stop shot · attempt 1 of 5"


def test_the_script_opens_a_drill_by_name_and_refuses_one_that_is_not_there(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    table.show_start_screen()
    step(table, 2)
    with pytest.raises(ScriptError, match=r'step 1 \(drill\): no drill called "nope"'):
        run_script(table, [{"drill": "nope"}])
    assert table.start_screen is not None and table.drills.run is None  # nothing changed
    run_script(table, [{"drill": "three-ball-run-out"}])
    assert table.start_screen is None and table.drills.run is not None
    first, *_ = drill_named("three-ball-run-out").reference
    run_script(table, [{"aim": first.aim}, {"power": power_of(first.speed)}, {"shoot": "skip"}])
    _, status, message = hud_words(table)
    assert status == "Goal: Pocket the 1, the 2 and the 3 in any pocket in 3 shots"
    assert message == "Attempt 1: shot 1 of up to 3 done; shoot on."
    table.show_start_screen()
    with pytest.raises(ScriptError, match="no game on the table"):
        run_script(table, [{"drill_again": True}])


def test_a_drill_decides_its_aids_and_says_so(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the practice table the tracking lines start on; a drill that allows no aids
    (the shipped ones) switches them off, and T and / say so rather than turn them on
    (the Hint button hidden); a drill of one's own that allows them has both."""
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    table.show_start_screen()
    step(table, 2)
    run_script(table, [{"drill": "stop-shot"}])
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None and not controller.tracking
    for key, refused in (("t", "tracking lines are off in this drill"), ("/", "the hint is off")):
        press(table, KeyboardButton.asciiKey(key))
        assert hud.message.getText().startswith(refused), key
    assert not controller.tracking and controller.seat.thinking is None
    assert hud.buttons["hint"].isHidden()
    click_widget(table, hud.tracking_button)  # the HUD's switch says so too
    assert not controller.tracking and hud.message.getText().startswith("tracking lines are off")

    document = json.loads(STOP.path.read_text())
    document["aids"] = {"tracking": True, "hint": True}
    own = tmp_path / "aided.json"
    own.write_text(json.dumps(document))
    run_script(table, [{"drill": str(own)}])
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None
    assert controller.tracking and hud.message.getText() == STOP.drill.instruction
    press(table, KeyboardButton.asciiKey("t"))
    assert not controller.tracking  # off, and on again, as the player likes
    press(table, KeyboardButton.asciiKey("t"))
    assert controller.tracking and not hud.buttons["hint"].isHidden()
