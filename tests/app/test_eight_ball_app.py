"""8-ball in the window: chosen on the start screen with its call row, a break and a
called shot played by a window script headless, and a HUD that says what 8-ball needs:
the open table, then each player's group and the balls left of it (EB-7, EB-8, EB-9)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from direct.gui.DirectGui import DGG
from panda3d.core import KeyboardButton
from PIL import Image

from rules import CUE, EightBall, Group, Groups, Phase, Player
from rules.facts import Hit
from rules.groups import EightBallExtras
from sim.app.main import PoolApp
from sim.app.screens.start import GAMES, StartChoices
from sim.app.script import run_script
from sim.physics.table import TABLE_SPECS
from sim.play.game import Game, GameSetup
from sim.play.geometry.pots import path_clear
from sim.play.picker import choose_stroke
from sim.play.table.turn import Aim, Stage
from sim.store.positionfile import load_position
from tests.app.test_table_app import press, wait_for

pytestmark = pytest.mark.app
SPEC = TABLE_SPECS["9ft"]


def eight_ball(seed: int = 5) -> Game:
    return Game(GameSetup(game="eight-ball", race_to=3, seed=seed, players=("Ann", "Bob")))


def test_the_start_screen_offers_8_ball_with_calls_and_no_early_10(table: PoolApp) -> None:
    assert GAMES["8-ball"] == "eight-ball"
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fill(StartChoices(game="eight-ball"))
    table.step(1)
    assert start.fields["call_mode"]["state"] == DGG.NORMAL
    assert start.fields["ten_ball_early_pocket"]["state"] == DGG.DISABLED
    assert start.choices().setup(seed=1).game == "eight-ball"


def test_a_window_script_plays_a_break_and_a_called_shot(table: PoolApp, tmp_path: Path) -> None:
    """EB-4..7: this seed's break pockets two balls and Ann goes on at the open table; she
    calls the picker's pot, and the HUD shows the groups it gives (or the open table)."""
    table.play(eight_ball())
    broke_png, called_png = tmp_path / "break.png", tmp_path / "called.png"
    run_script(
        table,
        [
            {"breaker": "A"},
            {"place": [0.635, 0.5]},
            {"aim_at": [0.635, 1.905]},
            {"power": 1.0},
            {"shoot": "skip"},
            {"camera": "overhead"},
            {"screenshot": str(broke_png)},
        ],
    )
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None
    (broke,) = controller.game.shots
    assert not broke.ruling.foul and broke.ruling.pocketed
    assert broke.ruling.extras == EightBallExtras(groups=Groups())
    state = controller.state
    assert state is not None and state.phase is Phase.PLAY and state.shooter is Player.A
    assert hud.title.getText() == "8-ball · race to 3 · rack 1"
    assert hud.status.getText() == "open table: any ball but the 8"
    assert hud.prompt.getText().startswith("Ann: call")
    assert controller.needs_call and not hud.buttons["safety"].isHidden()

    stroke = choose_stroke(state, SPEC, random.Random(1))
    assert stroke.call is not None and stroke.placement is None
    aim = Aim.of(stroke.action)
    run_script(
        table,
        [
            {"call": [stroke.call.ball, stroke.call.pocket.value]},
            {"aim": aim.direction},
            {"power": aim.power},
            {"tip": [aim.a, aim.b]},
            {"shoot": "skip"},
            {"screenshot": str(called_png)},
        ],
    )
    called = controller.game.shots[-1]
    assert called.stroke.call == stroke.call
    # EB-7: the called 3 went in as called, so the solids are Ann's, the stripes Bob's.
    called_extras = EightBallExtras.of(called.ruling)
    assert called_extras and called_extras.groups == Groups.assigned(Player.A, Group.SOLIDS)
    assert called.ruling.next_shooter is Player.A and controller.stage is Stage.AIM
    after = controller.state
    assert isinstance(after, EightBall)
    solids, stripes = (len(after.groups.left(p, after.balls.object_balls)) for p in Player)
    assert hud.details[0].getText() == f"solids · {solids} left"
    assert hud.details[1].getText() == f"stripes · {stripes} left"
    assert hud.status.getText() == "to hit first: a solid"
    for picture in (broke_png, called_png):
        assert np.asarray(Image.open(picture).convert("RGB")).std() > 10
    # EB-7: the table saved as a position keeps the groups (the game writes its own).
    saved = tmp_path / "groups.json"
    run_script(table, [{"save_position": str(saved)}])
    kept = load_position(saved).state()
    assert isinstance(kept, EightBall) and kept.groups == after.groups


def test_an_illegal_break_offers_the_re_racks_and_one_is_taken(table: PoolApp) -> None:
    """EB-5(c), EB-6 row 7, EB-18: a soft break is illegal, not a foul; Bob gets three
    buttons and has the balls racked again for Ann, who breaks them again: still rack 1
    to the players (the referee's second racking)."""
    table.play(eight_ball())
    run_script(
        table,
        [
            {"breaker": "A"},
            {"place": [0.635, 0.5]},
            {"aim_at": [0.635, 1.905]},
            {"power": 0.25},
            {"shoot": "skip"},
        ],
    )
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None
    (broke,) = controller.game.shots
    assert broke.ruling.extras == EightBallExtras(groups=Groups(), illegal_break=True)
    assert not broke.ruling.foul
    assert controller.stage is Stage.CHOOSE
    labels = {button["text"].split("\n")[0] for button in hud.choice_buttons}
    assert labels == {"Shoot", "Rack again and break", "Rack again, other breaks"}
    run_script(table, [{"choose": "rerack-other"}, {"wait": 2}])
    state = controller.state
    assert state is not None and state.phase is Phase.BREAK and state.shooter is Player.A
    assert controller.game.match.rack_number == 2
    assert hud.title.getText() == "8-ball · race to 3 · rack 1"  # racked again, not rack 2


def test_on_an_open_table_the_aim_as_it_comes_hits_a_ball_on_first(table: PoolApp) -> None:
    """EB-8: after the break the table is open, the 1 behind another ball; the stroke as
    it comes (Space, Space, Space) hits a ball the shooter may hit first, never the 8
    nor a ball in the way of the lowest: no foul."""
    table.play(eight_ball(seed=1))
    run_script(table, [{"breaker": "A"}])
    for _ in range(2):  # put the cue ball down, break
        press(table, KeyboardButton.space())
    wait_for(table, {Stage.AIM, Stage.PLACE, Stage.CHOOSE})
    controller = table.controller
    assert controller is not None and controller.stage is Stage.AIM
    state = controller.state
    cue = controller.cue_ball()
    assert isinstance(state, EightBall) and state.groups.is_open and cue is not None
    others = [p for b, p in state.balls.items() if b not in ("1", CUE)]
    assert not path_clear(cue, state.balls["1"], others, SPEC.geometry.ball_diameter)
    on = state.balls_on
    press(table, KeyboardButton.space())
    wait_for(table, {Stage.AIM, Stage.PLACE, Stage.CHOOSE, Stage.OVER})
    shot = controller.game.shots[-1]
    first = next(f for f in shot.simulated.facts if isinstance(f, Hit) and f.involves(CUE))
    assert first.other(CUE) in on and not shot.ruling.foul
