"""Table landmarks as pure functions of the table's size and the ball radius.

The frame is pooltool's (REFERENCE.md, "Conventions"): x across the width, y along the
length, the head cushion nose at y = 0 and the foot cushion nose at y = length. Every
landmark a rule names (head string, kitchen, foot spot, centre spot, long string) is
derived here, once, so the referee and the physics side agree on them.
"""

from __future__ import annotations

import math

import attrs

Point = tuple[float, float]

# REFERENCE.md conventions: a centre within this distance of the head string is *on* it.
HEAD_STRING_EPSILON = 1e-6


def _positive_finite(_instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{attribute.name} must be a positive finite number, got {value!r}")


@attrs.frozen
class TableGeometry:
    """The playing surface, nose to nose, and the ball radius, in metres.

    Defaults are the WPA 9-ft table of REFERENCE.md (1.27 m x 2.54 m, R = 0.028575 m).
    """

    width: float = attrs.field(default=1.27, validator=_positive_finite)
    length: float = attrs.field(default=2.54, validator=_positive_finite)
    ball_radius: float = attrs.field(default=0.028575, validator=_positive_finite)

    def __attrs_post_init__(self) -> None:
        if 2 * self.ball_radius >= min(self.width, self.length):
            raise ValueError("the ball radius does not fit on the table")

    @property
    def ball_diameter(self) -> float:
        return 2 * self.ball_radius

    @property
    def head_string_y(self) -> float:
        """The head string: the line y = length/4."""
        return self.length / 4

    @property
    def head_spot(self) -> Point:
        return (self.width / 2, self.length / 4)

    @property
    def centre_spot(self) -> Point:
        return (self.width / 2, self.length / 2)

    @property
    def foot_spot(self) -> Point:
        return (self.width / 2, 3 * self.length / 4)

    @property
    def long_string(self) -> tuple[Point, Point]:
        """The long string: from the foot spot to the foot rail along x = width/2."""
        return (self.foot_spot, (self.width / 2, self.length))

    def in_kitchen(self, point: Point, epsilon: float = HEAD_STRING_EPSILON) -> bool:
        """Behind the head string: y < length/4 - epsilon. A ball on the string is not."""
        return point[1] < self.head_string_y - epsilon

    def on_bed(self, point: Point) -> bool:
        """The ball lies wholly on the bed: R <= x <= W - R and R <= y <= L - R (GEN-5)."""
        x, y = point
        r = self.ball_radius
        return r <= x <= self.width - r and r <= y <= self.length - r

    def kitchen_contains(self, point: Point, epsilon: float = HEAD_STRING_EPSILON) -> bool:
        """A legal cue-ball-in-hand spot in the kitchen, ignoring other balls (GEN-5)."""
        return self.on_bed(point) and self.in_kitchen(point, epsilon)


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def wrapped_degrees(angle: float) -> float:
    """``angle`` in degrees brought into [-180, 180): the short way round, so the
    difference of two headings says which way, and how far, one turns to the other."""
    return (angle + 180.0) % 360.0 - 180.0
