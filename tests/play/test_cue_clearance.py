"""The cue rises over the balls behind the cue ball (sim.play.geometry.cueclearance): the stroke is
played with the least elevation that clears them, and a clear aim keeps the player's."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rules import CUE, Player
from rules.geometry import Point
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.play.geometry.cueclearance import STEP, blocking_ball, clearance
from tests.play.test_controller import new_controller, worker  # noqa: F401

R = 0.028575
CUE_AT: Point = (0.6, 1.0)


def behind(distance: float, side: float = 0.0) -> Point:
    """A point ``distance`` behind the cue ball aimed up the table (+y), ``side`` to its
    right."""
    return (CUE_AT[0] + side, CUE_AT[1] - distance)


def test_a_clear_aim_keeps_the_players_elevation() -> None:
    balls = {CUE: CUE_AT, "1": (0.6, 1.5), "2": behind(0.3, side=0.1)}
    assert clearance(CUE_AT, 90.0, 0.0, 0.0, 7.0, balls, R).over is None
    assert clearance(CUE_AT, 90.0, 0.0, 0.0, 7.0, balls, R).elevation == 7.0


def test_a_ball_frozen_behind_raises_the_cue_steeply() -> None:
    balls = {CUE: CUE_AT, "3": behind(2 * R)}
    raised = clearance(CUE_AT, 90.0, 0.0, 0.0, 0.0, balls, R)
    assert raised.over == "3"
    # Over a touching ball the axis must pass its centre at R + the tip's radius: about
    # 38 degrees, and not a step more than needed.
    assert 30.0 < raised.elevation < 45.0
    lower = raised.elevation - STEP
    assert blocking_ball(CUE_AT, 90.0, 0.0, 0.0, lower, balls, R) == "3"
    assert blocking_ball(CUE_AT, 90.0, 0.0, 0.0, raised.elevation, balls, R) is None


def test_a_far_ball_needs_only_a_little_rise() -> None:
    near = clearance(CUE_AT, 90.0, 0.0, 0.0, 0.0, {CUE: CUE_AT, "5": behind(0.2)}, R)
    far = clearance(CUE_AT, 90.0, 0.0, 0.0, 0.0, {CUE: CUE_AT, "5": behind(0.8)}, R)
    assert near.over == far.over == "5"
    assert 0.0 < far.elevation < near.elevation


def test_the_nearest_blocking_ball_is_named() -> None:
    balls = {CUE: CUE_AT, "7": behind(0.6), "4": behind(0.25)}
    assert clearance(CUE_AT, 90.0, 0.0, 0.0, 0.0, balls, R).over == "4"


def test_the_tip_offset_moves_the_stick_sideways() -> None:
    """A ball just beside the stick's line is missed at centre ball and hit with side on
    that side (+a is left of the aim)."""
    left = (CUE_AT[0] - 1.5 * R, CUE_AT[1] - 0.3)  # aim +y: left is -x
    balls = {CUE: CUE_AT, "6": left}
    assert blocking_ball(CUE_AT, 90.0, 0.0, 0.0, 0.0, balls, R) is None
    assert blocking_ball(CUE_AT, 90.0, 0.5, 0.0, 0.0, balls, R) == "6"
    assert blocking_ball(CUE_AT, 90.0, -0.5, 0.0, 0.0, balls, R) is None


def test_any_direction() -> None:
    for direction in (0.0, 37.0, 180.0, 271.0):
        back = math.radians(direction + 180.0)
        ball = (CUE_AT[0] + 0.4 * math.cos(back), CUE_AT[1] + 0.4 * math.sin(back))
        got = clearance(CUE_AT, direction, 0.0, 0.0, 0.0, {CUE: CUE_AT, "2": ball}, R)
        assert got.over == "2" and got.elevation > 0.0


@pytest.mark.physics
def test_the_stroke_is_played_with_the_raised_cue(
    worker: InProcessSimulator,  # noqa: F811
    tmp_path: Path,
) -> None:
    controller, _ = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    state = controller.state
    assert state is not None
    controller.confirm_placement()
    cue = controller.cue_ball()
    assert cue is not None
    # Aim away from the rack: the rack lies behind the cue ball, and the cue rises.
    controller.aim_at((cue[0], cue[1] - 0.5))
    raised = controller.cue_clearance()
    assert raised.over is not None and raised.elevation > controller.aim.elevation
    assert controller.stroke().action.elevation == raised.elevation
    controller.aim_at(state.balls[state.lowest or "1"])
    assert controller.cue_clearance().over is None
    assert controller.stroke().action.elevation == controller.aim.elevation
