"""The window's modes: one for each stage of the turn, the screens over the table, the
keys the window listens for, and no screen that imports the window."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import attrs

from rules import Player
from sim.app.main import PoolApp
from sim.app.modes.manager import ModeManager
from sim.app.modes.stages import TableModes
from sim.app.screens.setup import SetupScreen
from sim.play.game import Game, GameSetup
from sim.play.table.turn import Stage

APP = Path(__file__).resolve().parents[2] / "sim" / "app"
# The keys the window has always listened for (besides M, the mouse and window events).
TABLE_KEYS = {
    *(
        f"{shift}arrow_{side}{repeat}"
        for shift in ("", "shift-")
        for side in ("left", "right")
        for repeat in ("", "-repeat")
    ),
    *(f"arrow_{side}{repeat}" for side in ("up", "down") for repeat in ("", "-repeat")),
    *"ikjledspbghfrxwt123",  # t: tracking lines
    "space",
    "enter",
    "escape",
    "backspace",  # take it again
    "u",  # set the practice table up
    "delete",  # take the ball under the pointer off, setting up
    "/",  # a hint from the computer
    "?",
    "shift-/",  # ? as a keyboard types it
    "o",  # offer a stalemate
    "y",  # agree to a stalemate offered
    "n",  # play on
}


class FakeWindow:
    """Enough of a window to build the modes on (they only keep it)."""

    controller: Any = None

    def __getattr__(self, name: str) -> Any:
        return lambda *args: None


@attrs.define
class FakeController:
    stage: Stage
    call_ball: str | None = None


def controller(stage: Stage, call_ball: str | None = None) -> Any:
    return FakeController(stage, call_ball)


def test_every_stage_has_its_mode_and_a_picked_ball_is_a_call() -> None:
    window: Any = FakeWindow()
    modes = TableModes(window)
    names = {stage: modes.for_stage(controller(stage)).name for stage in Stage}
    assert names == {
        Stage.LAG: "lag",
        Stage.BREAKER: "breaker",  # the lag balls where they stopped
        Stage.OFFER: "choose",  # a stalemate offered: agree or play on
        Stage.PLACE: "place",
        Stage.AIM: "aim",
        Stage.SIMULATING: "strike",
        Stage.WATCH: "watch",
        Stage.CHOOSE: "choose",
        Stage.OVER: "over",
        Stage.SETUP: "setup",  # the table at rest under the set-up's screen
    }
    assert modes.for_stage(controller(Stage.AIM, "3")).name == "call"
    aiming = {mode.name for mode in modes.all() if mode.aiming}
    assert aiming == {"lag", "aim", "call"}


def test_the_window_listens_for_the_keys_it_always_did() -> None:
    """The table's modes' keys, and the set-up screen's (Delete)."""
    window: Any = FakeWindow()
    modes = ModeManager(window, {Stage.SETUP: SetupScreen(window)})
    assert modes.key_names() == TABLE_KEYS
    assert ModeManager(window).key_names() == TABLE_KEYS - {"delete"}


def test_no_module_of_the_window_imports_it_but_its_starters() -> None:
    """The screens and the modes reach the window through Protocols: only what starts
    or drives a window (launch, frametimes, script) imports ``sim.app.main``."""
    importers = set()
    for path in [*APP.glob("*.py"), *APP.glob("modes/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "sim.app.main":
                importers.add(path.relative_to(APP).as_posix())
    assert importers == {"launch.py", "frametimes.py", "script.py"}


def test_the_mode_up_follows_the_screens_and_the_stage(table: PoolApp) -> None:
    assert table.modes.active.name == "idle"
    table.show_start_screen()
    assert table.modes.active.name == "start" and table.start_screen is not None
    game = Game(GameSetup(game="ten-ball", race_to=3, seed=5, players=("Ann", "Bob")))
    game.start(Player.A)
    table.play(game)
    table.step()
    assert table.start_screen is None and table.modes.active.name == "place"
    assert table.modes.table is table.modes.table_modes.place  # entered at the frame
    table.modes.key("escape")
    assert table.modes.active.name == "menu" and table.menu is not None
    table.modes.key("space")  # the table's keys are not the menu's
    assert table.controller is not None and table.controller.stage is Stage.PLACE
    table.modes.key("escape")
    assert table.menu is None
    table.modes.key("space")  # the cue ball put down where it is
    assert table.modes.active.name == "aim"
    table.step()
    assert table.modes.table is table.modes.table_modes.aim
