"""The break study: how well breaks leave the breaker, measured over many racks.

A break scatters the rack chaotically: the level's small noise on the stroke sends the
balls somewhere else every time, so ten strikes on the rack in front judge a break to
about a tenth either way, and the best of several such means is the luckiest as often
as the best. The breaks a level plays (the game's ``practised_break``) are found here
instead, as a player practises one: each break of a list struck with the level's noise
on many racks, the breaker's side of the kitchen alternating, and the position it
leaves valued by the level's judge. :func:`study` is pure given its seed (the racks'
orders and the noise come from it), so a study can be repeated and extended.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import numpy as np

from rules import GameState, Player
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.simulators.simulator import Simulator
from sim.physics.table import TableSpec
from sim.play.game import Game, GameSetup, Stroke, shot_of
from sim.play.opponent.levels import Level
from sim.play.opponent.search import Thinker
from sim.play.opponent.strokes import FULL_ON_THE_APEX, BreakAim, break_stroke

# A break leaves a likely pot when the judge's chance of the best pot on the ball on,
# for the breaker still at the table, is over this.
LIKELY = 0.7

# A break to study: the cue ball's share of the width off the middle, the tip's height
# (ball radii) and the cue's speed (m/s), as ``strokes.BREAK_CHOICES``; and where it
# hits the rack, when not full on the apex (``strokes.BreakAim``).
Shape = tuple[float, float, float] | tuple[float, float, float, BreakAim]


@attrs.frozen
class BreakFigures:
    """One break's figures over a study: ``strikes`` struck; ``value``, the mean of what
    they left the breaker (the judge's value, about the chance of winning the rack), and
    ``error``, its standard error; ``fouls``; ``kept``, the breaker still at the table
    without a foul; ``likely``, kept with a likely pot (:data:`LIKELY`); ``handed``, no
    foul but the opponent to choose what follows (8-ball's illegal break, EB-5)."""

    shape: Shape
    strikes: int
    value: float
    error: float
    fouls: int
    kept: int
    likely: int
    handed: int


def study(
    game: str,
    table: str,
    level: Level,
    shapes: Sequence[Shape],
    racks: int,
    strikes: int,
    seed: int,
    simulator: Simulator | None = None,
) -> list[BreakFigures]:
    """Each of ``shapes`` struck ``strikes`` times with ``level``'s noise on each of
    ``racks`` racks of ``game`` on ``table`` (seeded by ``seed``), in the order given."""
    if racks < 1 or strikes < 1 or not shapes:
        raise ValueError("a break study needs a rack, a strike and a break")
    simulator = simulator or InProcessSimulator()
    draws = random.Random(f"{seed}:break study")
    values: list[list[float]] = [[] for _ in shapes]
    counts = [[0, 0, 0, 0] for _ in shapes]  # fouls, kept, likely, handed
    for index in range(racks):
        setup = GameSetup(game=game, table=table, players=("A", "B"), seed=draws.getrandbits(63))
        match = Game(setup)
        match.start(Player.A)
        state = match.rack
        assert state is not None
        spec = setup.spec
        rng = np.random.default_rng(draws.getrandbits(63))
        thinker = Thinker(state, spec, level, rng, simulator)
        side = 1.0 if index % 2 else -1.0
        plans = [_planned(state, spec, shape, side) for shape in shapes]
        struck = [
            attrs.evolve(plan, action=level.noise.perturb(plan.action, rng))
            for plan in plans
            for _ in range(strikes)
        ]
        for number, (stroke, shot) in enumerate(zip(struck, thinker.simulate(struck), strict=True)):
            which = number // strikes
            if shot is None:  # the physics refused it: as bad as a foul
                values[which].append(0.0)
                counts[which][0] += 1
                continue
            ruling = state.rule(shot_of(stroke, shot))
            after = state.apply(ruling)
            values[which].append(thinker.judge.value(after, Player.A))
            kept = not ruling.foul and after.shooter is Player.A and after.pending is None
            counts[which][0] += int(ruling.foul)
            pending = after.pending
            if not ruling.foul and pending is not None and pending.chooser is not Player.A:
                counts[which][3] += 1
            if kept:
                counts[which][1] += 1
                if after.outcome() is None:  # not the rack won on the break
                    counts[which][2] += int(thinker.judge.shooter_chance(after) > LIKELY)
    return [
        BreakFigures(
            shape=shape,
            strikes=len(values[which]),
            value=float(np.mean(values[which])),
            error=_standard_error(values[which]),
            fouls=counts[which][0],
            kept=counts[which][1],
            likely=counts[which][2],
            handed=counts[which][3],
        )
        for which, shape in enumerate(shapes)
    ]


def _planned(state: GameState, spec: TableSpec, shape: Shape, side: float) -> Stroke:
    """``shape``'s break from ``side`` of the kitchen."""
    offset, spin, speed, *aim = shape
    return break_stroke(
        state, spec, speed, side, offset=offset, spin=spin, aim=aim[0] if aim else FULL_ON_THE_APEX
    )


def _standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (none for a single strike)."""
    if len(values) < 2:
        return 0.0
    return float(np.std(values, ddof=1) / np.sqrt(len(values)))
