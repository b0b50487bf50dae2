"""14.1 in the window, as a player sees it: the scoreboard's score of the target, run and
high run (SP-16, SP-17), a game's score beside each name in a match of one game, the
foul count and the three-foul warning (SP-13), the rack outline on the cloth and the
break ball ringed (SP-2, SP-14), and the re-rack said after the shot, shown on the table
and as a step of its own in the replay (SP-14); 14.1 named on the start screen and on
the practice table's rack button."""

from __future__ import annotations

from typing import Any

import pytest
from panda3d.core import KeyboardButton

from rules import CUE
from sim.app.main import PoolApp
from sim.app.screens.start.form import games_line
from sim.app.screens.summary import summary_rows
from sim.app.script import run_script
from sim.play.figures.live import figures_of
from sim.play.game import Game, GameSetup
from sim.play.position import Position
from sim.store.gamefile import load
from tests.app.test_table_app import press, step
from tests.app.test_take_again_app import hud_click
from tests.run import ROOT

pytestmark = pytest.mark.app

NAMES = ("Ann", "Bob")
# The last two balls: the called 5 drops in the foot-right corner, the 9 is left.
LAST_TWO = {CUE: (0.75, 1.8), "5": (1.1, 2.3), "9": (0.3, 1.0)}
POT_THE_FIVE: list[dict[str, Any]] = [
    {"aim_at": "5"},
    {"power": 0.35},
    {"call": ["5", "rt"]},
    {"shoot": "skip"},
]


def set_up(balls: dict[str, tuple[float, float]], players: tuple[str, str] = NAMES) -> Game:
    """A 14.1 practice table set up as ``balls``, the referee on, A to shoot."""
    game = Game(GameSetup(game="straight-pool", players=players, practice=True, seed=1))
    position = Position(game="straight-pool", table="9ft", balls=balls, turn="A")
    game.set_up(position, refereed=True)
    return game


def _table(app: PoolApp, balls: dict[str, tuple[float, float]]) -> None:
    app.play(set_up(balls))
    app.show_view("overhead")
    step(app, 3)


def test_the_last_two_balls_the_rerack_and_the_break_ball(table: PoolApp) -> None:
    """Two balls left: the status says one is the break ball; the called 5 drops, the
    line says the fourteen are racked and the 9 and the cue ball stay, the table shows
    fifteen balls with the 9 ringed, the run is on the scoreboard, and the replay has
    the re-rack as a step after the shot."""
    _table(table, LAST_TWO)
    hud, controller, mark = table.hud, table.controller, table.rack_area
    assert hud is not None and controller is not None and mark is not None
    assert hud.status.getText() == "2 left: pot one, leave the break ball"
    area = controller.state.rack_area() if controller.state else None
    assert area is not None and mark.shown(controller) == (area, ())
    assert not mark.node.isHidden()
    run_script(table, POT_THE_FIVE)
    step(table, 3)
    assert hud.verdict.getText() == (
        "Ann pockets the 5 (1 point) and shoots again. 14 balls are racked; the 9 and the "
        "cue ball stay where they lie."
    )
    state = controller.state
    assert state is not None and len(state.balls.object_balls) == 15
    assert hud.details[0].getText() == "1 of 150 · run 1 · high run 1"
    # A game of its own (a race of one): its score beside each name, not 0 games won.
    assert [hud.names[i].getText() for i in range(2)] == ["▶ Ann  1", "0  Bob"]
    assert hud.status.getText() == "break ball: the 9"
    balls = controller.balls()
    assert mark.shown(controller) == (area, (balls["9"],))
    scene = table.scene  # the table shows the new rack, the 9 where it lay
    assert scene is not None
    shown = {ball: node for ball, node in scene.ball_nodes.items() if not node.isHidden()}
    assert set(shown) == set(balls)
    for ball, node in shown.items():
        assert (node.getX(), node.getY()) == pytest.approx(balls[ball])
    run_script(table, [{"replay": None}])
    replay = table.replay
    assert replay is not None
    racked = replay.items[-1]
    assert racked.label == "Game 1, shot 1: Ann: the balls racked" and not racked.struck
    assert racked.note == "14 balls are racked; the 9 and the cue ball stay where they lie."
    assert replay.items[-2].ruling is not None and replay.index == len(replay.items) - 2


def test_fouls_take_the_score_below_zero_and_the_third_is_warned(table: PoolApp) -> None:
    """SP-10: each foul costs a point, so a score goes below 0; SP-13: with two fouls in a
    row the player at the table is told a third costs 15 more."""
    _table(table, {CUE: (0.635, 0.4), "5": (0.3, 2.2), "9": (1.0, 2.2), "12": (0.9, 2.3)})
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None
    no_hit: list[dict[str, Any]] = [
        {"aim": 270},
        {"power": 0.12},
        {"declare": "safety"},
        {"shoot": "skip"},
    ]
    for _ in range(4):  # Ann, Bob, Ann, Bob: each hits nothing
        run_script(table, no_hit)
    step(table, 3)
    assert hud.verdict.getText().startswith("Foul: no ball hit.")
    assert hud.details[0].getText() == "-2 of 150 · 2 fouls · WARNED"
    assert hud.details[1].getText() == "-2 of 150 · 2 fouls · WARNED"
    assert hud.status.getText().endswith("a third foul costs 15 more")


def test_the_start_screen_and_the_practice_rack_name_14_1(table: PoolApp) -> None:
    """The start screen's subtitle names every game; the practice set-up's rack button
    "14.1" sets up a 14.1 table whose rack outline is drawn once it is played."""
    table.show_start_screen()
    step(table, 2)
    texts = [text.node().getText() for text in table.base.aspect2d.findAllMatches("**/+TextNode")]
    assert games_line() in texts and "14.1 continuous" in games_line()
    table.play(Game(GameSetup(game="nine-ball", practice=True, players=NAMES, seed=1)))
    step(table, 2)
    hud = table.hud
    assert hud is not None and hud.setup_panel is not None
    button = hud.setup_panel.buttons["rack straight-pool"]
    assert button["text"] == "14.1"
    hud_click(table, button)
    press(table, KeyboardButton.space())  # Done: shoot from the rack
    controller, mark = table.controller, table.rack_area
    assert controller is not None and mark is not None and controller.state is not None
    assert controller.game.setup.game == "straight-pool"
    assert set(controller.balls()) == {CUE, *(str(n) for n in range(1, 16))}
    assert mark.shown(controller) == (controller.state.rack_area(), ())
    assert not mark.node.isHidden()


def test_a_single_game_is_titled_so(table: PoolApp) -> None:
    """A match of one game says so ("one game"), not "race to 1 · game 1"."""
    table.play(Game(GameSetup(game="straight-pool", race_to=1, players=NAMES, seed=2)))
    run_script(table, [{"breaker": "A"}])
    step(table, 2)
    assert table.hud is not None
    assert table.hud.title.getText() == "14.1 continuous · one game"


def test_a_match_counts_games_to_the_target(table: PoolApp) -> None:
    """A 14.1 match is a race of games to 150, each racked many times: the title counts
    games, and before the break each player has 0 of 150 and the status the break's
    requirement (SP-3)."""
    table.play(Game(GameSetup(game="straight-pool", race_to=2, players=NAMES, seed=2)))
    run_script(table, [{"breaker": "A"}])
    step(table, 2)
    hud = table.hud
    assert hud is not None
    assert hud.title.getText() == "14.1 continuous · race to 2 · game 1"
    assert [hud.details[i].getText() for i in range(2)] == ["0 of 150"] * 2
    assert [hud.names[i].getText() for i in range(2)] == ["▶ Ann  0", "0  Bob"]  # games won
    assert hud.status.getText() == (
        "break: a called ball, or 2 balls and the cue ball to a rail · "
        "cue ball in hand behind the head string"
    )


def test_the_match_summary_counts_games_won() -> None:
    """A 14.1 match is won in games (each to the points), and its summary says so; a rack
    is not won by running it out, so the rack games' break figures are not shown."""
    game = load(ROOT / "tests" / "data" / "games" / "selfplay-straight-pool-seed1.poolsim")
    rows = summary_rows(figures_of(game))
    assert rows[0][1] == "games won"
    shown = {what for _, what, _ in rows}
    assert not shown & {"balls on the break", "break-and-runs", "run-outs"}
    assert {"pots made", "fouls", "high run"} <= shown
