"""Tracking lines from a simulated shot (sim.physics.tracking): which ball is the first
object ball, the cue ball's polyline and where each path ends; and the preview's result
looked at without being taken (Simulator.preview_result), so a strike still moves at once."""

from __future__ import annotations

import math

import pytest

from rules.facts import CUE
from rules.geometry import distance
from sim.physics.simulate import CueAction, aim_towards, simulate_shot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.simulators.simulator import ShotRequest
from sim.physics.table import table_spec
from sim.physics.tracking import first_hit, tracking_lines

pytestmark = pytest.mark.physics

SPEC = table_spec()
R = SPEC.ball_radius
# A cut of the 3 towards the foot-right corner with follow; the 1 and the 5 lie off the
# line, the 5 where the 3 may run into it afterwards.
BALLS = {CUE: (0.5, 0.9), "3": (0.85, 1.6), "1": (0.2, 1.9), "5": (1.0, 2.2)}


def cut(balls: dict[str, tuple[float, float]] = BALLS) -> CueAction:
    ghost = (balls["3"][0] - 2 * R * 0.6, balls["3"][1] - 2 * R * 0.8)  # a thin-ish cut
    return CueAction(2.5, aim_towards(balls[CUE], ghost), b=0.3)


def test_the_first_ball_the_cue_ball_hits_is_the_object_ball() -> None:
    shot = simulate_shot(SPEC, BALLS, cut())
    hit = first_hit(shot)
    assert hit is not None and hit.other(CUE) == "3"
    lines = tracking_lines(shot)
    assert lines.object_ball is not None and lines.object_ball.ball == "3"
    assert [p.ball for p in lines.paths] == [CUE, "3"]  # no other ball is drawn


def test_the_cue_balls_polyline_runs_from_its_start_to_where_it_rests() -> None:
    shot = simulate_shot(SPEC, BALLS, cut())
    lines = tracking_lines(shot)
    cue = lines.cue
    assert cue.points[0] == pytest.approx(shot.before[CUE], abs=1e-12)
    assert cue.end == shot.after[CUE] and cue.points[-1] == shot.after[CUE]  # to the bit
    assert not cue.pocketed
    assert len(cue.points) > 10  # a curve after the contact, not a straight stroke
    steps = [distance(a, b) for a, b in zip(cue.points, cue.points[1:], strict=False)]
    assert min(steps) > 0  # only the points where it moved
    # On the bed all along (within the cushions' noses, which a centre never passes).
    assert all(0 < x < SPEC.geometry.width and 0 < y < SPEC.geometry.length for x, y in cue.points)
    # The first leg is the stroke's line: straight towards the ghost ball.
    heading = math.degrees(
        math.atan2(cue.points[1][1] - cue.points[0][1], cue.points[1][0] - cue.points[0][0])
    )
    assert heading == pytest.approx(cut().aim, abs=1e-6)


def test_the_contact_is_where_the_cue_ball_touches_the_object_ball() -> None:
    shot = simulate_shot(SPEC, BALLS, cut())
    lines = tracking_lines(shot)
    assert lines.contact is not None
    assert distance(lines.contact, shot.before["3"]) == pytest.approx(2 * R, abs=1e-4)
    assert lines.contact in lines.cue.points  # an event: a corner of the polyline


def test_a_pocketed_object_ball_ends_at_its_last_place_on_the_bed() -> None:
    # A straight-in 1 into the foot-right corner.
    corner = (SPEC.geometry.width, SPEC.geometry.length)
    one = (corner[0] - 0.3, corner[1] - 0.3)
    balls = {CUE: (one[0] - 0.5, one[1] - 0.5), "1": one}
    shot = simulate_shot(SPEC, balls, CueAction(2.0, aim_towards(balls[CUE], one)))
    assert "1" not in shot.after  # it dropped
    lines = tracking_lines(shot)
    assert lines.object_ball is not None and lines.object_ball.pocketed
    assert lines.object_ball.end == lines.object_ball.points[-1]
    assert distance(lines.object_ball.end, corner) < 0.15  # at the pocket's mouth


def test_a_stroke_that_hits_no_ball_has_only_the_cue_balls_path() -> None:
    balls = {CUE: (0.5, 0.9), "1": (1.0, 2.2)}
    shot = simulate_shot(SPEC, balls, CueAction(1.5, 180.0))  # away to the side rail
    lines = tracking_lines(shot)
    assert lines.object_ball is None and lines.contact is None
    assert lines.paths == (lines.cue,) and lines.cue.end == shot.after[CUE]


def test_the_newest_preview_is_looked_at_and_still_struck_at_once() -> None:
    simulator = InProcessSimulator()
    request = ShotRequest.of("9ft", BALLS, cut())
    assert simulator.preview_result() is None  # none asked
    simulator.preview(request)
    assert simulator.preview_result() is None  # not back before a poll
    simulator.poll()
    looked = simulator.preview_result()
    assert looked is not None and looked.request == request
    assert simulator.preview_result() is looked  # looked at, not taken
    job = simulator.shoot(request)
    assert simulator.preview_result() is None  # struck: no longer a preview
    assert simulator.result(job) is looked  # the strike found it there: no simulation
    simulator.preview(ShotRequest.of("9ft", BALLS, CueAction(1.0, 0.0)))
    assert simulator.preview_result() is None  # a newer aim: the old one is not it
