"""The start screen's panels, each a screen of its own in the form's place (issue 28):
the saved games, the drills and the statistics open with ``ModeManager.open``, answer
their own script steps, and give the form back as the player left it; whatever button
leaves the form keeps its changes (friction 15); a position or a drill file opens from
the saved games' field, each to its own table, and a file that is none of poolsim's
says so on a line that stays in the window (friction 5)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from panda3d.core import Point3

from rules import Player
from sim.app.main import PoolApp
from sim.app.screens.preferences import Preferences
from sim.app.screens.start import StartChoices
from sim.app.screens.start.drills import DrillsScreen
from sim.app.screens.start.savedgames import SavedGamesScreen
from sim.app.screens.start.statistics import StatisticsScreen
from sim.app.script import run_script
from sim.play.game import Game, GameSetup
from sim.store.autosave import Autosave
from sim.store.drillfile import drill_named
from sim.store.gamefile import save
from sim.store.positionfile import save_position

pytestmark = pytest.mark.app

CHANGED = StartChoices(game="nine-ball", race_to=7, players=("Efren", "Earl"), table="8ft")


def _form(table: PoolApp, tmp_path: Path) -> None:
    """The start screen, its form changed from what is remembered (nothing yet)."""
    table.preferences = Preferences(tmp_path / "preferences.json")
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fill(CHANGED)
    start.fields["quality"].set(1, fCommand=False)  # Graphics: Quality, just chosen


@pytest.mark.parametrize(
    ("button", "kind"),
    [
        ("Open saved game", SavedGamesScreen),
        ("Drills", DrillsScreen),
        ("Statistics", StatisticsScreen),
    ],
)
def test_each_panel_takes_the_forms_place_and_gives_it_back_as_left(
    table: PoolApp, tmp_path: Path, button: str, kind: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    _form(table, tmp_path)
    start = table.start_screen
    assert start is not None
    buttons = [*start.buttons, start.drills_button]
    (pressed,) = [b for b in buttons if b["text"] == button]
    pressed["command"]()
    screen = table.modes.screen
    assert isinstance(screen, kind) and table.start_screen is None
    assert not screen.over_table and screen.script_actions()  # its own steps
    kept = StartChoices.remembered({**CHANGED.to_json(), "quality": "quality"})
    assert table.preferences is not None and table.preferences.load()["start"] == kept.to_json()
    assert table.quality == "quality"
    table.modes.key("escape")  # Back
    start = table.start_screen
    assert start is not None and start.choices() == kept


def test_resume_keeps_the_form_changed_just_before(table: PoolApp, tmp_path: Path) -> None:
    """Friction 15: Graphics set to Quality, then Resume last game: the game resumed is
    drawn in Quality and the form comes back as changed."""
    table.autosave = Autosave(tmp_path / "autosave.poolsim")
    game = Game(GameSetup(players=("Ann", "Bob")))
    game.start(Player.A)
    table.autosave.save(game)
    _form(table, tmp_path)
    start = table.start_screen
    assert start is not None
    start.buttons[1]["command"]()  # Resume last game
    start.opener.cancel()  # (the table itself is not drawn here: Quality needs a GPU)
    assert table.quality == "quality"
    assert table.preferences is not None
    assert StartChoices.remembered(table.preferences.load()["start"]).race_to == 7
    table.quality = "fast"


def test_a_position_and_a_drill_open_from_the_saved_games_field(
    table: PoolApp, tmp_path: Path
) -> None:
    """Friction 5: a position file opens a practice table at it (its game and table), a
    drill file the drill; neither is 'not a poolsim game file' any more."""
    stop = drill_named("stop-shot")
    position = stop.drill.position
    path = tmp_path / "mine.json"
    save_position(position, path)
    table.preferences = Preferences(tmp_path / "preferences.json")
    table.show_start_screen()
    run_script(table, [{"saved_games": True}, {"open_file": str(path)}])
    controller = table.controller
    assert controller is not None and table.modes.screen is None
    setup = controller.game.setup
    assert setup.practice and (setup.game, setup.table) == (position.game, position.table)
    assert controller.balls() == dict(position.balls) and table.drills.run is None
    run_script(table, [{"saved_games": True}, {"open_file": str(stop.path)}])
    assert table.drills.run is not None and table.drills.run.drill == stop.drill
    assert table.controller is not None and table.controller.game.setup.drill == "Stop shot"


def test_a_file_that_is_none_of_poolsims_says_so_within_the_window(
    table: PoolApp, tmp_path: Path
) -> None:
    junk = tmp_path / ("a-rather-long-folder-name-for-a-file" * 3) / "notes.txt"
    junk.parent.mkdir()
    junk.write_text("my shots this week\n")
    table.show_start_screen()
    run_script(table, [{"saved_games": True}, {"open_file": str(junk)}])
    screen = table.modes.screen
    assert isinstance(screen, SavedGamesScreen) and table.controller is None
    note = screen.panel.list.note
    assert note.getText() == "notes.txt: not a poolsim game, position or drill file"
    run_script(table, [{"open_file": str(junk.parent / "missing.poolsim")}])
    assert "cannot read" in note.getText()
    table.step(1)
    low, high = Point3(), Point3()
    note.calcTightBounds(low, high, table.base.aspect2d)
    aspect = table.base.getAspectRatio()
    assert -aspect <= low.x and high.x <= aspect  # wrapped, not cut by the window's edges


def test_the_saved_games_list_opens_its_newest_by_script(table: PoolApp, tmp_path: Path) -> None:
    table.autosave = Autosave(tmp_path / "autosave.poolsim")
    table.autosave.saved_dir.mkdir(parents=True)
    game = Game(GameSetup(players=("Ann", "Bob"), seed=random.Random(1).getrandbits(32)))
    game.start(Player.B)
    save(game, table.autosave.saved_dir / "Ann-vs-Bob.poolsim")
    table.show_start_screen()
    run_script(table, [{"saved_games": 0}])
    assert table.controller is not None and table.controller.game.setup.players == ("Ann", "Bob")


def test_a_drill_of_the_list_opens_by_script_for_the_forms_player(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    table.preferences = Preferences(tmp_path / "preferences.json")
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fields["player_a"].enterText("Ann")
    run_script(table, [{"drills": "follow"}])
    run = table.drills.run
    assert run is not None and run.drill.name == "follow" and run.player == "Ann"
    assert table.modes.screen is None and table.controller is not None
