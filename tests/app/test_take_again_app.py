"""Take it again and Play from here in the window, as a player finds them (issue 11,
items 2 and 3): after a shot, Backspace, the Take it again button or the script's
``take_again`` put every ball back with the same stroke loaded, the first try kept as a
branch; in the replay viewer, P or Play from here opens the table before the shot shown,
and what is played there is a new branch, marked in the viewer's shot list."""

from __future__ import annotations

from typing import Any

import pytest
from panda3d.core import KeyboardButton

from rules import CUE, Declaration, Player
from sim.app.main import PoolApp
from sim.app.screens.replay import BRANCH_MARK
from sim.app.script import ScriptError, run_script
from sim.physics.simulate import CueAction, aim_towards
from sim.play.game import Game, GameSetup, ShotRecord, Stroke
from sim.play.table.turn import Stage
from tests.app.test_table_app import after_break, click, press, step

pytestmark = pytest.mark.app

BREAK = [
    {"breaker": "A"},
    {"place": [0.635, 0.5]},
    {"aim_at": "1"},
    {"power": 1.0},
    {"shoot": "skip"},
]


def ten_ball() -> Game:
    return Game(GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob")))


def drawn(app: PoolApp, balls: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Where the scene draws each of ``balls`` (x, y)."""
    assert app.scene is not None
    return {b: tuple(app.scene.ball_nodes[b].getPos())[:2] for b in balls}  # type: ignore[misc]


def assert_back(app: PoolApp, before: dict[str, Any], stroke: Any) -> None:
    """The table as it was before the shot: the balls (the game's and the drawn), the
    stroke loaded, ready to shoot."""
    controller = app.controller
    assert controller is not None
    assert controller.stage is Stage.AIM
    assert controller.balls() == before
    for ball, (x, y) in drawn(app, before).items():
        assert (x, y) == pytest.approx(before[ball], abs=1e-5)
    assert controller.aim.action() == stroke.action
    assert controller.stroke().placement == stroke.placement


def hud_click(app: PoolApp, widget: Any) -> None:
    """A click on a HUD button where it is drawn."""
    bounds = widget.getBounds()
    x = widget.getX() + (bounds[0] + bounds[1]) / 2 * widget.getSx()
    y = widget.getZ() + (bounds[2] + bounds[3]) / 2 * widget.getSz()
    width, height = app.base.win.getXSize(), app.base.win.getYSize()
    aspect = app.base.getAspectRatio()
    click(app, (int((x / aspect + 1) / 2 * width), int((1 - y) / 2 * height)))


def test_take_it_again_by_key_button_and_script(table: PoolApp) -> None:
    table.play(ten_ball())
    run_script(table, BREAK)
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None
    assert controller.shooter is Player.A  # this seed's break pockets the 2: Ann again
    run_script(table, [{"aim_at": "1"}, {"power": 0.4}, {"declare": "safety"}])
    before, stroke = controller.balls(), controller.stroke()
    run_script(table, [{"shoot": "skip"}, {"wait": 2}])
    assert controller.balls() != before
    assert not hud.buttons["again"].isHidden()  # after the shot, beside Shoot

    # Backspace: the table is back and ready to shoot in the frame the key is pressed.
    mouse = table.virtual_mouse()
    mouse.pressButton(KeyboardButton.backspace())
    step(table)
    assert_back(table, before, stroke)
    mouse.releaseButton(KeyboardButton.backspace())
    step(table)
    assert controller.message == (
        "Shot taken back: Ann to shoot it again. The first try is kept as a branch."
    )
    assert hud.message.getText() == controller.message

    # Changed a little and shot again: the first try is a branch of the game.
    run_script(table, [{"aim": stroke.action.aim + 1.5}, {"shoot": "skip"}])
    game = controller.game
    assert game.branched and len(game.lines()) == 2
    parent = game.current.parent
    assert parent is not None
    again, first_try = (node.record for node in parent.variations)
    assert isinstance(first_try, ShotRecord) and isinstance(again, ShotRecord)
    assert again is game.shots[-1] and first_try.stroke.action == stroke.action

    # The button takes that one back too; the script's take_again the break before it.
    hud_click(table, hud.buttons["again"])
    assert_back(table, before, again.stroke)
    (broke,) = game.shots
    run_script(table, [{"take_again": True}])
    assert controller.balls() == dict(broke.start) and not game.shots
    assert controller.aim.action() == broke.stroke.action
    assert controller.message.startswith("Shot taken back: Ann to shoot it again.")
    with pytest.raises(ScriptError, match="no shot to take back"):
        run_script(table, [{"take_again": True}])
    assert len(game.lines()) == 2 and len(list(game.root.nodes())) == 5  # nothing lost


def test_play_from_here_in_the_replay_makes_a_branch(table: PoolApp) -> None:
    table.play(ten_ball())
    run_script(table, [*BREAK, {"aim_at": "1"}, {"power": 0.4}, {"shoot": "skip"}])
    controller = table.controller
    assert controller is not None
    game = controller.game
    broke, second = game.shots
    played = game.current

    # The viewer opens on the last shot; P plays from there: its position, its stroke.
    run_script(table, [{"replay": None}])
    view = table.replay
    assert view is not None and view.item.node is game.last_shot()
    assert not view.play_button.isHidden()
    press(table, KeyboardButton.asciiKey("p"))
    assert table.replay is None and table.hud is not None and not table.hud.root.isHidden()
    assert controller.stage is Stage.AIM and controller.balls() == dict(second.start)
    assert controller.aim.action() == second.stroke.action
    assert controller.message.startswith("Playing from rack 1, shot 2: Ann to shoot it again.")

    # The break again, from the replay's shot list, by the script: shot there, a branch.
    run_script(table, [{"replay": 0}, {"play_from_here": True}])
    assert controller.balls() == dict(broke.start)
    run_script(table, [{"aim": broke.stroke.action.aim - 2.0}, {"shoot": "skip"}])
    lines = game.lines()
    assert len(lines) == 2 and played in lines[0].nodes  # the main line as it was
    assert not game.current.is_mainline()

    # The shot list shows the branch under the shot it was played in place of.
    run_script(table, [{"replay": None}])
    view = table.replay
    assert view is not None
    shorts = [item.short for item in view.items]
    assert shorts == ["1.1 Ann", f"{BRANCH_MARK}1.1 Ann", f"{BRANCH_MARK}1.2 Ann"]
    assert [item.depth for item in view.items] == [0, 1, 1]
    assert view.index == 0  # the line in play is the new break alone
    view.close()


def test_take_it_again_from_the_choice_after_a_push_out(table: PoolApp) -> None:
    """The incoming player's choice is up (a push out was played): the button is there,
    and Backspace takes the push out back, its declaration loaded with its stroke."""
    game = after_break(50)
    state = game.rack
    assert state is not None
    cue = state.balls[CUE]
    before = dict(state.balls)
    push = Stroke(
        action=CueAction(1.0, aim_towards(cue, (0.3, 1.8))), declaration=Declaration.PUSH_OUT
    )
    game.shoot(push)
    table.play(game)
    step(table, 3)
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None and controller.stage is Stage.CHOOSE
    assert not hud.buttons["again"].isHidden()
    press(table, KeyboardButton.backspace())
    assert_back(table, before, push)
    assert controller.declaration is Declaration.PUSH_OUT
    assert len(game.lines()) == 1 and len(game.current.variations) == 1  # the push kept
