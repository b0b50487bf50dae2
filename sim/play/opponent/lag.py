"""The computer's lag (GEN-2): a plain stroke straight up the table at a lag's pace, with
the level's noise. No search: a lag has one aim, and its pace is the player's touch.

Pure and seeded, as every decision of the computer is: the same seat, level and seed
make the same stroke, so a game file's lag is made again by ``poolsim verify
--decisions`` from the :class:`~sim.play.game.ComputerPlayer` its record keeps.
"""

from __future__ import annotations

from rules import Player
from sim.physics.simulate import CueAction
from sim.play.game import ComputerPlayer
from sim.play.opponent.levels import level_named

# On a 9-ft table, from the lag spot: back to about 0.15 m from the head rail. The B
# seat a touch softer, so two perfect players never tie a lag for ever.
LAG_SPEED = {Player.A: 1.30, Player.B: 1.29}


def lag_stroke(seat: Player, computer: ComputerPlayer) -> CueAction:
    """The lag stroke of the computer in ``seat`` (A's ball on the left, B's on the right:
    both go straight up the table), struck with its level's noise from its seed."""
    rng = computer.generator()
    stroke = CueAction(speed=LAG_SPEED[seat], aim=90.0)
    return level_named(computer.level).noise.perturb(stroke, rng)
