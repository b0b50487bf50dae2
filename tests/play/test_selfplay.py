"""The shot picker thinks about the cue ball: a pot that would follow the ball in is
played with other spin or pace, found by simulating the stroke."""

from __future__ import annotations

import attrs
import pytest

from rules import CUE
from sim.physics.simulate import CueAction, aim_towards, simulate_shot
from sim.physics.table import TABLE_SPECS
from sim.play.picker import keep_the_cue_ball_up

pytestmark = pytest.mark.physics
SPEC = TABLE_SPECS["9ft"]
# The 3 on the diagonal to the top right corner, the cue ball behind it on that line.
STRAIGHT_IN = {CUE: (0.6, 1.87), "3": (1.0, 2.27)}


def test_a_pot_that_would_scratch_is_played_another_way() -> None:
    follow = CueAction(3.0, aim_towards(STRAIGHT_IN[CUE], STRAIGHT_IN["3"]), b=0.5)
    assert CUE not in simulate_shot(SPEC, STRAIGHT_IN, follow).after  # follows it in
    chosen = keep_the_cue_ball_up(SPEC, STRAIGHT_IN, follow, "3")
    outcome = simulate_shot(SPEC, STRAIGHT_IN, chosen)
    assert CUE in outcome.after and "3" not in outcome.after  # still pots the 3
    assert attrs.evolve(chosen, b=follow.b, speed=follow.speed) == follow  # only spin, pace


def test_a_safe_stroke_is_kept_as_it_is() -> None:
    stun = CueAction(2.0, aim_towards(STRAIGHT_IN[CUE], STRAIGHT_IN["3"]), b=0.0)
    assert keep_the_cue_ball_up(SPEC, STRAIGHT_IN, stun, "3") == stun
