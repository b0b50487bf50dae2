"""The desktop table driven as a player would, headless (EGL) with a virtual mouse and
keyboard: ball in hand (refused in front of the head string), aiming by mouse, the break
played and watched, the ruling shown, a call by clicks, the push-out choice by a click,
and screenshots checked for real content."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from panda3d.core import KeyboardButton, MouseButton

from rules import CUE, Choice, Declaration, Options, Phase, Player, PocketId
from sim.app.headless import grab_rgb, world_to_pixel
from sim.app.main import PoolApp
from sim.app.scene.cue import first_contact
from sim.physics.simulate import CueAction, aim_towards
from sim.physics.table import pocket_centre
from sim.play.game import Game, GameSetup, Stroke
from sim.play.table.turn import Stage
from sim.store.autosave import Autosave

pytestmark = pytest.mark.app


def step(app: PoolApp, frames: int = 1) -> None:
    app.step(frames)


def pixel(app: PoolApp, x: float, y: float) -> tuple[int, int]:
    radius = app.controller.game.setup.spec.ball_radius  # type: ignore[union-attr]
    where = world_to_pixel(app.base, (x, y, radius))
    assert where is not None, (x, y)
    return where


def move(app: PoolApp, where: tuple[int, int]) -> None:
    app.virtual_mouse().setMousePos(*where)
    step(app)


def click(app: PoolApp, where: tuple[int, int]) -> None:
    mouse = app.virtual_mouse()
    mouse.setMousePos(*where)
    step(app)
    mouse.pressButton(MouseButton.one())
    step(app)
    mouse.releaseButton(MouseButton.one())
    step(app)


def press(app: PoolApp, button: object) -> None:
    mouse = app.virtual_mouse()
    mouse.pressButton(button)
    step(app)
    mouse.releaseButton(button)
    step(app)


def wait_for(app: PoolApp, stages: set[Stage], frames: int = 60 * 120) -> None:
    controller = app.controller
    assert controller is not None
    for _ in range(frames):
        if controller.stage in stages:
            return
        step(app)
    pytest.fail(f"stuck at {controller.stage}")


def started_game(seed: int = 5, options: Options | None = None) -> Game:
    setup = GameSetup(
        game="ten-ball", race_to=3, seed=seed, players=("Ann", "Bob"), options=options or Options()
    )
    game = Game(setup)
    game.start(Player.A)
    return game


def test_break_by_mouse_and_keyboard_then_the_ruling(table: PoolApp) -> None:
    table.play(started_game())
    controller = table.controller
    assert controller is not None
    table.choose_view("overhead")  # the player's view
    table.rig.jump()  # type: ignore[union-attr]
    step(table, 2)
    assert controller.stage is Stage.PLACE
    # In hand behind the head string: the cue ball follows the mouse over the kitchen...
    geometry = controller.game.setup.spec.geometry
    move(table, pixel(table, 0.45, 0.40))
    cue = controller.cue_ball()
    assert cue is not None and abs(cue[0] - 0.45) < 0.02 and abs(cue[1] - 0.40) < 0.02
    # ... but not past the head string: it stays, and a click there is refused.
    move(table, pixel(table, 0.45, geometry.head_string_y + 0.2))
    assert controller.cue_ball() == cue
    click(table, pixel(table, 0.45, geometry.head_string_y + 0.2))
    assert controller.stage is Stage.PLACE
    assert "behind the head string" in table.hud.shown_message()
    # Put it down in the kitchen.
    click(table, pixel(table, 0.45, 0.40))
    assert controller.stage is Stage.AIM
    # Aim by mouse: a drag to the right turns the aim clockwise.
    before = controller.aim.direction
    mouse = table.virtual_mouse()
    start = pixel(table, 0.9, 1.2)
    mouse.setMousePos(*start)
    step(table)
    mouse.pressButton(MouseButton.one())
    step(table)
    for dx in range(10, 110, 10):
        mouse.setMousePos(start[0] + dx, start[1])
        step(table)
    mouse.releaseButton(MouseButton.one())
    step(table)
    turned = (controller.aim.direction - before + 180) % 360 - 180
    assert turned < -1.0
    # Aim at the 1 by clicking it, power with the arrow keys.
    state = controller.state
    assert state is not None
    click(table, pixel(table, *state.balls["1"]))
    assert (
        abs(controller.aim.direction - aim_towards(controller.cue_ball(), state.balls["1"])) < 0.5
    )  # type: ignore[arg-type]
    power = controller.aim.power
    press(table, KeyboardButton.up())
    assert controller.aim.power > power
    frame_before = grab_rgb(table.base)
    press(table, KeyboardButton.space())
    wait_for(table, {Stage.WATCH})
    step(table, 20)
    assert "skip" in table.hud.prompt.getText()  # type: ignore[union-attr]
    during = grab_rgb(table.base)
    assert np.abs(during.astype(int) - frame_before.astype(int)).mean() > 0.5  # balls moved
    press(table, KeyboardButton.space())  # skip to the end
    wait_for(table, {Stage.AIM, Stage.PLACE, Stage.CHOOSE})
    assert controller.last_ruling is not None
    # The referee leads with one plain line in the players' names, no rule ID in it...
    hud = table.hud
    assert hud is not None
    said = hud.verdict.getText()
    assert ("Ann" in said or "Bob" in said) and "TB-" not in said and "GEN-" not in said
    assert not hud.referee_lines and hud.referee_frame.isHidden()
    # ... and W shows the details: every reason, with its rule ID.
    press(table, KeyboardButton.asciiKey("w"))
    lines = [line.getText() for line in hud.referee_lines]
    assert lines and any("TB-" in line or "GEN-" in line for line in lines)
    assert "Ann" in " ".join(lines) or "Bob" in " ".join(lines)
    assert not hud.referee_frame.isHidden()
    press(table, KeyboardButton.asciiKey("w"))
    assert not hud.referee_lines and hud.referee_frame.isHidden()


def after_break(seed: int, options: Options | None = None) -> Game:
    """A 10-ball game right after a foul-free break that left the breaker or the other
    player to shoot with no choice pending."""
    for attempt in range(20):
        game = started_game(seed + attempt, options)
        state = game.rack
        assert state is not None
        spot = (0.635, 0.5)
        game.shoot(
            Stroke(action=CueAction(8.0, aim_towards(spot, state.balls["1"])), placement=spot)
        )
        state = game.rack
        assert state is not None
        if (
            state.phase is Phase.AFTER_BREAK
            and state.pending is None
            and state.ball_in_hand is None
        ):
            return game
    pytest.fail("no clean break in 20 racks")


def test_call_a_ball_and_a_pocket_by_clicks(table: PoolApp) -> None:
    game = after_break(30)
    table.play(game)
    table.choose_view("overhead")  # the player's view
    table.rig.jump()  # type: ignore[union-attr]
    step(table, 2)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.AIM and controller.needs_call
    state = controller.state
    assert state is not None and state.lowest is not None
    click(table, pixel(table, *state.balls[state.lowest]))
    spec = game.setup.spec
    corner = pocket_centre(spec.build(), PocketId.RT)
    click(table, pixel(table, corner[0] - 0.02, corner[1] - 0.02))
    assert controller.call is not None
    assert controller.call.ball == state.lowest and controller.call.pocket is PocketId.RT
    assert "call: the" in table.hud.status.getText()  # type: ignore[union-attr]


def test_a_click_calls_the_ball_aimed_at_without_turning_the_aim(table: PoolApp) -> None:
    """A cut set up (or the hint's stroke) on the ball the player then clicks to call
    is kept: the click calls it; a click on a ball the stroke does not meet first aims
    straight at that ball, as before."""
    game = after_break(30)
    table.play(game)
    table.choose_view("overhead")
    table.rig.jump()  # type: ignore[union-attr]
    step(table, 2)
    controller = table.controller
    assert controller is not None and controller.needs_call
    balls = controller.balls()
    lowest = controller.state.lowest  # type: ignore[union-attr]
    assert lowest is not None
    geometry = game.setup.spec.geometry
    x, y = balls[lowest]
    cut = (x + 0.8 * geometry.ball_radius, y)  # a thin edge of it, to one side
    controller.aim_at(cut)
    others = {b: p for b, p in balls.items() if b != CUE}
    assert first_contact(balls[CUE], controller.aim.direction, others, geometry)[1] == lowest
    aimed = controller.aim.direction
    click(table, pixel(table, x, y))
    assert controller.call_ball == lowest and controller.aim.direction == aimed
    other = next(b for b in others if b != lowest)
    click(table, pixel(table, *balls[other]))
    straight = aim_towards(balls[CUE], balls[other])
    assert controller.call_ball == other and abs(controller.aim.direction - straight) < 1e-6


def test_answer_a_push_out_by_clicking_pass(table: PoolApp) -> None:
    game = after_break(50)
    state = game.rack
    assert state is not None
    pusher = state.shooter
    cue = state.balls[CUE]
    game.shoot(
        Stroke(
            action=CueAction(1.0, aim_towards(cue, (0.3, 1.8))), declaration=Declaration.PUSH_OUT
        )
    )
    state = game.rack
    assert state is not None and state.legal_choices == {Choice.SHOOT, Choice.PASS}
    table.play(game)
    step(table, 3)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.CHOOSE
    hud = table.hud
    assert hud is not None and len(hud.choice_buttons) == 2
    labels = [button["text"] for button in hud.choice_buttons]
    where = next(i for i, label in enumerate(labels) if label.startswith("Pass"))
    x, y = hud.choice_button_centres()[where]
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    aspect = table.base.getAspectRatio()
    click(table, (int((x / aspect + 1) / 2 * width), int((1 - y) / 2 * height)))
    after = controller.state
    assert after is not None and after.pending is None
    assert after.shooter is pusher  # passed back: the pusher must shoot
    assert controller.stage is Stage.AIM


def test_screenshots_show_the_table_and_the_balls(table: PoolApp) -> None:
    game = started_game(7)
    table.play(game)
    table.choose_view("overhead")  # the player's view
    table.rig.jump()  # type: ignore[union-attr]
    step(table, 3)
    image = grab_rgb(table.base)
    controller = table.controller
    assert controller is not None
    geometry = game.setup.spec.geometry
    # The cloth at the table's middle is blue-green, not black.
    cx, cy = pixel(table, geometry.width / 2, geometry.length * 0.4)
    cloth = image[cy, cx].astype(int)
    assert cloth.sum() > 120 and cloth[2] > cloth[0]
    # Each ball of the rack is drawn where it is: its pixel differs from the cloth.
    for ball, (x, y) in controller.balls().items():
        px, py = pixel(table, x, y)
        patch = image[py - 1 : py + 2, px - 1 : px + 2].reshape(-1, 3).astype(int)
        assert np.abs(patch - cloth).sum(axis=1).max() > 60, ball
    # The cue ball is near white.
    px, py = pixel(table, *controller.balls()[CUE])
    assert image[py, px].min() > 150
    random.seed(0)


def test_the_lag_shows_two_cue_balls_each_player_can_tell_apart(table: PoolApp) -> None:
    """GEN-2: both players lag with a cue ball; B's is the same model, tinted blue."""
    table.play(Game(GameSetup(game="ten-ball", race_to=3, seed=2, players=("Ann", "Bob"))))
    table.choose_view("overhead")  # the player's view
    table.rig.jump()  # type: ignore[union-attr]
    step(table, 3)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.LAG
    image = grab_rgb(table.base).astype(int)
    ann, bob = (image[pixel(table, *xy)[::-1]] for xy in controller.lag.balls())
    assert ann.min() > 150  # white
    assert bob[2] > 150 and bob[2] - bob[0] > 40  # blue-tinted, not the yellow 1
    assert "white ball" in table.hud.prompt.getText()  # type: ignore[union-attr]


def test_new_game_from_the_table_goes_to_the_start_screen_and_back(table: PoolApp) -> None:
    table.play(started_game(8))
    step(table, 2)
    table.show_start_screen()
    step(table, 3)  # the table is gone; frames run on the start screen
    assert table.controller is None and table.hud is None and table.start_screen is not None
    press(table, KeyboardButton.space())  # no table: keys do nothing
    table.start_screen.start()
    step(table, 2)
    assert table.controller is not None and table.start_screen is None
    assert table.controller.stage is Stage.LAG  # the form's default: lag for the break


def test_the_menu_takes_the_keys_away_from_the_table(table: PoolApp) -> None:
    table.play(after_break(70))
    step(table, 2)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.AIM
    press(table, KeyboardButton.escape())
    assert table.menu is not None
    elevation, records = controller.aim.elevation, len(controller.game.records)
    for key in ("e", "g", "r"):
        press(table, KeyboardButton.asciiKey(key))
    press(table, KeyboardButton.space())
    assert controller.aim.elevation == elevation and controller.stage is Stage.AIM
    assert len(controller.game.records) == records and table.replay is None
    press(table, KeyboardButton.escape())
    assert table.menu is None


def test_the_menu_is_as_tall_as_its_buttons(table: PoolApp) -> None:
    """No empty band under Quit; Save a copy's field and its note grow the panel to hold
    them, inside it."""
    table.play(after_break(70))
    step(table, 2)
    press(table, KeyboardButton.escape())
    menu = table.menu
    assert menu is not None
    panel = menu.frame["frameSize"]
    lowest = min(b.getZ() + b.getBounds()[2] * b.getSz() for b in menu.buttons)
    assert 0 < lowest - panel[2] < 0.1
    menu.save_copy()  # the path field, and its note under it
    assert menu.path is not None
    panel = menu.frame["frameSize"]
    field = menu.path.getZ() + menu.path.getBounds()[2] * menu.path.getSz()
    note = menu.note.getTightBounds(menu.frame)
    assert note is not None
    assert panel[2] < note[0].z < field < lowest and panel[2] > -0.66
    press(table, KeyboardButton.escape())


def test_calls_by_clicks_when_obvious_shots_need_no_call(table: PoolApp) -> None:
    game = after_break(30, Options(call_mode="infer_obvious"))
    table.play(game)
    table.choose_view("overhead")  # the player's view
    table.rig.jump()  # type: ignore[union-attr]
    step(table, 2)
    controller = table.controller
    assert controller is not None and not controller.needs_call and controller.can_call
    state = controller.state
    assert state is not None and state.lowest is not None
    click(table, pixel(table, *state.balls[state.lowest]))
    corner = pocket_centre(game.setup.spec.build(), PocketId.RT)
    click(table, pixel(table, corner[0] - 0.03, corner[1] - 0.03))
    assert controller.call is not None and controller.call.pocket is PocketId.RT


def test_a_copy_saved_from_the_menu_opens_from_the_saved_games_list(
    table: PoolApp, tmp_path: Path
) -> None:
    """Menu > Save a copy puts the game in the saved-games folder; the start screen's
    Open saved game lists it, newest first, and one click puts it back on the table."""
    table.autosave = Autosave(tmp_path / "autosave.poolsim")
    game = after_break(90)
    table.play(game)
    step(table, 2)
    press(table, KeyboardButton.escape())
    menu = table.menu
    assert menu is not None
    menu.save_copy()  # first the path field, filled in with the saved-games folder
    menu.save_copy()  # then the save
    copies = list(table.autosave.saved_dir.glob("Ann-vs-Bob-*.poolsim"))
    assert len(copies) == 1
    table.modes.screen.close()  # the menu's Resume
    table.show_start_screen()
    step(table, 2)
    start = table.start_screen
    assert start is not None
    panel = start.open_saved().panel
    step(table, 2)
    assert [g.path for g in panel.shown()] == [copies[0].resolve()]
    assert panel.shown()[0].columns()[:3] == ("10-ball", "Ann 0-0 Bob", "race to 3")
    width, height = table.base.win.getXSize(), table.base.win.getYSize()
    row_y = panel.rows[0].getPos(table.base.aspect2d)[2]
    click(table, (width // 2, int((1 - row_y) / 2 * height)))
    assert panel.error.getText() == f"opening {copies[0].name}..."  # said before it reads
    step(table, 3)
    controller = table.controller
    assert controller is not None and table.start_screen is None
    assert len(controller.game.records) == len(game.records)


def test_a_file_that_cannot_be_opened_says_why_in_the_panel(table: PoolApp, tmp_path: Path) -> None:
    table.autosave = Autosave(tmp_path / "autosave.poolsim")
    table.autosave.saved_dir.mkdir(parents=True)
    (table.autosave.saved_dir / "broken.poolsim").write_bytes(b"not a zip")
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    panel = start.open_saved().panel
    assert len(panel.shown()) == 1
    assert panel.rows[0]["state"] == "disabled"  # listed with its problem, not clickable
    panel.open(tmp_path / "nowhere.poolsim")
    step(table, 3)
    assert "cannot read" in panel.error.getText() and table.controller is None
    panel.close()
    start = table.start_screen  # Back: the form again
    assert start is not None and not start.frame.isHidden()


def test_g_turns_the_aiming_line_off_and_on_and_says_so(table: PoolApp) -> None:
    table.play(after_break(70))
    step(table, 2)
    assert table.cue is not None and table.hud is not None and table.cue.show_aid
    press(table, KeyboardButton.asciiKey("g"))
    assert not table.cue.show_aid
    assert table.hud.shown_message() == "aiming line off (G)"
    press(table, KeyboardButton.asciiKey("g"))
    assert table.cue.show_aid and table.hud.shown_message() == "aiming line on (G)"


def test_x_takes_an_extension_and_says_so(table: PoolApp) -> None:
    options = Options(shot_clock_s=35, shot_clock_extension_s=25, shot_clock_extensions_per_rack=1)
    table.play(after_break(70, options))
    step(table, 2)
    assert table.hud is not None and table.controller is not None
    press(table, KeyboardButton.asciiKey("x"))
    assert table.controller.shot_clock.extension
    assert table.hud.shown_message() == "extension taken: 25 more seconds on this shot"
    press(table, KeyboardButton.asciiKey("x"))  # taken already: refused, in words
    assert table.hud.shown_message().startswith("this shot's extension is taken already")


def test_the_default_lag_is_fair_says_why_and_leaves_the_balls_for_the_choice(
    table: PoolApp,
) -> None:
    """Space, Space at the lag with the strokes as they come: the line says A's stroke
    is set and waits for B's; both balls touch the foot cushion once, the plain line says
    whose stopped nearer, and both stay where they stopped while Ann chooses who breaks."""
    table.play(Game(GameSetup(game="nine-ball", race_to=3, seed=2, players=("Ann", "Bob"))))
    table.choose_view("overhead")
    table.rig.jump()  # type: ignore[union-attr]
    step(table, 3)
    controller = table.controller
    hud = table.hud
    assert controller is not None and hud is not None and controller.stage is Stage.LAG
    press(table, KeyboardButton.space())
    assert controller.stage is Stage.LAG and controller.shooter is Player.B
    assert "Ann's lag stroke is set and waits for Bob's" in hud.prompt.getText()
    press(table, KeyboardButton.space())
    wait_for(table, {Stage.BREAKER, Stage.LAG})
    assert controller.stage is Stage.BREAKER
    step(table, 3)
    assert hud.verdict.getText() == (
        "Ann's ball stopped nearer the head cushion: Ann wins the lag and chooses who breaks."
    )
    image = grab_rgb(table.base).astype(int)
    rests = controller.lag.rests()
    ann, bob = (image[pixel(table, *rests[player])[::-1]] for player in Player)
    assert ann.min() > 150  # the white ball, where it stopped
    assert bob[2] > 150 and bob[2] - bob[0] > 40  # the blue-tinted one
    start = image[pixel(table, *controller.lag.balls()[0])[::-1]]
    assert start.min() < 150  # cloth: the ball is not drawn back at its lag spot
