"""The scoreboard's game words in the window, each asked of the game's state
(``GameState.status_words``, ``player_words``): rotation's points and what wins (ROT-9),
and nothing of the game on a practice table with the referee off."""

from __future__ import annotations

import pytest

from rules import CUE, Player
from sim.app.main import PoolApp
from sim.app.script import run_script
from sim.play.game import Game, GameSetup
from sim.play.position import Position
from sim.play.table.turn import Stage
from tests.app.test_table_app import step

pytestmark = pytest.mark.app


def test_rotation_says_each_players_points_and_what_wins(table: PoolApp) -> None:
    """ROT-9: before the break, 0 points each and 61 to win, the 1 the lowest ball and
    61 wins on the status line; after it, each player's points as the referee counts."""
    table.play(Game(GameSetup(game="rotation", seed=2, players=("Ann", "Bob"))))
    run_script(table, [{"breaker": "A"}])
    step(table, 2)
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None
    assert hud.status.getText() == (
        "lowest ball: 1 · 61 wins · cue ball in hand behind the head string"
    )
    assert [hud.details[i].getText() for i in range(2)] == ["0 points · 61 to win"] * 2
    run_script(
        table,
        [{"place": [0.635, 0.5]}, {"aim_at": [0.635, 1.905]}, {"power": 1.0}, {"shoot": "skip"}],
    )
    step(table, 2)
    state = controller.state
    assert state is not None and state.score.a + state.score.b > 0  # this seed's break scores
    for i, player in enumerate(Player):
        points = state.score[player]
        assert hud.details[i].getText().startswith(f"{points} points · {61 - points} to win")
    assert "61 wins" in hud.status.getText()


def test_free_play_says_nothing_of_the_game(table: PoolApp) -> None:
    """The referee off, an 8-ball table has no group and nothing to hit first."""
    game = Game(GameSetup(game="eight-ball", players=("Ann", "Bob"), practice=True, seed=1))
    balls = {CUE: (0.635, 1.0), "3": (0.3, 0.7), "11": (0.9, 1.6), "8": (0.635, 1.905)}
    game.set_up(Position(game="eight-ball", table="9ft", balls=balls, turn="A"), refereed=False)
    table.play(game)
    step(table, 2)
    hud = table.hud
    assert hud is not None
    assert hud.status.getText() == "" and hud.details[0].getText() == ""


def test_the_cue_ball_in_hand_is_not_said_while_the_shot_plays(table: PoolApp) -> None:
    """Seen under Xvfb: "cue ball in hand behind the head string" stayed on the status
    line the seconds the break rolled; it goes once the cue ball is struck."""
    table.play(Game(GameSetup(game="ten-ball", seed=2, players=("Ann", "Bob"))))
    run_script(table, [{"breaker": "A"}, {"place": [0.635, 0.5]}, {"power": 1.0}])
    hud, controller = table.hud, table.controller
    assert hud is not None and controller is not None
    step(table, 2)
    assert "cue ball in hand behind the head string" in hud.status.getText()
    controller.strike()
    for _ in range(400):
        step(table, 1)
        if controller.stage is Stage.WATCH:
            break
    assert controller.stage is Stage.WATCH
    assert "in hand" not in hud.status.getText()
