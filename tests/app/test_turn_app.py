"""The turn at the table as a player meets it, through the window's virtual mouse and
keyboard: keys pressed while a shot is in flight or playing out change nothing of the
next stroke; ball in hand is the same in every game and every time (placed from
overhead, the allowed area shaded, the cue ball following the mouse); the camera the
player picks is remembered, across a new table and the next session."""

from __future__ import annotations

from pathlib import Path

import attrs
import numpy as np
import pytest
from panda3d.core import KeyboardButton

from rules import CUE, BallInHand, Player, PocketId
from sim.app.headless import grab_rgb
from sim.app.main import PoolApp
from sim.app.screens.preferences import Preferences
from sim.physics.simulate import CueAction
from sim.physics.table import pocket_centre
from sim.play.game import Game, GameSetup, Stroke
from sim.play.table.turn import Stage
from tests.app.test_table_app import after_break, click, move, pixel, press, step, wait_for

pytestmark = pytest.mark.app

STROKE_KEYS = [
    KeyboardButton.up(),
    KeyboardButton.down(),
    KeyboardButton.left(),
    KeyboardButton.right(),
    *(KeyboardButton.asciiKey(key) for key in "ijkledsp"),
]


def new_game(game: str) -> Game:
    match = Game(GameSetup(game=game, race_to=3, seed=5, players=("Ann", "Bob")))
    match.start(Player.A)
    return match


def test_keys_during_a_shot_change_nothing_of_the_next_stroke(table: PoolApp) -> None:
    table.play(new_game("ten-ball"))
    step(table, 2)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.PLACE
    press(table, KeyboardButton.space())  # the cue ball down where it is
    assert controller.stage is Stage.AIM
    press(table, KeyboardButton.space())  # the break
    set_up = attrs.evolve(controller.aim)
    # Each key on its own (up then down would put the power back where it was): at once
    # (the physics working, or the shot already playing), then while the shot plays.
    for moment in ("struck", "watching"):
        if moment == "watching":
            wait_for(table, {Stage.WATCH})
        for key in STROKE_KEYS:
            press(table, key)
            assert controller.stage in (Stage.SIMULATING, Stage.WATCH), (moment, key)
            assert controller.aim == set_up, (moment, key)
            assert controller.declaration is None and controller.call is None, (moment, key)
    press(table, KeyboardButton.asciiKey("2"))  # the camera still answers
    assert table.rig is not None and table.rig.preset == "overhead"
    press(table, KeyboardButton.space())  # and Space still skips to the end
    wait_for(table, {Stage.AIM, Stage.PLACE, Stage.CHOOSE}, frames=5)


@pytest.mark.parametrize("game", ["ten-ball", "rotation"])
def test_the_break_in_hand_is_placed_from_overhead_over_the_shaded_kitchen(
    table: PoolApp, game: str
) -> None:
    table.play(new_game(game))
    step(table, 2)
    controller, rig, kitchen, hud = table.controller, table.rig, table.kitchen, table.hud
    assert controller is not None and rig is not None and kitchen is not None and hud is not None
    assert controller.stage is Stage.PLACE and table.modes.active.name == "place"
    assert rig.preset == "overhead" and not kitchen.isHidden()
    assert "in hand behind the head string" in hud.prompt.getText()
    # The cue ball follows the mouse over the kitchen, and stops at the head string.
    geometry = controller.game.setup.spec.geometry
    move(table, pixel(table, 0.40, 0.30))
    cue = controller.cue_ball()
    assert cue is not None and abs(cue[0] - 0.40) < 0.02 and abs(cue[1] - 0.30) < 0.02
    move(table, pixel(table, 0.40, geometry.head_string_y + 0.3))
    assert controller.cue_ball() == cue
    # Washed over: the cloth in the kitchen is lighter than the same cloth beyond it.
    frame = grab_rgb(table.base).astype(float)
    inside = pixel(table, 1.0, geometry.head_string_y - 0.08)
    outside = pixel(table, 1.0, geometry.head_string_y + 0.08)
    lighter = frame[inside[1], inside[0]].sum() - frame[outside[1], outside[0]].sum()
    assert lighter > 6.0, lighter
    click(table, pixel(table, 0.40, 0.30))  # down: the player's view again
    assert controller.stage is Stage.AIM and kitchen.isHidden()
    step(table)
    assert rig.preset == table.view == "behind"
    press(table, KeyboardButton.asciiKey("b"))  # picked up again: the same placing
    step(table)
    assert controller.stage is Stage.PLACE and rig.preset == "overhead"
    assert not kitchen.isHidden()


def test_ball_in_hand_anywhere_is_placed_from_overhead_nothing_shaded(table: PoolApp) -> None:
    game = after_break(5)
    state = game.rack
    assert state is not None
    cue = state.balls[CUE]
    game.shoot(Stroke(action=CueAction(0.6, 270.0 if cue[1] > 0.3 else 0.0)))  # no contact
    state = game.rack
    assert state is not None and state.ball_in_hand is BallInHand.ANYWHERE
    table.play(game)
    step(table, 2)
    controller, rig, kitchen, hud = table.controller, table.rig, table.kitchen, table.hud
    assert controller is not None and rig is not None and kitchen is not None and hud is not None
    assert controller.stage is Stage.PLACE and rig.preset == "overhead" and kitchen.isHidden()
    assert "in hand anywhere" in hud.prompt.getText()
    move(table, pixel(table, 0.9, 1.9))  # past the head string too
    placed = controller.cue_ball()
    assert placed is not None and abs(placed[0] - 0.9) < 0.02 and abs(placed[1] - 1.9) < 0.02


def test_the_camera_picked_is_remembered_across_a_new_table(table: PoolApp, tmp_path: Path) -> None:
    preferences = table.preferences = Preferences(tmp_path / "preferences.json")
    table.play(new_game("ten-ball"))
    step(table, 2)
    press(table, KeyboardButton.space())  # the cue ball down: the default view
    assert table.rig is not None and table.rig.preset == "behind"
    press(table, KeyboardButton.asciiKey("3"))
    assert table.rig.preset == "broadcast" and preferences.load()["camera"] == "broadcast"
    table.play(new_game("rotation"))  # a new table: placed from overhead, then the view
    step(table, 2)
    assert table.rig is not None and table.rig.preset == "overhead"
    press(table, KeyboardButton.space())
    step(table)
    assert table.rig.preset == "broadcast"
    # The next session starts from it too.
    again = PoolApp(table.base, None, worker=table.worker, preferences=preferences, realtime=False)
    try:
        assert again.view == "broadcast"
    finally:
        again.destroy()


def test_the_default_view_shows_the_shot(table: PoolApp) -> None:
    """Behind the cue ball, the object ball, the rack and the pockets beyond it are in
    the frame, and the cue ball is a ball on the table: the old view (0.9 m back, 14
    degrees down) drew it a fifteenth of the window wide, with the table a sliver."""
    table.play(new_game("ten-ball"))
    step(table, 2)
    press(table, KeyboardButton.space())
    step(table, 60)  # the camera settles
    controller = table.controller
    assert controller is not None and table.rig is not None and table.rig.preset == "behind"
    state = controller.state
    assert state is not None
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    spec = controller.game.setup.spec
    built = spec.build()
    targets = {ball: state.balls[ball] for ball in ("1", "10")}
    targets |= {pocket: pocket_centre(built, PocketId(pocket)) for pocket in ("lt", "rt")}
    for name, point in targets.items():
        x, y = pixel(table, *point)
        assert 0 <= x < width and 0.1 * height < y < 0.9 * height, name
    cue = controller.cue_ball()
    assert cue is not None
    left = pixel(table, cue[0] - spec.ball_radius, cue[1])
    right = pixel(table, cue[0] + spec.ball_radius, cue[1])
    assert np.hypot(right[0] - left[0], right[1] - left[1]) < width / 18
