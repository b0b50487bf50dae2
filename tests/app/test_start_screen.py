"""The start screen as a new player meets it: the drop-downs open over their own button,
each game shows the rows of the options it offers, Resume says what it brings back, and a saved
game opened and left as it was is not archived a second time."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from direct.gui import DirectGuiGlobals as DGG
from panda3d.core import KeyboardButton, Point3

from rules import DEFAULT_GAME, GAMES, PLAYABLE_GAMES, Player
from sim.app.main import PoolApp
from sim.app.screens.start import StartChoices, StartScreen
from sim.app.screens.start.form import RULES
from sim.play.game import Game, GameSetup
from sim.play.selfplay import play_racks
from sim.store.autosave import Autosave
from sim.store.gamefile import save
from tests.app.test_table_app import press


def _match(seed: int = 2) -> Game:
    game = Game(GameSetup(race_to=3, seed=seed, players=("Ann", "Bob")))
    game.start(Player.A)
    return play_racks(game, 1, random.Random(seed))


@pytest.mark.app
def test_a_drop_down_opens_over_its_own_button(table: PoolApp) -> None:
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    menu = start.fields["game"]
    menu.showPopupMenu()
    table.step(1)
    screen = table.base.aspect2d

    def x(node: object, local: float) -> float:
        return float(screen.getRelativePoint(node, Point3(local, 0, 0)).x)

    bounds = menu.getBounds()
    button_left, button_right = x(menu, bounds[0]), x(menu, bounds[1])
    popup_left = x(menu.popupMenu, menu.popupMenu.getBounds()[0])
    middle = (button_left + button_right) / 2
    # Its left edge on the button's (Panda3D's own starts at the button's middle).
    assert abs(popup_left - button_left) < abs(popup_left - middle)
    assert abs(popup_left - button_left) < 0.02
    menu.hidePopupMenu()


def _rows_shown(start: StartScreen) -> list[tuple[float, str]]:
    """The rule options' rows showing, as (height, label), top first."""
    shown = [
        (round(start.row_labels[o.name].getTextPos()[1], 3), start.row_labels[o.name].getText())
        for o in RULES
        if not start.fields[o.name].isHidden()
    ]
    return sorted(shown, reverse=True)


@pytest.mark.app
def test_each_game_shows_the_rows_of_the_options_it_offers(table: PoolApp) -> None:
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    table.step(1)
    heights = start.rule_rows_y
    for game, kind in [*PLAYABLE_GAMES.items(), (DEFAULT_GAME, GAMES[DEFAULT_GAME])]:  # and back
        start.fill(StartChoices(game=game))
        table.step(1)
        offered = kind.rule_options
        rows = zip(heights[: len(offered)], offered, strict=True)
        assert _rows_shown(start) == [(round(y, 3), option.label) for y, option in rows]
        for option in RULES:
            menu, row = start.fields[option.name], start.row_labels[option.name]
            assert menu["state"] == (DGG.NORMAL if option in offered else DGG.DISABLED)
            assert menu.isHidden() == row.isHidden() == (option not in offered)
            if option in offered:  # the drop-down on its label's row
                assert abs(menu.getZ() + 0.012 - row.getTextPos()[1]) < 1e-6


@pytest.mark.app
def test_a_rule_chosen_for_one_game_is_kept_and_set_only_for_it(table: PoolApp) -> None:
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fill(
        StartChoices(
            rules={
                "ten_ball_early_pocket": "win",
                "call_mode": "infer_obvious",
                "shot_clock_s": 35.0,
            }
        )
    )
    start.fields["game"].set("9-ball")
    table.step(1)
    chosen = start.choices()
    assert chosen.rules["ten_ball_early_pocket"] == "win"  # kept, hidden
    options = chosen.setup(seed=1).options
    assert options.ten_ball_early_pocket == "spot_continue"  # 9-ball has no early 10
    assert options.call_mode == "explicit" and options.shot_clock_s == 35.0
    ten = attrs.evolve(chosen, game="ten-ball").setup(seed=1).options
    assert ten.ten_ball_early_pocket == "win" and ten.call_mode == "infer_obvious"


@pytest.mark.app
def test_each_game_keeps_its_own_race(table: PoolApp) -> None:
    """14.1's race is of games to the points (B-55: one), not the racks another game
    was raced to; each game's race as last typed comes back when it is chosen again."""
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fill(StartChoices(game="ten-ball", race_to=7))
    race = start.fields["race_to"]
    assert start.race_label.getText() == "Race to (racks)"
    start.fields["game"].set("14.1 continuous")
    table.step(1)
    assert race.get() == "1" and start.race_label.getText() == "Race to (games)"
    assert start.choices().setup(seed=1).race_to == 1
    race.enterText("2")
    start.fields["game"].set("10-ball")
    table.step(1)
    assert race.get() == "7" and start.race_label.getText() == "Race to (racks)"
    start.fields["game"].set("9-ball")  # never chosen: its default
    assert start.choices().race_to == 5  # read at once, before a frame has passed
    kept = start.keep()
    assert kept.races == {"ten-ball": 7, "straight-pool": 2}
    start.fill(StartChoices.remembered(kept.to_json()))
    start.fields["game"].set("14.1 continuous")
    assert start.choices().race_to == 2


@pytest.mark.app
def test_keys_pressed_while_the_table_opens_are_its(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New game before pooltool has loaded says "setting up the table..." for a moment:
    a key pressed then (3, the broadcast view) is the table's once it is up, not lost."""
    import sim.app.screens.start.form as form
    import sim.app.screens.start.opening as opening

    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fill(StartChoices(game="straight-pool", breaker="A"))
    view = table.view
    with monkeypatch.context() as loading:
        for module in (form, opening):
            loading.setattr(module, "pooltool_loaded", lambda: False)
        start.start()
        table.step(2)
        assert table.controller is None  # the form still up, saying so
        press(table, KeyboardButton.asciiKey("3"))
    assert view != "broadcast" and table.controller is None
    table.step(3)
    assert table.controller is not None and table.view == "broadcast"


@pytest.mark.app
def test_resume_says_which_game_and_how_far(table: PoolApp, tmp_path: Path) -> None:
    table.autosave = Autosave(tmp_path / "autosave.poolsim")
    game = _match()
    table.autosave.save(game)
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    a, b = game.match.racks_won[Player.A], game.match.racks_won[Player.B]
    assert start.resume_detail.getText() == f"10-ball · Ann {a}-{b} Bob · {len(game.shots)} shots"


def test_a_saved_game_opened_and_left_as_it_was_is_not_copied_again(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path / "autosave.poolsim")
    earlier = _match(seed=5)
    autosave.save(earlier)  # another game in the autosave before the saved one is opened
    copy = autosave.saved_dir / "Ann-vs-Bob.poolsim"
    copy.parent.mkdir(parents=True)
    opened = _match(seed=2)
    save(opened, copy)
    autosave.opened_from(copy, opened)
    archived = autosave.archive()  # the earlier game: kept, as always
    assert archived is not None and archived != copy and archived.is_file()
    autosave.save(opened)
    assert autosave.archive() == copy  # a new game replaces it: the saved file is the game
    assert not autosave.exists()
    assert sorted(p.name for p in autosave.saved_dir.iterdir()) == sorted(
        [archived.name, copy.name]
    )


def test_a_saved_game_played_on_is_archived(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path / "autosave.poolsim")
    copy = tmp_path / "Ann-vs-Bob.poolsim"
    opened = _match(seed=2)
    save(opened, copy)
    autosave.opened_from(copy, opened)
    autosave.save(opened)
    play_racks(opened, 1, random.Random(9))  # played on past the file
    autosave.save(opened)
    archived = autosave.archive()
    assert archived is not None and archived.parent == autosave.saved_dir and archived.is_file()


@pytest.mark.app
def test_practice_opens_the_practice_table_of_the_game_and_table_chosen(table: PoolApp) -> None:
    from sim.play.table.turn import Stage

    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fill(StartChoices(game="rotation", table="8ft", players=("Ann", "Bob")))
    start.practice_button.commandFunc(None)
    table.step(2)
    controller = table.controller
    assert controller is not None and table.start_screen is None
    setup = controller.game.setup
    assert setup.practice and (setup.game, setup.table.value) == ("rotation", "8ft")
    assert setup.players == ("Ann", "Bob")
    assert controller.stage is Stage.SETUP and len(controller.balls()) == 16  # the rack


def test_esc_closes_the_panel_open_then_quits(
    table: PoolApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start screen's Esc: back from a panel over the form, then (and the Quit
    button) leaving poolsim."""
    from sim.app.screens.start import StartScreen

    quits: list[str] = []
    monkeypatch.setattr(StartScreen, "quit", lambda self: quits.append("quit"))
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.open_statistics()
    assert table.start_screen is None and table.modes.screen is not None
    table.modes.key("escape")
    start = table.start_screen  # the form again, in the statistics' place
    assert start is not None and not quits
    table.modes.key("escape")
    assert quits == ["quit"]
    start.quit_button["command"]()
    assert quits == ["quit", "quit"]
