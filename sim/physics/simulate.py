"""The one place that runs pooltool: ball positions and a cue action in, a simulated shot
out (pooltool's system for replay, resting positions, shot facts).

pooltool 0.6.0 traps handled here (docs: pooltool-notes):

- balls exactly touching a cushion tunnel through it, and touching balls collide at t=0,
  so every placement keeps :data:`PLACEMENT_GAP` from cushions and other balls, moving a
  ball by at most :data:`PLACEMENT_TOLERANCE` to get it (a "frozen" ball stays frozen to
  the eye); anything further in is refused;
- ``strike()`` keeps earlier values and a^2 + b^2 > 1 gives NaN, so every strike
  parameter is validated and passed;
- the default engine reads a user-editable file, so the engine is built in code;
- a ball found off the bed after the shot becomes an ``off-table`` fact, never lost.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, TypeAlias

import attrs
import numpy as np

from rules.facts import BALL_IDS, CUE, BallId, OffTable, ShotFacts, balls_gone
from rules.geometry import Point, TableGeometry
from rules.positions import ball_number
from sim.numerics import Arithmetic, here
from sim.physics.facts import shot_facts
from sim.physics.patches import speedups
from sim.physics.pooltool_setup import physics_engine, pt
from sim.physics.table import (
    Box,
    TableSpec,
    cushion_boxes,
    in_pocket_mouth,
    length2,
    may_be_within,
    nearest_cushion,
    within_rails,
)

PLACEMENT_GAP = 1e-4  # metres kept between a placed ball and any ball or cushion
# The deepest overlap eased apart rather than refused: well above the referee's own
# "touching" tolerance (contact_epsilon, 0.1 mm), so every position the rules produce
# (a spot frozen to a ball, a cue ball placed against one) can be played.
PLACEMENT_TOLERANCE = 1e-3
# Rounds of easing apart before a position is refused. Balls at rest wedged in a pocket's
# jaws (the cue ball and the 9 in a corner after a soft safety, 10-ball seed 3000, rack
# 17 at levels 3 and 2) are pushed by each other into the jaws and back by the jaws, each
# round a little way out of the funnel: 100 rounds were too few for 1.1 mm, and the game
# could not go on from where the physics had left its balls. Positions that settled
# within 100 rounds settle as before, to the bit.
SETTLE_ROUNDS = 2000
MAX_SPEED = 10.0  # m/s of the cue stick: a pro break is about 8 (cue ball ~ 1.5x that)
MAX_ELEVATION = 89.0  # degrees; 90 would be a vertical cue
MISCUE_LIMIT = 0.5  # tip offset, in ball radii, beyond which the tip slips off the ball
EVENT_WATCHDOG = 50_000  # a shot with more events than this is stopped (never seen: ~1,800)
# pooltool's ball and cue-end masses, for squirt (:func:`squirt`).
BALL_MASS = 0.170097  # kg
CUE_END_MASS = 0.0056699  # kg: the shaft's end


def squirt(a: float) -> float:
    """The cue ball's line off the aim for side spin ``a`` (ball radii, + left of
    centre: pooltool's), in radians, + to the left: left spin squirts it right.
    pooltool's ``get_squirt_angle`` (Alciatore's TP A-31) in plain Python, so the aiming
    aid draws, and the computer's forecast foretells, the line the physics plays."""
    rest = 1 - a * a
    return -math.atan2(2.5 * a * math.sqrt(rest), 1 + BALL_MASS / CUE_END_MASS + 2.5 * rest)


class PlacementError(ValueError):
    """Ball positions that cannot be put on the table."""


def clear_of_cushions(geometry: TableGeometry, point: Point) -> bool:
    """A ball at ``point`` keeps twice :data:`PLACEMENT_GAP` from every cushion nose, so
    :func:`settle_positions` need not move it: for a spot a player chooses (where the
    rules allow one frozen to a cushion, GEN-5)."""
    margin = geometry.ball_radius + 2 * PLACEMENT_GAP
    x, y = point
    return margin <= x <= geometry.width - margin and margin <= y <= geometry.length - margin


def _finite(name: str) -> attrs._ValidatorType[float]:
    def check(_instance: object, _attribute: object, value: float) -> None:
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value!r}")

    return check


@attrs.frozen
class CueAction:
    """How the cue strikes the cue ball (pooltool's ``V0, phi, theta, a, b``).

    speed: cue-stick speed in m/s (the cue ball leaves at about 1.5x for a centre hit);
    aim: direction in degrees, 0 = +x (toward the right rail), 90 = +y (toward the foot);
    elevation: cue elevation in degrees (0 = level; raised for massé);
    a: horizontal tip offset in ball radii, + is the left side of the ball as the shooter
       sees it (pooltool's convention);
    b: vertical tip offset in ball radii, + is follow (top), - is draw (bottom).
    """

    speed: float = attrs.field(validator=_finite("speed"))
    aim: float = attrs.field(validator=_finite("aim"))
    elevation: float = attrs.field(default=0.0, validator=_finite("elevation"))
    a: float = attrs.field(default=0.0, validator=_finite("a"))
    b: float = attrs.field(default=0.0, validator=_finite("b"))

    def __attrs_post_init__(self) -> None:
        if not 0 < self.speed <= MAX_SPEED:
            raise ValueError(f"speed must be in (0, {MAX_SPEED:g}] m/s, got {self.speed:g}")
        if not 0 <= self.elevation <= MAX_ELEVATION:
            raise ValueError(
                f"elevation must be in [0, {MAX_ELEVATION:g}] degrees, got {self.elevation:g}"
            )
        if math.hypot(self.a, self.b) > MISCUE_LIMIT:
            raise ValueError(
                f"tip offset ({self.a:g}, {self.b:g}) is past the miscue limit: "
                f"a^2 + b^2 must be at most {MISCUE_LIMIT:g}^2"
            )


if TYPE_CHECKING:
    # pooltool's simulated system, by a name modules outside sim.physics can hold it by
    # (they may not touch pooltool), in annotations: naming it does not import pooltool.
    System: TypeAlias = pt.System


@attrs.frozen(eq=False)
class SimulatedShot:
    """One simulated shot."""

    system: System  # pooltool's simulated system: events and every ball's history
    before: dict[BallId, Point]  # the positions simulated (after any gap nudges)
    after: dict[BallId, Point]  # resting positions of the balls still on the table
    facts: ShotFacts
    stopped_early: bool  # the event watchdog ended the shot (never seen in practice)
    physics_seconds: float  # wall time of pooltool's simulation (0 when read from a file)
    facts_seconds: float  # wall time of turning its events into facts
    # The system as pooltool's msgpack bytes, when the shot was rebuilt from them (the
    # physics worker's reply, a game file's member): a save writes them as they are
    # rather than packing the same system again. None for a shot simulated here.
    packed: bytes | None = None
    # The arithmetic it was simulated with (sim.numerics): this process's for a shot
    # simulated on this machine, a file's for one read from it (None: the file is older
    # than the record of it).
    arithmetic: Arithmetic | None = attrs.field(factory=here)

    @property
    def resting(self) -> dict[BallId, Point]:
        """The balls left at rest on the table: ``after`` less any ball the facts say
        went down or off the table (what the referee is given as the balls at rest)."""
        gone = balls_gone(self.facts)
        return {ball: at for ball, at in self.after.items() if ball not in gone}


@cache
def engine() -> pt.physics.engine.PhysicsEngine:
    """The engine every shot is simulated with: pooltool's default models, with
    :mod:`sim.physics.patches.speedups` in place."""
    speedups.install()  # the same bits, a third sooner
    return physics_engine()


@cache
def _ball_parts() -> tuple[pt.objects.BallParams, pt.objects.BallSet, pt.objects.BallOrientation]:
    """Every ball's parameters (before its radius), ball set and orientation."""
    return (
        pt.objects.BallParams.default(),
        pt.objects.get_ballset("pooltool_pocket"),
        pt.objects.BallOrientation(pos=(1.0, 0.0, 0.0, 0.0), sphere=(1.0, 0.0, 0.0, 0.0)),
    )


def settle_positions(
    spec: TableSpec, positions: Mapping[BallId, Point], table: pt.Table | None = None
) -> dict[BallId, Point]:
    """Positions the physics can take: every ball at least :data:`PLACEMENT_GAP` from the
    others and from every cushion, moving balls by up to :data:`PLACEMENT_TOLERANCE`.

    Raises PlacementError for unknown ids, non-finite coordinates, a ball off the bed or in
    a pocket mouth, or balls overlapping (a ball or a cushion) by more than the tolerance.
    """
    table, boxes = (table, cushion_boxes(table)) if table is not None else _checking_table(spec)
    geometry = spec.geometry
    radius = geometry.ball_radius
    # Beyond these, a ball certainly clears another ball or every cushion: the exact
    # (and slower) distances below are skipped, with the same result to the last bit
    # (1e-9 m is far above their rounding).
    ball_reach = 2 * radius + PLACEMENT_GAP + 1e-9
    cushion_reach = radius + PLACEMENT_GAP + 1e-9
    placed: dict[BallId, np.ndarray] = {}
    for ball_id in sorted(positions, key=_checked_order):
        x, y = positions[ball_id]
        if not (math.isfinite(x) and math.isfinite(y)):
            raise PlacementError(f"ball {ball_id}: position ({x}, {y}) is not finite")
        if not within_rails(geometry, (x, y)):
            raise PlacementError(f"ball {ball_id}: ({x:.4f}, {y:.4f}) is off the table")
        if (pocket := in_pocket_mouth(table, (x, y))) is not None:
            raise PlacementError(f"ball {ball_id}: ({x:.4f}, {y:.4f}) is over pocket {pocket}")
        placed[ball_id] = np.array([x, y], dtype=float)

    ids = list(placed)
    for _ in range(SETTLE_ROUNDS):
        moved = False
        for i, first in enumerate(ids):
            for second in ids[i + 1 :]:
                offset = placed[second] - placed[first]
                if abs(offset[0]) > ball_reach or abs(offset[1]) > ball_reach:
                    continue
                dist = length2(offset)
                short = 2 * radius + PLACEMENT_GAP - dist
                if short <= 0:
                    continue
                if 2 * radius - dist > PLACEMENT_TOLERANCE:
                    raise PlacementError(
                        f"balls {first} and {second} overlap by {(2 * radius - dist) * 1e3:.2f} mm"
                    )
                direction = offset / dist if dist > 0 else np.array([1.0, 0.0])
                push = direction * (short / 2 + 1e-9)
                placed[first] -= push
                placed[second] += push
                moved = True
            if not may_be_within(boxes, _point(placed[first]), cushion_reach):
                continue
            clearance, away = nearest_cushion(table, _point(placed[first]))
            short = radius + PLACEMENT_GAP - clearance
            if short > 0:
                if radius - clearance > PLACEMENT_TOLERANCE:
                    raise PlacementError(
                        f"ball {first} overlaps a cushion by {(radius - clearance) * 1e3:.2f} mm"
                    )
                placed[first] += np.asarray(away) * (short + 1e-9)
                moved = True
        if not moved:
            return {ball_id: _point(xy) for ball_id, xy in placed.items()}
    raise PlacementError("the balls are packed too tightly to keep them apart")


@cache
def _checking_table(spec: TableSpec) -> tuple[pt.Table, tuple[Box, ...]]:
    """A table of ``spec`` that placements only measure (never simulated, so it can be
    shared), and its cushion boxes: building them for every placement checked was most
    of the time of checking it."""
    table = spec.build()
    return table, cushion_boxes(table)


def _checked_order(ball_id: BallId) -> int:
    if ball_id not in BALL_IDS:
        raise PlacementError(f"unknown ball {ball_id!r}")
    return ball_number(ball_id)


def _point(xy: np.ndarray) -> Point:
    return (float(xy[0]), float(xy[1]))


def aim_towards(origin: Point, target: Point) -> float:
    """The aim (pooltool's phi, degrees in [0, 360)) from one point straight at another."""
    return math.degrees(math.atan2(target[1] - origin[1], target[0] - origin[0])) % 360.0


def build_system(
    spec: TableSpec,
    positions: Mapping[BallId, Point],
    table: pt.Table | None = None,
    cue_ball: BallId = CUE,
) -> pt.System:
    """A pooltool system with balls at rest exactly at ``positions`` (not settled here);
    ``cue_ball``: the ball pooltool's cue strikes."""
    table = table if table is not None else spec.build()
    params, ballset, upright = _ball_parts()
    balls = {}
    for ball_id in sorted(positions, key=ball_number):  # cue first: pooltool's pair order
        x, y = positions[ball_id]
        state = pt.objects.BallState(
            rvw=np.array([[x, y, spec.ball_radius], [0, 0, 0], [0, 0, 0]], dtype=float),
            s=pt.constants.stationary,
            t=0.0,
        )
        balls[ball_id] = pt.Ball(
            id=ball_id,
            state=state,
            params=attrs.evolve(params, R=spec.ball_radius),
            ballset=ballset,
            initial_orientation=upright,
        )
    return pt.System(cue=pt.Cue(cue_ball_id=cue_ball), table=table, balls=balls)


def still_system(spec: TableSpec, positions: Mapping[BallId, Point]) -> pt.System:
    """The balls lying still at ``positions``, as a system whose history is that one
    moment: the table shown for a turn with no stroke (the shot clock ran out, GEN-17).
    Not simulated (pooltool's simulation strikes its cue first). With the cue ball in
    hand (not in ``positions``) pooltool's cue names another ball, never struck."""
    cue_ball = CUE if CUE in positions or not positions else min(positions, key=ball_number)
    system = build_system(spec, positions, cue_ball=cue_ball)
    for ball in system.balls.values():
        ball.history.add(ball.state.copy())
    return system


def simulate_shot(
    spec: TableSpec, positions: Mapping[BallId, Point], action: CueAction
) -> SimulatedShot:
    """Simulate one shot from balls at rest. ``positions`` must hold the cue ball."""
    if CUE not in positions:
        raise PlacementError("the cue ball is not on the table")
    table = spec.build()
    system = build_system(spec, settle_positions(spec, positions, table), table)
    system.strike(V0=action.speed, phi=action.aim, theta=action.elevation, a=action.a, b=action.b)
    started = time.perf_counter()
    pt.simulate(system, engine=engine(), inplace=True, max_events=EVENT_WATCHDOG)
    return shot_from_system(spec, system, physics_seconds=time.perf_counter() - started)


def shot_from_system(
    spec: TableSpec,
    system: pt.System,
    *,
    physics_seconds: float = 0.0,
    packed: bytes | None = None,
) -> SimulatedShot:
    """The shot a simulated pooltool system holds: its start, its facts, where it ended
    (also for a system read back from a saved game, or from the physics worker: then
    ``packed``, the bytes ``system`` was read from, is kept with it)."""
    started = time.perf_counter()
    facts = shot_facts(system, spec.geometry)
    facts_seconds = time.perf_counter() - started
    off_table = {fact.ball for fact in facts if isinstance(fact, OffTable)}
    before = {
        ball_id: (float(ball.history[0].rvw[0][0]), float(ball.history[0].rvw[0][1]))
        for ball_id, ball in system.balls.items()
    }
    after = {
        ball_id: (float(ball.state.rvw[0][0]), float(ball.state.rvw[0][1]))
        for ball_id, ball in system.balls.items()
        if ball.state.s != pt.constants.pocketed and ball_id not in off_table
    }
    return SimulatedShot(
        system=system,
        before=before,
        after=after,
        facts=facts,
        stopped_early=len(system.events) >= EVENT_WATCHDOG,
        physics_seconds=physics_seconds,
        facts_seconds=facts_seconds,
        packed=packed,
    )
