"""The statistics in the window: the start screen's Statistics shows each indexed
player's figures, the same the command line prints, with their pictures; a match that
ends shows its summary, side by side, with the figures the statistics count."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.app.main import PoolApp
from sim.app.screens.modes import MatchSummaryMode
from sim.app.screens.summary import summary_rows
from sim.app.script import run_script
from sim.play.figures.live import figures_of
from sim.play.table.turn import Stage
from sim.store.gamefile import load
from sim.store.stats.database import opened, read_document
from sim.store.stats.figures import file_figures
from sim.store.stats.report import figure_rows, report
from tests.run import ROOT

GAMES = ROOT / "tests" / "data" / "games"
WON = GAMES / "duel-ten-ball-won.poolsim"


@pytest.mark.app
def test_the_statistics_screen_shows_the_figures_of_each_player(
    table: PoolApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOLSIM_DATA_DIR", str(tmp_path))
    with opened() as database:
        database.index_folders([GAMES])
        expected = {name: figure_rows(report(database, name)) for name in ("Ann", "Bob")}
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    panel = start.open_statistics().panel
    table.step(2)
    players = ["Ann", "Bob", "Player A", "Player B", "computer 1 A", "computer 1 B"]
    assert [r.player for r in panel.reports] == players
    assert panel.show("Bob")
    table.step(1)
    assert panel.name.getText() == "Bob"
    labels, values = panel.labels.getText().split("\n"), panel.values.getText().split("\n")
    assert list(zip(labels, values, strict=True)) == expected["Bob"]
    assert panel.picture is not None and panel.picture.getTexture().getXSize() > 0
    assert not panel.show("Nobody")
    panel.close()
    assert table.start_screen is not None  # Back: the form again


@pytest.mark.app
def test_a_match_over_shows_its_summary_side_by_side(table: PoolApp) -> None:
    game = load(WON)
    table.play(game, save=False)
    table.step(3)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.OVER
    screen = table.modes.screen
    assert isinstance(screen, MatchSummaryMode)  # by itself, as the match ended
    rows = summary_rows(figures_of(game))
    assert rows[0] == ("0", "racks won", "1")
    # The live match counts as its saved file does in the statistics, and shows it.
    assert rows == summary_rows(file_figures(read_document(WON), game.setup.spec))
    shown = [n.node().getText() for n in screen.summary.frame.findAllMatches("**/+TextNode")]
    assert all(cell in shown for row in rows for cell in row)
    screen.summary.close_button["command"]()
    assert table.modes.screen is None
    table.show_match_summary()  # the over bar's Match summary brings it back
    assert isinstance(table.modes.screen, MatchSummaryMode)
    run_script(table, [{"summary": True}])  # up already: the summary answers, as it is
    assert isinstance(table.modes.screen, MatchSummaryMode)
    run_script(table, [{"summary": False}, {"summary": False}])  # closed, then nothing
    assert table.modes.screen is None
    run_script(table, [{"summary": True}])
    assert isinstance(table.modes.screen, MatchSummaryMode)


@pytest.mark.app
def test_a_games_own_figures_show_on_its_summary(table: PoolApp) -> None:
    """Rotation's points (its own figure, ``Rotation.own_figures``) get a row of their own."""
    game = load(ROOT / "tests" / "data" / "elsewhere" / "selfplay-rotation-seed32.poolsim")
    table.play(game, save=False)
    table.step(3)
    screen = table.modes.screen
    assert isinstance(screen, MatchSummaryMode)
    a, b = figures_of(game).own
    assert summary_rows(figures_of(game))[-1] == (str(a["points"]), "points", str(b["points"]))
    shown = [n.node().getText() for n in screen.summary.frame.findAllMatches("**/+TextNode")]
    assert "points" in shown and str(a["points"]) in shown and str(b["points"]) in shown


@pytest.mark.app
def test_a_match_that_ends_under_the_menu_shows_its_summary_once_the_menu_closes(
    table: PoolApp,
) -> None:
    table.play(load(WON), save=False)
    table.open_menu()  # before the table's first frame: the match ends under the menu
    table.step(3)
    controller = table.controller
    assert controller is not None and controller.stage is Stage.OVER
    menu = table.menu
    assert menu is not None
    menu.close()  # the menu's Resume
    table.step(1)
    assert isinstance(table.modes.screen, MatchSummaryMode)
    table.modes.screen.close()
    table.step(2)
    assert table.modes.screen is None  # owed once, shown once
