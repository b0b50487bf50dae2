"""The practice table through the window, as a player finds it (issue 11, items 1, 6's
"save from the table" and 8's practice sessions): a new practice table opens on its
set-up; balls are moved, taken off, brought back and racked (by script, by mouse, by
the HUD's buttons); the table set up is shot from with the referee off, taken again
three times with small changes (each try kept as a branch); the position is saved and
read back; the referee on rules from the position; the session's file is saved,
reopened and verified; and every bad input is one line that changes nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from panda3d.core import KeyboardButton, MouseButton

from rules import CUE, BallInHand, Player
from sim.app.main import PoolApp
from sim.app.script import ScriptError, on_screen, run_script
from sim.play.game import Game, GameSetup, SetupRecord, ShotRecord
from sim.play.table.turn import Stage
from sim.store.gamefile import load, save
from sim.store.positionfile import load_position
from sim.store.verify import verify_game
from tests.app.test_hud_clear import _problems
from tests.app.test_table_app import pixel, press, step
from tests.app.test_take_again_app import hud_click
from tests.run import poolsim

pytestmark = pytest.mark.app

# The 3 on the line from the cue ball to the foot-left corner (116.565 degrees).
CUT = [
    {"clear": True},
    {"add_ball": ["3", 0.18, 2.18]},
    {"add_ball": "9"},
    {"move_ball": ["cue", 0.36, 1.82]},
]


def practice(game: str = "nine-ball") -> Game:
    return Game(GameSetup(game=game, practice=True, players=("Ann", "Bob"), seed=3))


def ready(app: PoolApp) -> Any:
    controller = app.controller
    assert controller is not None
    return controller


def test_a_new_practice_table_opens_on_its_set_up_and_the_hud_clears_it(table: PoolApp) -> None:
    table.play(practice())
    step(table, 2)
    controller, hud = ready(table), table.hud
    assert hud is not None and hud.setup_panel is not None
    assert controller.stage is Stage.SETUP and controller.tracking
    assert set(controller.balls()) == {CUE, *(str(n) for n in range(1, 10))}  # the rack
    assert not hud.setup_panel.frame.isHidden() and hud.stroke_widget.isHidden()
    assert hud.title.getText() == "Practice · 9-ball · referee off"
    assert table.rig is not None and table.rig.preset == "overhead"
    table.rig.jump()
    step(table, 2)
    layout = on_screen(table)
    assert layout["stage"] == "setup" and not _problems(layout)


def test_set_up_by_script_shoot_and_take_it_again_three_times(table: PoolApp) -> None:
    table.play(practice())
    run_script(table, CUT)
    controller = ready(table)
    table_setup = controller.set_up.current()
    assert controller.balls() == {"3": (0.18, 2.18), "9": table_setup.balls["9"], CUE: (0.36, 1.82)}
    assert table_setup.off_table == ("1", "2", "4", "5", "6", "7", "8")
    run_script(table, [{"remove_ball": "9"}, {"add_ball": ["9", 1.0, 0.5]}])
    assert controller.balls()["9"] == (1.0, 0.5)
    run_script(table, [{"setup_done": True}, {"aim": 116.565}, {"power": 0.25}])
    assert controller.stage is Stage.AIM and isinstance(controller.game.records[-1], SetupRecord)
    before = controller.balls()
    run_script(table, [{"shoot": "skip"}])
    hud = table.hud
    assert hud is not None
    assert hud.verdict.getText() == "The 3 drops in the foot-left corner."
    assert controller.state.shooter is Player.A  # free play: the same player again
    # Take it again three times, each with a small change (a touch more power, or
    # another aim); each try stays in the game as a branch.
    for change in ({"power": 0.3}, {"aim": 116.0}, {"tip": [0.0, -0.3]}):
        mouse = table.virtual_mouse()
        mouse.pressButton(KeyboardButton.backspace())
        step(table)  # the frame the key is pressed in: the table is back, ready
        mouse.releaseButton(KeyboardButton.backspace())
        assert controller.stage is Stage.AIM and controller.balls() == before
        run_script(table, [change, {"shoot": "skip"}])
    lines = controller.game.lines()
    assert len(lines) == 4  # the main line and the three tries before it
    assert len(controller.game.shots) == 1 and not hud.buttons["again"].isHidden()


def test_set_up_by_mouse_key_and_buttons(table: PoolApp) -> None:
    table.play(practice())
    run_script(table, [*CUT, {"setup_done": True}])
    controller, hud = ready(table), table.hud
    assert hud is not None and controller.stage is Stage.AIM
    assert not hud.buttons["setup"].isHidden()
    press(table, KeyboardButton.asciiKey("u"))  # U: back to the set-up, balls as they lie
    assert controller.stage is Stage.SETUP
    assert table.rig is not None
    table.rig.jump()
    step(table, 2)
    # Drag the 9 a little along the table.
    mouse = table.virtual_mouse()
    nine = controller.balls()["9"]
    mouse.setMousePos(*pixel(table, *nine))
    step(table)
    mouse.pressButton(MouseButton.one())
    step(table)
    target = (nine[0] - 0.2, nine[1] + 0.3)
    mouse.setMousePos(*pixel(table, *target))
    step(table, 2)
    mouse.releaseButton(MouseButton.one())
    step(table)
    moved = controller.balls()["9"]
    assert moved == pytest.approx(target, abs=0.01)
    # A drag onto another ball is refused in a line; the ball stays.
    mouse.setMousePos(*pixel(table, *moved))
    step(table)
    mouse.pressButton(MouseButton.one())
    step(table)
    mouse.setMousePos(*pixel(table, 0.18, 2.18))
    step(table, 2)
    mouse.releaseButton(MouseButton.one())
    step(table)
    assert controller.balls()["9"] == moved
    said = table.hud.shown_message()  # the window's line: the move refused
    assert said.startswith("the 9 at (") and "overlaps the 3" in said
    # Right-click takes it off; the tray's button brings it back.
    mouse.setMousePos(*pixel(table, *moved))
    step(table)
    mouse.pressButton(MouseButton.three())
    step(table)
    mouse.releaseButton(MouseButton.three())
    step(table)
    assert "9" not in controller.balls()
    panel = hud.setup_panel
    assert panel is not None and "9" in panel.tray
    hud_click(table, panel.tray["9"])
    assert "9" in controller.balls()
    # The rack button, then Space: shoot from the rack.
    hud_click(table, panel.buttons["rack nine-ball"])
    assert set(controller.balls()) == {CUE, *(str(n) for n in range(1, 10))}
    press(table, KeyboardButton.space())
    assert controller.stage is Stage.AIM and controller.game.match.rack_number == 2


def test_save_the_position_and_read_it_back(table: PoolApp, tmp_path: Path) -> None:
    table.play(practice())
    target = tmp_path / "cut.json"
    run_script(table, [*CUT, {"save_position": str(target)}])
    controller = ready(table)
    saved = load_position(target)
    assert dict(saved.balls) == controller.balls() and saved.game == "nine-ball"
    assert table.hud.shown_message() == f"Position saved: {target}"
    # Into the user data folder's positions/ by default (the HUD says where).
    os.environ["POOLSIM_DATA_DIR"] = str(tmp_path / "user")
    try:
        where = table.practice.save_position()
    finally:
        del os.environ["POOLSIM_DATA_DIR"]
    assert where.parent == tmp_path / "user" / "positions" and load_position(where) == saved
    # And a practice table opened from it is that position, ready to shoot.
    run_script(table, [{"practice": {"position": str(target)}}])
    controller = ready(table)
    assert controller.stage is Stage.AIM and controller.balls() == dict(saved.balls)


def test_the_referee_on_rules_from_the_position(table: PoolApp) -> None:
    table.play(practice())
    run_script(
        table,
        [
            {"clear": True},
            {"add_ball": ["1", 1.0, 2.0]},
            {"add_ball": ["3", 0.18, 2.18]},
            {"referee": {"on": True, "turn": "B", "in_hand": "anywhere"}},
            {"setup_done": True},
        ],
    )
    controller, hud = ready(table), table.hud
    assert hud is not None and hud.title.getText() == "Practice · 9-ball · referee on"
    state = controller.state
    assert state.refereed and state.shooter is Player.B
    assert state.ball_in_hand is BallInHand.ANYWHERE and controller.stage is Stage.PLACE
    # The cue ball waits where it was set up; Bob plays the 3 first: a foul (NB-5).
    run_script(table, [{"place": [0.36, 1.82]}, {"aim": 116.565}, {"power": 0.25}])
    run_script(table, [{"shoot": "skip"}])
    assert hud.verdict.getText().startswith("Foul")
    assert controller.state.shooter is Player.A


def test_the_session_file_is_saved_reopened_and_verified(table: PoolApp, tmp_path: Path) -> None:
    table.play(practice())
    run_script(
        table,
        [*CUT, {"setup_done": True}, {"aim": 116.565}, {"power": 0.25}, {"shoot": "skip"}],
    )
    run_script(table, [{"take_again": True}, {"power": 0.3}, {"shoot": "skip"}])
    run_script(table, [{"set_up": True}, {"rack": None}, {"setup_done": True}])
    controller = ready(table)
    path = tmp_path / "session.poolsim"
    save(controller.game.snapshot(), path)
    reopened = load(path)
    assert reopened.setup.practice and len(reopened.lines()) == 2
    kinds = [type(r) for r in reopened.records]
    assert kinds == [SetupRecord, ShotRecord, SetupRecord]
    assert all(check.identical for check in verify_game(reopened))
    table.play(reopened)
    assert ready(table).stage in (Stage.AIM, Stage.PLACE)  # opened as it was: no set-up


@pytest.mark.parametrize(
    ("step_", "said"),
    [
        ({"move_ball": ["9", 0.18, 2.18]}, "the 9 at (0.180, 2.180): the 9 overlaps the 3"),
        ({"move_ball": ["3", -0.5, 1.0]}, "off the table"),
        ({"add_ball": "12"}, "there is no '12' in 9-ball"),
        ({"add_ball": "cue"}, "the cue ball is on the table already"),
        ({"move_ball": ["3", "nan", 1.0]}, "finite"),
        ({"referee": "maybe"}, "referee:"),
    ],
)
def test_bad_set_ups_are_one_line_and_change_nothing(
    table: PoolApp, step_: dict[str, Any], said: str
) -> None:
    table.play(practice())
    run_script(table, CUT)
    controller = ready(table)
    before = controller.balls()
    with pytest.raises(ScriptError) as caught:
        run_script(table, [step_])
    assert said in str(caught.value) and "\n" not in str(caught.value)
    assert controller.balls() == before and controller.stage is Stage.SETUP


def test_a_wrong_position_file_is_one_line(table: PoolApp, tmp_path: Path) -> None:
    table.play(practice())
    bad = tmp_path / "bad.json"
    good = {
        "format": "poolsim-position",
        "version": 1,
        "game": "nine-ball",
        "table": "9ft",
        "turn": "A",
        "cue_ball_in_hand": None,
        "balls": {"cue": [0.6, 0.6], "3": [0.6, 0.61]},
    }
    bad.write_text(json.dumps(good))
    with pytest.raises(ScriptError, match=r"balls\.(cue|3): .*overlaps") as caught:
        run_script(table, [{"practice": {"position": str(bad)}}])
    assert "\n" not in str(caught.value)
    assert ready(table).stage is Stage.SETUP  # the table as it was


def test_poolsim_play_practice_with_a_bad_position_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "poolsim-position"}')
    result = poolsim("play", "--practice", "--position", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0]
    result = poolsim("play", "--position", str(bad))
    assert result.returncode == 2 and "--position applies only with --practice" in result.stderr


def test_a_rack_won_with_the_referee_on_offers_to_set_up_again(table: PoolApp) -> None:
    table.play(practice())
    run_script(
        table,
        [
            {"clear": True},
            {"add_ball": ["9", 0.18, 2.18]},
            {"move_ball": ["cue", 0.36, 1.82]},
            {"referee": "on"},
            {"setup_done": True},
            {"aim": 116.565},
            {"power": 0.25},
            {"shoot": "skip"},
        ],
    )
    controller, hud = ready(table), table.hud
    assert hud is not None and controller.stage is Stage.OVER
    assert controller.game.winner() is Player.A
    assert hud.verdict.getText().startswith("Ann wins the rack")
    assert not hud.buttons["again"].isHidden() and not hud.buttons["setup"].isHidden()
    assert [b["text"].split("\n")[0] for b in hud.choice_buttons] == [
        "Set up again",
        "Replay the shots",
    ]
    hud.choice_buttons[0].commandFunc(None)
    step(table)
    assert controller.stage is Stage.SETUP and "9" in controller.set_up.current().off_table


@pytest.mark.parametrize("size", ["1280x800", "800x1000"])
def test_no_panel_covers_a_pocket_or_a_ball_on_the_practice_table(
    size: str, tmp_path: Path
) -> None:
    """tests/app/test_hud_clear.py's check, on the practice table: setting up (the rack,
    and a few balls with the tray full) and aiming after a shot, from the framed views."""

    def look(moment: str) -> list[dict[str, Any]]:
        steps: list[dict[str, Any]] = []
        for camera in ("overhead", "broadcast"):
            steps += [{"camera": camera}, {"layout": str(tmp_path / f"{moment}-{camera}.json")}]
        return steps

    script = [
        *look("rack"),
        *CUT,
        *look("tray"),
        {"setup_done": True},
        {"aim": 116.565},
        {"power": 0.25},
        {"shoot": "skip"},
        *look("aim"),
    ]
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script))
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["POOLSIM_DATA_DIR"] = str(tmp_path / "user")
    result = poolsim(
        *("play", "--practice", "--game", "nine-ball", "--seed", "3"),
        *("--size", size, "--script", str(path), "--frames", "1"),
        env=env,
    )
    assert result.returncode == 0, result.stderr
    layouts = {p.stem: json.loads(p.read_text()) for p in tmp_path.glob("*-*.json")}
    assert len(layouts) == 6
    for stem, layout in layouts.items():
        assert not _problems(layout), (stem, _problems(layout))
        assert layout["stage"] == ("aim" if stem.startswith("aim") else "setup")


def test_u_again_leaves_the_set_up_and_the_table_is_as_it_was(table: PoolApp) -> None:
    table.play(practice())
    run_script(table, [*CUT, {"setup_done": True}, {"aim": 100.0}])
    controller = ready(table)
    before, aim = controller.balls(), controller.aim.direction
    press(table, KeyboardButton.asciiKey("u"))
    run_script(table, [{"remove_ball": "9"}, {"move_ball": ["3", 0.5, 1.0]}])
    assert controller.stage is Stage.SETUP and "U: back as it was" in table.hud.prompt.getText()
    press(table, KeyboardButton.asciiKey("u"))
    assert controller.stage is Stage.AIM and controller.balls() == before
    assert controller.aim.direction == aim and len(controller.game.records) == 1
    # A new practice table has no table before its set-up to go back to.
    table.play(practice())
    with pytest.raises(ScriptError, match="set the table up first"):
        run_script(table, [{"set_up": False}])


def test_the_set_up_is_a_screen_the_menu_opens_over_and_gives_back(table: PoolApp) -> None:
    """The set-up comes up as a screen with the set-up stage (U) and goes with it (U
    again); Esc opens the menu over it, the set-up kept under it as it was (overhead,
    the table as set up), and Esc gives it back, its keys and the script's steps its own."""
    table.play(practice())
    step(table)
    setup = table.modes.screen
    assert setup is not None and setup.name == "setup" and table.modes.staged is setup
    assert table.rig is not None and table.rig.preset == "overhead"
    run_script(table, CUT)
    press(table, KeyboardButton.escape())
    assert [screen.name for screen in table.modes.screens] == ["setup", "menu"]
    assert table.menu is not None and table.rig.preset == "overhead"
    press(table, KeyboardButton.space())  # the menu's keys: not Done under it
    assert ready(table).stage is Stage.SETUP
    run_script(table, [{"move_ball": ["9", 1.0, 0.5]}])  # the set-up answers, under it
    assert ready(table).balls()["9"] == (1.0, 0.5)
    press(table, KeyboardButton.escape())
    assert table.modes.screens == [setup] and table.menu is None
    assert table.rig.preset == "overhead"
    press(table, KeyboardButton.space())  # Done: the set-up's own key again
    controller = ready(table)
    assert controller.stage is Stage.AIM and table.modes.screens == []
    assert table.modes.staged is None
    with pytest.raises(ScriptError, match="not being set up: set it up first"):
        run_script(table, [{"move_ball": ["9", 1.0, 0.6]}])
    press(table, KeyboardButton.asciiKey("u"))  # U: the same screen, up again
    assert table.modes.screens == [setup] and table.rig.preset == "overhead"
    press(table, KeyboardButton.asciiKey("u"))  # U again: gone, the table as it was
    assert controller.stage is Stage.AIM and table.modes.screens == []
    # A rack from the table sets it up first, as before the set-up had a screen.
    run_script(table, [{"rack": None}])
    assert controller.stage is Stage.SETUP and table.modes.screens == [setup]


def test_the_replay_opens_over_the_set_up_and_gives_it_back(table: PoolApp) -> None:
    """R while setting up: the viewer over the set-up (the table's shots), and closed,
    the set-up again as it was, seen from overhead (not the player's view)."""
    table.play(practice())
    shot = [{"setup_done": True}, {"aim": 116.565}, {"power": 0.25}, {"shoot": "skip"}]
    run_script(table, [*CUT, *shot, {"set_up": True}, {"move_ball": ["9", 1.0, 0.5]}])
    setup = table.modes.screen
    assert setup is not None and setup.name == "setup"
    press(table, KeyboardButton.asciiKey("r"))
    assert [screen.name for screen in table.modes.screens] == ["setup", "replay"]
    assert table.replay is not None
    table.replay.close()  # the viewer's Close (Esc)
    step(table)
    assert table.modes.screens == [setup] and table.rig is not None
    assert table.rig.preset == "overhead" and ready(table).stage is Stage.SETUP
    assert ready(table).balls()["9"] == (1.0, 0.5)
    assert table.hud is not None and not table.hud.setup_panel.frame.isHidden()
