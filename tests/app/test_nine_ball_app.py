"""9-ball in the window: chosen on the start screen, a break played by a window script
headless, and a HUD that says what 9-ball needs (the lowest ball, the 9 wins, the push
out after the break, the warning) and nothing of calls (NB-17)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from direct.gui.DirectGui import DGG
from PIL import Image

from rules import CUE, GameState, Phase, Player, Tally
from sim.app.main import PoolApp
from sim.app.screens.start import GAMES, StartChoices
from sim.app.script import run_script
from sim.physics.simulate import CueAction
from sim.play.game import Game, GameSetup, Stroke
from sim.play.table.turn import Stage

pytestmark = pytest.mark.app


def nine_ball(seed: int = 5) -> Game:
    return Game(GameSetup(game="nine-ball", race_to=3, seed=seed, players=("Ann", "Bob")))


def test_the_start_screen_offers_9_ball_without_the_10_ball_rows(table: PoolApp) -> None:
    assert "9-ball" in GAMES and GAMES["9-ball"] == "nine-ball"
    table.show_start_screen()
    start = table.start_screen
    assert start is not None
    start.fill(StartChoices(game="nine-ball"))
    table.step(1)
    for key in ("ten_ball_early_pocket", "call_mode"):  # 9-ball calls no shot
        assert start.fields[key]["state"] == DGG.DISABLED and start.fields[key].isHidden()
    assert not start.fields["shot_clock_s"].isHidden()
    assert start.choices().setup(seed=1).game == "nine-ball"


def test_a_window_script_plays_a_9_ball_break(table: PoolApp, tmp_path: Path) -> None:
    """NB-3, NB-4, NB-7, NB-8: the diamond broken from the kitchen by a script; this
    seed's break is dry and legal, so Bob may push out: the HUD names the game and the
    9, offers P and the Push out button, no Safety button and no call."""
    table.play(nine_ball())
    shot = tmp_path / "after-break.png"
    run_script(
        table,
        [
            {"breaker": "A"},
            {"place": [0.635, 0.5]},
            {"aim_at": "1"},
            {"power": 1.0},
            {"shoot": "skip"},
            {"camera": "overhead"},
            {"screenshot": str(shot)},
        ],
    )
    controller, hud = table.controller, table.hud
    assert controller is not None and hud is not None
    (broke,) = controller.game.shots
    assert broke.ruling.player is Player.A and not broke.ruling.foul
    state = controller.state
    assert state is not None and state.phase is Phase.AFTER_BREAK and state.shooter is Player.B
    assert len(state.balls.object_balls) == 9 and controller.stage is Stage.AIM
    assert hud.title.getText() == "9-ball · race to 3 · rack 1"
    status, prompt = hud.status.getText(), hud.prompt.getText()
    assert status == f"lowest ball: {state.lowest} · the 9 wins"
    assert prompt.startswith("Bob: P to push out") and "call" not in prompt
    assert not hud.buttons["push"].isHidden() and hud.buttons["safety"].isHidden()
    assert not controller.can_call
    run_script(table, [{"declare": "push-out"}, {"wait": 2}])
    assert hud.prompt.getText().startswith("Bob pushes out")
    assert np.asarray(Image.open(shot).convert("RGB")).std() > 10  # a picture, not a blank


def quiet_stroke(state: GameState) -> Stroke:
    """A roll of a few centimetres from the spot (in hand) or the cue ball farthest from
    every ball: it meets nothing, a no-hit foul (NB-12)."""
    balls = [p for b, p in state.balls.items() if b != CUE]
    if state.ball_in_hand is not None:
        grid = [(0.2 + 0.1 * i, 0.2 + 0.1 * j) for i in range(9) for j in range(22)]
        spot: tuple[float, float] | None = max(
            grid, key=lambda p: min(math.dist(p, b) for b in balls)
        )
        cue = spot
    else:
        spot, cue = None, state.balls[CUE]
    assert cue is not None
    nearest = min(balls, key=lambda b: math.dist(cue, b))
    away = math.degrees(math.atan2(cue[1] - nearest[1], cue[0] - nearest[0]))
    return Stroke(action=CueAction(0.1, away % 360), placement=spot)


def test_the_warned_player_is_shown_warned(table: PoolApp) -> None:
    """NB-14, GEN-15: on two fouls a player's panel says WARNED."""
    game = nine_ball()
    game.start(Player.A)
    game.shoot(Stroke(action=CueAction(9.0, 90.0), placement=(0.635, 0.5)))
    for _ in range(4):  # Bob, Ann, Bob, Ann: no-hit fouls in turn
        state = game.rack
        assert state is not None and state.shot_turn
        game.shoot(quiet_stroke(state))
    state = game.rack
    assert state is not None and state.fouls == Tally(2, 2) and state.warned == set(Player)
    table.play(game)
    table.step(3)
    hud = table.hud
    assert hud is not None
    assert all("2 fouls · WARNED" in hud.details[i].getText() for i in range(2))
    # The replay names the game (the lag's, the break's and every shot's items).
    table.open_replay()
    table.step(2)
    view = table.replay
    assert view is not None and all(item.game == "9-ball" for item in view.items)
    assert view.title.getText() == "Replay 5/5 · 9-ball · Rack 1, shot 5: Ann"
    view.close()
