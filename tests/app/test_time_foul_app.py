"""The shot clock run out in the window (GEN-17, issue 28 friction 16): with nobody
touching anything the referee calls the foul the moment the clock expires, the plain
line says so alone, Backspace takes it back, the menu holds the clock, and the replay's
shot list names the time foul."""

from __future__ import annotations

import pytest
from panda3d.core import KeyboardButton

from rules import Options, Player
from sim.app.main import PoolApp
from sim.app.script import run_script
from sim.play.game import Game, GameSetup, TimeFoulRecord
from tests.app.test_table_app import press, step

pytestmark = pytest.mark.app
FPS = 60  # the test window's fixed clock: a frame is 1/60 s


def timed_ten_ball() -> Game:
    options = Options(
        shot_clock_s=5.0, shot_clock_extension_s=5.0, shot_clock_extensions_per_rack=1
    )
    return Game(
        GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob"), options=options)
    )


def breaks_when_ready(app: PoolApp) -> None:
    """Ann to break, once the physics is ready: the clock waits for it."""
    run_script(app, [{"breaker": "A"}])
    assert app.controller is not None
    for _ in range(60 * FPS):
        if app.controller.worker.ready:
            return
        step(app)
    raise AssertionError("the physics never got ready")


def time_fouls(app: PoolApp) -> list[TimeFoulRecord]:
    assert app.controller is not None
    return [r for r in app.controller.game.records if isinstance(r, TimeFoulRecord)]


def test_the_clock_runs_out_untouched_and_the_foul_is_called(table: PoolApp) -> None:
    table.play(timed_ten_ball())
    breaks_when_ready(table)
    run_script(table, [{"wait": 4 * FPS}])
    assert table.hud is not None and table.controller is not None
    left = table.controller.shot_clock.left()
    assert left is not None and 0.5 < left < 1.5
    assert table.hud.prompt.getText().startswith("shot clock ")
    assert not time_fouls(table)
    # The menu holds the clock: ten seconds behind it, and nothing is called.
    press(table, KeyboardButton.escape())
    run_script(table, [{"wait": 10 * FPS}])
    press(table, KeyboardButton.escape())
    assert table.menu is None and not time_fouls(table)
    assert table.controller.shot_clock.left() == pytest.approx(left, abs=0.1)
    run_script(table, [{"wait": FPS + 5}])
    (foul,) = time_fouls(table)
    assert foul.shooter is Player.A and table.controller.shooter is Player.B
    assert (
        table.hud.verdict.getText()
        == "Foul: the shot clock ran out. Bob has ball in hand anywhere."
    )
    assert table.hud.prompt.getText().startswith("shot clock 5 s")  # Bob's own clock
    assert not table.controller.game.shots


def test_backspace_takes_it_back_and_the_replay_names_it(table: PoolApp) -> None:
    table.play(timed_ten_ball())
    breaks_when_ready(table)
    run_script(table, [{"wait": 5 * FPS + 5}])
    assert len(time_fouls(table)) == 1
    press(table, KeyboardButton.backspace())
    assert table.controller is not None and table.controller.shooter is Player.A
    assert not time_fouls(table)
    assert table.controller.message.startswith("Time foul taken back: Ann to shoot it again.")
    run_script(table, [{"wait": 5 * FPS + 5}, {"replay": None}])
    view = table.replay
    assert view is not None
    shots = [item.short for item in view.items]
    assert shots == ["1. Ann: time", "\u21b3 1. Ann: time"]  # the first try, a branch
    assert view.item.said == "Foul: the shot clock ran out. Bob has ball in hand anywhere."
    assert view.timeline.duration == 0.0  # the table as it lay: nothing moves
    assert "cue" not in view.item.system.balls  # Ann's was in hand: never on the table
    step(table, 30)  # a still table plays out without a fault
    panel = [line.getText() for line in view.panel_lines]
    assert "no stroke: the shot clock ran out first" in panel
    assert "first ball hit: none yet" not in panel
    assert view.others() == []  # no stroke to compare with another attempt's
    run_script(table, [{"play_from_here": True}])
    assert table.replay is None and table.controller.shooter is Player.A
    assert table.controller.message.startswith("Playing from rack 1's time foul: Ann")
    assert not time_fouls(table)  # the table before it: a third try, a new branch
