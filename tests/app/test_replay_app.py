"""The replay viewer in the window, headless, driven by the virtual keyboard and mouse:
frame steps forward and back land on identical positions, the scrub bar moves time,
event jumps, speed, the referee's panel follows the frame; and whole racks of both
games played through the table's controls."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from panda3d.core import KeyboardButton, MouseButton

from rules import CUE, Player
from sim.app.headless import grab_rgb
from sim.app.main import PoolApp
from sim.app.replay import FRAME, ReplayView
from sim.physics.simulate import MAX_SPEED
from sim.play.controller import Stage
from sim.play.game import Game, GameSetup
from sim.play.picker import choose_choice, choose_stroke
from sim.play.selfplay import play_racks

pytestmark = pytest.mark.app


def press(app: PoolApp, button: object) -> None:
    mouse = app.virtual_mouse()
    mouse.pressButton(button)
    app.step()
    mouse.releaseButton(button)
    app.step()


def played(seed: int = 2) -> Game:
    game = Game(GameSetup(game="rotation", race_to=3, seed=seed, players=("Ann", "Bob")))
    game.start(Player.A)
    play_racks(game, 1, random.Random(seed), max_records_per_rack=12)
    return game


def test_the_viewer_steps_scrubs_and_jumps(table: PoolApp) -> None:
    table.play(played())
    table.open_replay(0)  # the break
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())  # pause
    assert not viewer.playing
    start_t = viewer.t
    # One frame forward, one back: the same instant, the same positions, bit for bit.
    press(table, KeyboardButton.right())
    assert viewer.t == pytest.approx(round(start_t / FRAME) * FRAME + FRAME)
    forward = viewer.timeline.at(viewer.t).positions.copy()
    press(table, KeyboardButton.right())
    press(table, KeyboardButton.left())
    assert np.array_equal(viewer.timeline.at(viewer.t).positions, forward)
    # Jump to the next events: the first contact, then later ones.
    press(table, KeyboardButton.asciiKey("]"))
    assert viewer.t in {m.t for m in viewer.timeline.markers}
    first_jump = viewer.t
    press(table, KeyboardButton.asciiKey("]"))
    assert viewer.t > first_jump
    press(table, KeyboardButton.asciiKey("["))
    assert viewer.t == first_jump
    # Scrub: drag the bar's thumb to three quarters along.
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    aspect = table.base.getAspectRatio()

    def bar_pixel(fraction: float) -> tuple[int, int]:
        x = (2 * fraction - 1) * (aspect - 0.1)  # aspect2d units along the bar
        return (int((x / aspect + 1) / 2 * width), int((1 + 0.91) / 2 * height))

    mouse = table.virtual_mouse()

    def drag(to: float) -> None:
        mouse.setMousePos(*bar_pixel(viewer.t / viewer.timeline.duration))
        table.step()
        mouse.pressButton(MouseButton.one())
        table.step()
        for step in range(1, 6):
            here = viewer.t / viewer.timeline.duration
            mouse.setMousePos(*bar_pixel(here + (to - here) * step / 5))
            table.step()
        mouse.releaseButton(MouseButton.one())
        table.step(2)

    before_drag = viewer.t
    drag(0.75)
    assert not viewer.playing
    assert viewer.t > before_drag + 0.25 * viewer.timeline.duration  # scrubbed forward
    ahead = viewer.t
    drag(0.2)
    assert viewer.t < ahead - 0.2 * viewer.timeline.duration  # and back
    # Speed: 1/8x at the slowest.
    for _ in range(6):
        press(table, KeyboardButton.asciiKey("-"))
    assert viewer.speed == 0.125
    # The panel says what the referee saw up to now; the ruling once at the end.
    texts = " ".join(line.getText() for line in viewer.panel_lines)
    assert "first ball hit: the 1" in texts
    viewer.set_time(viewer.timeline.duration)
    table.step()
    texts = " ".join(line.getText() for line in viewer.panel_lines)
    assert "The ruling" in texts and "ROT-" in texts
    # Another shot with Page Down; Esc back to the table.
    press(table, KeyboardButton.pageDown())
    assert viewer.index == 1 and viewer.t < 0.2
    press(table, KeyboardButton.escape())
    assert table.replay is None


def test_replay_frames_show_the_balls_moving(table: PoolApp) -> None:
    table.play(played(4))
    table.open_replay(0)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    viewer.playing = False
    viewer.set_time(0.0)
    table.step(2)
    before = grab_rgb(table.base).astype(int)
    viewer.set_time(min(1.0, viewer.timeline.duration))
    table.step(2)
    after = grab_rgb(table.base).astype(int)
    assert np.abs(after - before).mean() > 0.5
    assert after.std() > 20  # a real picture, not a flat frame


def _power_for(speed: float) -> float:
    """The power meter's setting for a cue speed (the inverse of Aim.speed)."""
    return ((speed - 0.3) / (MAX_SPEED - 0.3)) ** (2 / 3)


@pytest.mark.parametrize("game_name", ["ten-ball", "rotation"])
def test_a_whole_rack_through_the_tables_controls(table: PoolApp, game_name: str) -> None:
    """Both sides of a whole rack played through the controller the window drives (the
    built-in picker decides; the table's own controls carry it out)."""
    game = Game(GameSetup(game=game_name, race_to=2, seed=9, players=("Ann", "Bob")))
    game.start(Player.A)
    table.play(game)
    controller = table.controller
    assert controller is not None
    rng = random.Random(9)
    spec = game.setup.spec
    for _ in range(5000):  # frames waiting on the physics count too
        if game.match.rack_number > 1 or controller.stage is Stage.OVER:
            break
        stage = controller.stage
        if stage in (Stage.SIMULATING, Stage.WATCH):
            table.step()
            if controller.stage is Stage.WATCH:
                press(table, KeyboardButton.space())  # skip to the ruling
            continue
        state = controller.state
        assert state is not None
        if stage is Stage.CHOOSE:
            controller.choose(choose_choice(state, spec, rng))
            continue
        stroke = choose_stroke(state, spec, rng)
        if stage is Stage.PLACE:
            assert stroke.placement is not None
            # The picker's spot, if the table allows it there (else the default spot).
            controller.move_cue_ball(stroke.placement)
            controller.confirm_placement()
        action = stroke.action
        controller.set_direction(action.aim)
        controller.set_power(_power_for(action.speed))
        controller.set_tip(action.a, action.b)
        if stroke.call is not None:
            controller.call_shot(stroke.call.ball, stroke.call.pocket)
        if stroke.declaration is not None:
            controller.declare(stroke.declaration)
        press(table, KeyboardButton.space())
    else:
        pytest.fail("the rack did not end")
    assert sum(game.match.racks_won.as_dict().values()) >= 1 or game.match.rack_number > 1
    assert all(CUE in r.start for r in game.shots)
    assert math.isfinite(controller.latencies[-1])


def test_the_shot_list_opens_another_shot(table: PoolApp) -> None:
    table.play(played(5))
    table.open_replay(0)
    viewer = table.replay
    assert isinstance(viewer, ReplayView) and len(viewer.shot_buttons) >= 3
    target = viewer.shot_buttons[2]
    x, _, y = target.getPos(table.base.aspect2d)
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    aspect = table.base.getAspectRatio()
    mouse = table.virtual_mouse()
    mouse.setMousePos(int((x / aspect + 1) / 2 * width), int((1 - y) / 2 * height))
    table.step()
    mouse.pressButton(MouseButton.one())
    table.step()
    mouse.releaseButton(MouseButton.one())
    table.step(2)
    assert viewer.index == 2 and viewer.t < 0.2


def test_a_resized_window_lays_the_viewer_and_hud_out_again(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wider window: the viewer is rebuilt for its shape on the same shot and frame,
    still paused, at the same speed; the HUD under it too, still hidden."""
    table.play(played())
    table.open_replay(1)
    viewer = table.replay
    assert isinstance(viewer, ReplayView)
    press(table, KeyboardButton.space())  # pause
    press(table, KeyboardButton.asciiKey("]"))  # the first contact
    press(table, KeyboardButton.asciiKey("-"))  # half speed
    before = (viewer.index, viewer.t, viewer.speed, viewer.playing, viewer.trails)
    wide = viewer.aspect * 1.4
    monkeypatch.setattr(table.base, "getAspectRatio", lambda *_: wide)
    table.window_changed(table.base.win)  # what the "window-event" handler gets
    table.step(2)
    rebuilt = table.replay
    assert isinstance(rebuilt, ReplayView) and rebuilt is not viewer
    assert (rebuilt.index, rebuilt.t, rebuilt.speed, rebuilt.playing, rebuilt.trails) == before
    assert rebuilt.aspect == wide
    assert rebuilt.shot_list["frameSize"][0] == pytest.approx(-wide + 0.02)  # at the edge
    hud = table.hud
    assert hud is not None and hud.aspect == wide and hud.root.isHidden()
    press(table, KeyboardButton.escape())  # closing the viewer brings the HUD back
    assert table.replay is None and not hud.root.isHidden()
