"""The pot geometry: ghost-ball pots and combinations from a position, clear paths, the
lines a ball banks off, and a pot's cut and distance. Plain geometry on the table's
plan, with no simulation: the built-in shot picker (:mod:`sim.play.picker`) and the
computer opponent (:mod:`sim.play.opponent`) choose their shots with it, and the players'
figures (:mod:`sim.play.figures`) measure the shots played with it (a pot attempted's
cut and distance, a safety that left no shot).

A pot of a ball into a pocket: the cue ball's centre must reach the ghost ball, the
point 2R behind the object ball on the line from the pocket, along a path clear of the
other balls, and the object ball's path to the pocket's mouth must be clear too. A ball
already past the mouth, hanging in the jaws, is sent at the pocket's centre
(:func:`_drop_point`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType

import attrs

from rules import CUE, BallId, PocketId
from rules.geometry import Point, TableGeometry, distance
from sim.physics.table import TableSpec, pocket_centres, pocket_mouths

MAX_CUT = 70.0  # degrees: thinner cuts are left alone
THROW_DEGREES = 0.8  # cut-induced throw at a half-ball hit, stunned, at moderate speed
SIDE_POCKET_MAX_ANGLE = 45.0  # degrees off straight into a side pocket
COMBO_MAX_CUT = 35.0  # degrees: a combination's two cuts at most this
# Metres: a ball on a rail is potted along it, the cue ball's centre a radius off the
# rail, though the line to the mouth (a little in from the rail) puts the ghost ball
# up to this far past that line; it is moved back onto the bed.
RAIL_SLACK = 0.005


@attrs.frozen
class Pot:
    """A pot of ``ball`` into ``pocket``: where the cue ball must go and how hard it is.
    ``first``: the ball the cue ball meets, ``ball`` itself unless it is a combination.
    ``carry``: how far the object balls must roll, each leg stretched by its cut.
    ``mouth``: where the object ball is sent (:func:`_drop_point`)."""

    ball: BallId
    pocket: PocketId
    ghost: Point
    cut: float  # degrees, of the cue ball's hit
    difficulty: float  # lower is easier
    carry: float
    mouth: Point
    first: BallId = attrs.field(default=attrs.Factory(lambda self: self.ball, takes_self=True))


def unit(a: Point, b: Point) -> tuple[float, float]:
    """The unit vector from ``a`` towards ``b`` (none for the same point)."""
    d = distance(a, b)
    return ((b[0] - a[0]) / d, (b[1] - a[1]) / d) if d > 0 else (0.0, 0.0)


def path_clear(a: Point, b: Point, balls: Iterable[Point], clearance: float) -> bool:
    """No ball centre within ``clearance`` of the segment a-b."""
    ux, uy = b[0] - a[0], b[1] - a[1]
    length2 = ux * ux + uy * uy
    for p in balls:
        u = (
            0.0
            if length2 == 0
            else max(0.0, min(1.0, ((p[0] - a[0]) * ux + (p[1] - a[1]) * uy) / length2))
        )
        if distance(p, (a[0] + u * ux, a[1] + u * uy)) < clearance:
            return False
    return True


def rail_lines(geometry: TableGeometry) -> tuple[tuple[int, float], ...]:
    """The four lines a ball's centre bounces off, a radius in from each cushion: (the
    axis it is across, where on that axis)."""
    radius = geometry.ball_radius
    return (
        (0, radius),
        (0, geometry.width - radius),
        (1, radius),
        (1, geometry.length - radius),
    )


def one_rail(start: Point, target: Point, axis: int, line: float) -> tuple[Point, Point] | None:
    """A path from ``start`` off the rail line ``line`` (across ``axis``) to ``target``:
    ``target`` mirrored in the line, and where the straight path to that image meets
    the line; None when the path does not cross the line between them."""
    mirrored = list(target)
    mirrored[axis] = 2 * line - target[axis]
    image = (mirrored[0], mirrored[1])
    if image[axis] == start[axis]:
        return None
    share = (line - start[axis]) / (image[axis] - start[axis])
    if not 0 < share < 1:
        return None
    bounce = (start[0] + share * (image[0] - start[0]), start[1] + share * (image[1] - start[1]))
    return image, bounce


def two_rail(
    start: Point, target: Point, first: tuple[int, float], second: tuple[int, float]
) -> tuple[Point, Point, Point] | None:
    """A path from ``start`` off the rail line ``first``, then ``second`` (each (axis,
    where), as :func:`rail_lines` gives them), to ``target``: ``target`` mirrored in
    the second line and that image in the first, and the two points where the path
    meets the lines; None when it does not meet them in that order."""
    (axis1, line1), (axis2, line2) = first, second
    mirrored = list(target)
    mirrored[axis2] = 2 * line2 - target[axis2]
    leg = one_rail(start, (mirrored[0], mirrored[1]), axis1, line1)
    if leg is None:
        return None
    image, bounce1 = leg
    back = one_rail(bounce1, target, axis2, line2)
    if back is None:
        return None
    return image, bounce1, back[1]


def angle(u: tuple[float, float], v: tuple[float, float]) -> float:
    """Degrees between two unit vectors."""
    return math.degrees(math.acos(max(-1.0, min(1.0, u[0] * v[0] + u[1] * v[1]))))


def _side_pocket_refuses(pocket: PocketId, to_pocket: tuple[float, float]) -> bool:
    """A side pocket takes only balls coming at it."""
    if not pocket.value.endswith("c"):
        return False
    return math.degrees(math.acos(min(1.0, abs(to_pocket[0])))) > SIDE_POCKET_MAX_ANGLE


def _behind(ball: Point, direction: tuple[float, float], diameter: float) -> Point:
    """Where a ball's centre must be to send ``ball`` along ``direction``: 2R behind it."""
    return (ball[0] - diameter * direction[0], ball[1] - diameter * direction[1])


@functools.cache  # a spec is frozen; pots() runs thousands of times a decision
def _pockets(spec: TableSpec) -> Mapping[PocketId, tuple[Point, Point, float]]:
    """Each pocket's mouth's middle, its centre, and how far the one is from the other."""
    mouths, centres = pocket_mouths(spec), pocket_centres(spec)
    return MappingProxyType(
        {
            pocket: (mouths[pocket], centres[pocket], distance(mouths[pocket], centres[pocket]))
            for pocket in PocketId
        }
    )


def _drop_point(mouth: Point, centre: Point, reach: float, ball: Point) -> Point:
    """Where ``ball`` is sent to drop in a pocket (its ``mouth``'s middle, its
    ``centre``, ``reach`` apart): the mouth, or for a ball already past it (nearer the
    centre than the mouth is: hanging in the jaws) the centre, since a line to the mouth
    would lead it back out onto the bed and no hanger would ever be seen as a pot."""
    return centre if distance(ball, centre) < reach else mouth


def _onto_bed(point: Point, geometry: TableGeometry) -> Point | None:
    """``point`` if a ball there lies on the bed; moved onto it if it lies less than
    :data:`RAIL_SLACK` past the rail line; otherwise None."""
    if geometry.on_bed(point):
        return point
    r = geometry.ball_radius
    x = min(max(point[0], r), geometry.width - r)
    y = min(max(point[1], r), geometry.length - r)
    return (x, y) if distance(point, (x, y)) <= RAIL_SLACK else None


def pots(balls: Mapping[BallId, Point], cue: Point, target: BallId, spec: TableSpec) -> list[Pot]:
    """Every makeable pot of ``target`` from ``cue``, easiest first."""
    geometry = spec.geometry
    diameter = geometry.ball_diameter
    ball = balls[target]
    others = [p for b, p in balls.items() if b not in (target, CUE)]
    found = []
    for pocket, (middle, centre, reach) in _pockets(spec).items():
        mouth = _drop_point(middle, centre, reach, ball)
        to_pocket = unit(ball, mouth)
        if _side_pocket_refuses(pocket, to_pocket):
            continue
        to_ghost = unit(cue, _behind(ball, to_pocket, diameter))
        cut = angle(to_ghost, to_pocket)
        if cut > MAX_CUT:
            continue
        # Throw: friction at contact drags the object ball a little along the cue ball's
        # path (about a degree at half-ball cuts), so overcut by as much: turn the object
        # ball's line away from the cue ball's path before placing the ghost ball.
        side = math.copysign(1.0, to_pocket[0] * to_ghost[1] - to_pocket[1] * to_ghost[0])
        turn = math.radians(THROW_DEGREES * math.sin(math.radians(2 * cut))) * side
        line = (
            to_pocket[0] * math.cos(turn) - to_pocket[1] * math.sin(turn),
            to_pocket[0] * math.sin(turn) + to_pocket[1] * math.cos(turn),
        )
        ghost = _onto_bed(_behind(ball, line, diameter), geometry)
        if ghost is None:
            continue
        if not path_clear(cue, ghost, others, diameter) or not path_clear(
            ball, mouth, others, diameter
        ):
            continue
        travel = distance(cue, ghost) + distance(ball, mouth)
        difficulty = travel / max(math.cos(math.radians(cut)), 0.2) + cut / 30
        carry = distance(ball, mouth) / max(math.cos(math.radians(cut)), 0.3)
        found.append(Pot(target, pocket, ghost, cut, difficulty, carry, mouth))
    return sorted(found, key=lambda pot: pot.difficulty)


def combinations(
    balls: Mapping[BallId, Point], cue: Point, first: BallId, target: BallId, spec: TableSpec
) -> list[Pot]:
    """Every makeable combination from ``cue``: the cue ball sends ``first`` into
    ``target`` and ``target`` into a pocket, each cut at most :data:`COMBO_MAX_CUT` and
    every path clear; easiest first. Harder than a plain pot of the same length: the
    two cuts multiply the error."""
    geometry = spec.geometry
    diameter = geometry.ball_diameter
    start, ball = balls[first], balls[target]
    others = [p for b, p in balls.items() if b not in (first, target, CUE)]
    found = []
    for pocket, (middle, centre, reach) in _pockets(spec).items():
        mouth = _drop_point(middle, centre, reach, ball)
        to_pocket = unit(ball, mouth)
        if _side_pocket_refuses(pocket, to_pocket):
            continue
        contact = _behind(ball, to_pocket, diameter)  # where ``first`` meets ``target``
        carried = unit(start, contact)
        ghost = _behind(start, carried, diameter)
        second_cut = angle(carried, to_pocket)
        cut = angle(unit(cue, ghost), carried)
        if max(cut, second_cut) > COMBO_MAX_CUT or distance(start, contact) < diameter:
            continue
        if not (geometry.on_bed(contact) and geometry.on_bed(ghost)):
            continue
        if not (
            path_clear(cue, ghost, [*others, ball], diameter)
            and path_clear(start, contact, others, diameter)
            and path_clear(ball, mouth, [*others, start], diameter)
        ):
            continue
        cosines = math.cos(math.radians(cut)) * math.cos(math.radians(second_cut))
        travel = distance(cue, ghost) + distance(start, contact) + distance(ball, mouth)
        difficulty = travel / max(cosines, 0.2) + (cut + second_cut) / 15 + 1.0
        carry = distance(start, contact) / max(math.cos(math.radians(cut)), 0.3) + distance(
            ball, mouth
        ) / max(cosines, 0.3)
        found.append(Pot(target, pocket, ghost, cut, difficulty, carry, mouth, first=first))
    return sorted(found, key=lambda pot: pot.difficulty)


def cut_and_distance(cue: Point, ball: Point, mouth: Point, radius: float) -> tuple[float, float]:
    """The cut angle (degrees) and the distance (metres) of potting the ball at ``ball``
    into the mouth ``mouth`` from ``cue``: the angle between the cue ball's path to the
    ghost ball and the object ball's to the mouth, and the length of the two paths."""
    to_pocket = unit(ball, mouth)
    ghost = _behind(ball, to_pocket, 2 * radius)
    return angle(unit(cue, ghost), to_pocket), distance(cue, ghost) + distance(ball, mouth)
