"""No HUD panel covers a pocket or a ball that can be clicked (issue 14, item 2), in every
camera preset and on the usual window shapes; the panels fold away and stay folded; a
call can pick every pocket from every camera.

The shapes are played through the window's own script (``poolsim play --script``): at
ball in hand, while aiming a 10-ball shot (every object ball can be picked for a call)
and at a choice, in each preset, unfolded and folded, the script writes where the
pockets, the balls and the HUD's parts are on the screen (``{"layout": FILE}``, each
part's box from its DirectGUI node's frame or its text's or shape's tight bounds).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from rules import CUE, PocketId
from sim.app.main import PoolApp
from sim.app.scene.camera import View
from sim.app.screens.preferences import Preferences
from sim.app.script import CAMERAS, on_screen
from sim.physics.table import pocket_centre
from sim.play.table.turn import Stage
from tests.app.test_table_app import after_break, click, pixel, step
from tests.run import poolsim

pytestmark = pytest.mark.app

SHAPES = ("1280x800", "1920x1080", "1024x768", "800x1000")
FRAMED = ("overhead", "broadcast")  # every pocket on the screen, clear of the panels
CLEAR_PIXELS = 8  # a pocket's or a ball's centre is this far from any panel at least


def _script(folder: Path) -> list[dict[str, Any]]:
    """Ball in hand, aiming after the break, and the choice after a push out, in each
    camera; then aiming again with the panels folded."""

    def look(moment: str) -> list[dict[str, Any]]:
        steps: list[dict[str, Any]] = []
        for camera in CAMERAS:
            # The layout step draws a frame first: the HUD as the camera's view has it.
            steps += [{"camera": camera}, {"layout": str(folder / f"{moment}-{camera}.json")}]
        return steps

    return [
        {"breaker": "A"},
        *look("in-hand"),
        {"place": [0.635, 0.5]},
        {"aim_at": "1"},
        {"power": 0.9},
        {"shoot": "skip"},
        *look("aiming"),
        {"key": "f"},
        *look("folded"),
        {"key": "f"},
        {"declare": "push-out"},
        {"aim": 100},
        {"power": 0.2},
        {"shoot": "skip"},
        *look("choice"),
    ]


def _under(point: list[float], box: list[float]) -> bool:
    x0, y0, x1, y1 = box
    m = CLEAR_PIXELS
    return x0 - m <= point[0] <= x1 + m and y0 - m <= point[1] <= y1 + m


def _problems(layout: dict[str, Any]) -> list[str]:
    """Each pocket or ball a player could click that is off the window or under a panel:
    every one in a framed view; behind the cue ball, the cue ball (the far pockets are
    often out of sight there by nature, and a call goes overhead: tested below)."""
    width, height = layout["window"]
    framed = layout["camera"] in FRAMED
    points = {f"pocket {k}": v for k, v in layout["pockets"].items() if framed}
    points |= {f"ball {k}": v for k, v in layout["balls"].items() if framed or k == CUE}
    problems = []
    for name, point in points.items():
        if point is None or not (0 <= point[0] < width and 0 <= point[1] < height):
            problems.append(f"{name} off the window at {point}")
            continue
        problems += [
            f"{name} at {point} under {panel['name']} {panel['box']}"
            for panel in layout["panels"]
            if _under(point, panel["box"])
        ]
    return problems


@pytest.mark.parametrize("size", SHAPES)
def test_no_panel_covers_a_pocket_or_a_ball_in_any_camera(size: str, tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(_script(tmp_path)))
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["POOLSIM_DATA_DIR"] = str(tmp_path / "user")
    result = poolsim(
        *("play", "--game", "ten-ball", "--seed", "5", "--players", "Ann,Bob"),
        *("--size", size, "--script", str(script), "--frames", "1"),
        env=env,
    )
    assert result.returncode == 0, result.stderr
    seen = {}
    for path in sorted(tmp_path.glob("*-*.json")):
        layout = json.loads(path.read_text())
        assert layout["window"] == [int(v) for v in size.split("x")]
        seen[path.stem] = layout
        assert not _problems(layout), (path.stem, _problems(layout))
    assert len(seen) == 4 * len(CAMERAS)
    # The checks had panels to check against: the cue-ball widget while aiming (its
    # discs), not once folded; the choice's buttons at the choice.
    names = {stem: [p["name"] for p in layout["panels"]] for stem, layout in seen.items()}
    assert "disc" in names["aiming-overhead"] and "disc" not in names["folded-overhead"]
    assert seen["folded-overhead"]["folded"] and not seen["aiming-overhead"]["folded"]
    assert seen["choice-overhead"]["stage"] == "choose"
    assert len(names["choice-overhead"]) > len(names["aiming-overhead"]) / 2
    assert all(layout["stage"] == "aim" for stem, layout in seen.items() if "aim" in stem)


def test_every_pocket_can_be_called_from_behind_the_cue_ball(table: PoolApp) -> None:
    """Behind the cue ball the far pockets are out of sight: a ball picked for a call
    turns the camera overhead, where each pocket is a click away, and the call made,
    back behind the ball along the new aim."""
    game = after_break(30)
    table.play(game)
    table.choose_view("behind")
    rig, controller = table.rig, table.controller
    assert rig is not None and controller is not None and controller.needs_call
    table_ = game.setup.spec.build()
    for pocket in PocketId:
        rig.jump()
        step(table, 2)
        assert rig.preset == "behind" and not rig.shows_every_pocket()
        state = controller.state
        assert state is not None and state.lowest is not None
        where = pixel(table, *state.balls[state.lowest])
        click(table, where)
        assert controller.call_ball == state.lowest
        assert rig.preset == "overhead" and rig.shows_every_pocket()
        rig.jump()
        step(table, 2)
        layout = on_screen(table)
        assert not _problems(layout)
        click(table, pixel(table, *pocket_centre(table_, pocket)))
        assert controller.call is not None and controller.call.pocket is pocket
        assert rig.preset == "behind"
        assert isinstance(rig.goal, View) and rig.goal.heading == pytest.approx(
            controller.aim.direction - 90.0
        )


def test_a_view_that_shows_every_pocket_stays_for_a_call(table: PoolApp) -> None:
    table.play(after_break(30))
    table.choose_view("broadcast")
    rig, controller = table.rig, table.controller
    assert rig is not None and controller is not None
    rig.jump()
    step(table, 2)
    state = controller.state
    assert state is not None and state.lowest is not None
    click(table, pixel(table, *state.balls[state.lowest]))
    assert controller.call_ball == state.lowest and rig.preset == "broadcast"


def test_the_panels_fold_to_tabs_and_the_fold_is_remembered(table: PoolApp, tmp_path: Path) -> None:
    table.preferences = Preferences(tmp_path / "preferences.json")
    table.play(after_break(90))
    step(table, 3)
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None and controller.stage is Stage.AIM
    assert controller.reasons and hud.verdict.getText()  # the break's ruling
    table.modes.key("w")  # and its details, in the referee's panel
    step(table, 1)
    assert not hud.referee.isHidden() and not hud.stroke_widget.isHidden()
    controller.set_tip(0.3, -0.2)  # the widget's dot shows the tip: left, draw
    step(table, 1)
    radius = hud.tip_widget[2]
    assert (hud.tip_dot.getX(), hud.tip_dot.getZ()) == pytest.approx((-0.3 * radius, -0.2 * radius))
    table.modes.key("f")
    step(table, 1)
    assert hud.folded and hud.referee.isHidden() and hud.stroke_widget.isHidden()
    assert not hud.referee_tab.isHidden() and not hud.stroke_tab.isHidden()
    assert not hud.verdict.isHidden() and hud.verdict.getText()  # the plain line stays
    assert "m/s" in hud.stroke_tab["text"]  # the folded widget still says the stroke
    assert table.preferences.load() == {"panels_folded": True}
    # Folded, the cue-ball widget takes no clicks: the table under it is no table.
    cx, cy, _ = hud.tip_widget
    assert hud.over_tip_widget(cx, cy) is None
    # The next table starts folded; a click on a tab unfolds.
    table.play(after_break(90))
    step(table, 3)
    hud = table.hud
    assert hud is not None and hud.folded and hud.stroke_widget.isHidden()
    hud.stroke_tab.commandFunc(None)
    step(table, 1)
    assert not hud.folded and not hud.stroke_widget.isHidden()
    hud.toggle_details()
    step(table, 1)
    assert not hud.referee.isHidden()
    assert table.preferences.load() == {"panels_folded": False}


def test_a_resized_window_lays_the_hud_out_for_its_shape(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window-event brings another wrapper of the window each time: compared by
    identity, a real resize laid nothing out again."""
    table.play(after_break(30))
    table.choose_view("overhead")
    step(table, 2)
    hud, rig = table.hud, table.rig
    assert hud is not None and rig is not None
    same_window = table.base.graphicsEngine.getWindow(0)
    assert same_window == table.base.win and same_window is not table.base.win
    monkeypatch.setattr(table.base, "getAspectRatio", lambda *_: 0.8)  # now tall
    table.window_changed(same_window)
    rebuilt = table.hud
    assert rebuilt is not None and rebuilt is not hud
    assert (rebuilt.layout.half_width, rebuilt.layout.half_height) == (1.0, 1.25)
    assert rig.free == rebuilt.layout.table_on_screen() and rig.goal.shift != (0.0, 0.0)
