"""Squirt in plain Python (sim.physics.simulate.squirt) is pooltool's, and the aiming aid draws
the cue ball's line with it (issue 31's play-through: a hint with side spin drew its aim
line beside the ball it pots, its ghost ring on the rail)."""

from __future__ import annotations

import math

import pytest
from pooltool.objects import BallParams, Cue
from pooltool.physics.resolve.stick_ball.squirt import get_squirt_angle

from sim.physics.simulate import BALL_MASS, CUE_END_MASS, squirt
from sim.play.table.turn import Aim


def test_the_masses_are_pooltools() -> None:
    assert BallParams.default().m == BALL_MASS
    assert Cue.default().specs.end_mass == CUE_END_MASS


@pytest.mark.parametrize("a", [-0.5, -0.3, -0.1, 0.0, 0.1, 0.3, 0.5])
def test_squirt_is_pooltools(a: float) -> None:
    assert squirt(a) == pytest.approx(get_squirt_angle(BALL_MASS, CUE_END_MASS, a, 1.0), abs=1e-15)


def test_the_aim_heading_turns_right_with_left_spin() -> None:
    """Left side (+a) squirts the cue ball to the right of the aim: about 1.2 degrees at
    0.3 of a radius, 4 cm a metre and a half away."""
    aim = Aim(direction=90.0, a=0.3)
    turn = aim.heading - aim.direction
    assert -1.4 < turn < -1.0
    assert Aim(direction=90.0, a=-0.3).heading - 90.0 == pytest.approx(-turn)
    assert Aim(direction=90.0).heading == 90.0
    assert math.isclose(math.radians(turn), squirt(0.3))
