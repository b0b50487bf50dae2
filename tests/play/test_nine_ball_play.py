"""9-ball in the game loop: the diamond racked by the set-up, a whole match played by the
shot picker, saved, reopened and verified; the picker knows the 9 wins (NB-10)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import CUE, NineBall, Options, Phase, Player, TenBall
from sim.physics.simulate import simulate_shot
from sim.physics.table import TABLE_SPECS
from sim.play.game import GameSetup
from sim.play.picker import best_pot, choose_stroke
from sim.store.gamefile import load, save
from sim.store.verify import verify_game
from tests.play.matches import lag_then_racks

pytestmark = pytest.mark.physics
SPEC = TABLE_SPECS["9ft"]
# The 2 (lowest) and the 9 on the diagonal to the top right corner, the cue ball behind
# them: the 2 has no pot of its own (the 9 is in its way), the 2-9 combination is straight.
COMBINATION = {CUE: (0.6, 1.87), "2": (0.9, 2.17), "9": (1.1, 2.37), "5": (0.3, 1.0)}


def test_nb_3_the_set_up_racks_the_diamond() -> None:
    """NB-3: nine balls, the 1 on the foot spot, the 9 in the centre; B-26 moves it."""
    setup = GameSetup(game="nine-ball", seed=3)
    balls = setup.rack_up(1, Player.A)
    foot = SPEC.geometry.foot_spot
    assert sorted(balls, key=int) == [str(n) for n in range(1, 10)]
    assert balls["1"] == pytest.approx(foot) and balls["9"][0] == pytest.approx(foot[0])
    moved = GameSetup(
        game="nine-ball", seed=3, options=Options(nine_rack_position="nine_on_foot_spot")
    )
    assert moved.rack_up(1, Player.A)["9"] == pytest.approx(foot)


def test_nb_10_the_picker_plays_the_combination_on_the_nine() -> None:
    """NB-10: the 9 wins wherever it drops, so the picker sends the 2 into it; in 10-ball
    (TB-12, the 10 wins only as the last ball) the same table has no pot to play."""
    state = NineBall(balls=COMBINATION, phase=Phase.PLAY)
    pot = best_pot(state, COMBINATION[CUE], SPEC)
    assert pot is not None and (pot.first, pot.ball) == ("2", "9")
    stroke = choose_stroke(state, SPEC, random.Random(1))
    after = simulate_shot(SPEC, COMBINATION, stroke.action).after
    assert "9" not in after and CUE in after
    ten = {("10" if ball == "9" else ball): point for ball, point in COMBINATION.items()}
    assert best_pot(TenBall(balls=ten, phase=Phase.PLAY), ten[CUE], SPEC) is None
    early = TenBall(balls=ten, phase=Phase.PLAY, options=Options(ten_ball_early_pocket="win"))
    assert best_pot(early, ten[CUE], SPEC) is not None


def test_a_whole_nine_ball_match_is_played_saved_and_verified(tmp_path: Path) -> None:
    """NB-2, NB-14, NB-18: a race to two from the lag, every rack to its end; the file
    reopens as the same match and every shot re-simulates bit for bit."""
    played = lag_then_racks(
        GameSetup(game="nine-ball", race_to=2, seed=8, players=("Ann", "Bob")), racks=3
    )
    assert played.winner() is not None
    assert max(played.match.racks_won.a, played.match.racks_won.b) == 2
    path = tmp_path / "nine.poolsim"
    save(played, path)
    loaded = load(path)
    assert loaded.setup == played.setup and loaded.match == played.match
    checks = verify_game(loaded)
    assert checks and all(check.identical for check in checks)
