"""The cue rises over the balls behind the cue ball, as a player's does.

A stick held level behind a cue ball with another ball just behind it would pass through
that ball; a player raises the butt until the shaft clears it, and the stroke is then
played with that elevation (a raised cue puts a little swerve on the ball). So the
stroke's elevation is the player's own, or the least that clears every ball within the
stick's length, whichever is higher; and the table says which ball the cue rose over.

The stick is a cone along its axis: the tip's radius at the tip, the butt's at the far
end (a standard 58-inch cue). Its axis starts behind the cue ball's centre, offset by the
tip position, and rises at the elevation; a ball is in the way when its centre is closer
to that axis than its radius and the stick's radius there. Pure geometry: no pooltool.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import attrs

from rules import CUE, BallId
from rules.geometry import Point

STICK_LENGTH = 1.47  # metres, tip to butt (58 inches)
TIP_RADIUS = 0.0065  # a 13 mm tip
BUTT_RADIUS = 0.015  # a 30 mm butt
TIP_GAP = 0.012  # the tip rests this far behind the cue ball while aiming
STEP = 0.5  # degrees: the elevation rises in these steps until the stick clears
MAX_AIM_ELEVATION = 60.0  # the most a player may raise the cue at the table


@attrs.frozen
class Clearance:
    """The elevation the stroke is played with, and the ball the cue rose over (None when
    the player's own elevation clears everything)."""

    elevation: float
    over: BallId | None = None


def blocking_ball(
    cue: Point,
    direction: float,
    a: float,
    b: float,
    elevation: float,
    balls: Mapping[BallId, Point],
    radius: float,
) -> BallId | None:
    """The nearest ball the stick would pass through at this aim, or None.

    ``direction`` is the aim in degrees, ``a`` and ``b`` the tip offsets in ball radii (+a
    left of centre, as pooltool's), ``elevation`` in degrees, ``radius`` the balls'.
    """
    back_x, back_y = -math.cos(math.radians(direction)), -math.sin(math.radians(direction))
    theta = math.radians(elevation)
    cos_t, sin_t = math.cos(theta), math.sin(theta)
    # The axis passes, at the cue ball, a*R to the side (left of the aim: +a) and b*R up.
    left_x, left_y = back_y, -back_x  # left of the aim, looking along it
    start_u = radius + TIP_GAP
    nearest: tuple[float, BallId] | None = None
    for ball, (x, y) in balls.items():
        if ball == CUE:
            continue
        rx, ry = x - cue[0], y - cue[1]
        behind = rx * back_x + ry * back_y  # horizontal distance back along the stick
        if behind <= 0:
            continue
        side = rx * left_x + ry * left_y - a * radius
        # In the stick's vertical plane, with the axis through (0, b*R) rising at theta:
        # the ball's centre (behind, 0) lies `along` up the axis and `off` from it.
        height = -b * radius
        along = behind * cos_t + height * sin_t
        off = behind * sin_t - height * cos_t
        if not start_u <= along <= start_u + STICK_LENGTH:
            continue
        stick = TIP_RADIUS + (BUTT_RADIUS - TIP_RADIUS) * (along - start_u) / STICK_LENGTH
        if math.hypot(side, off) < radius + stick and (nearest is None or behind < nearest[0]):
            nearest = (behind, ball)
    return None if nearest is None else nearest[1]


def clearance(
    cue: Point,
    direction: float,
    a: float,
    b: float,
    elevation: float,
    balls: Mapping[BallId, Point],
    radius: float,
) -> Clearance:
    """The least elevation from ``elevation`` up that clears every ball behind the cue
    ball, in :data:`STEP` degrees; the player's own when nothing is in the way."""
    over = blocking_ball(cue, direction, a, b, elevation, balls, radius)
    if over is None:
        return Clearance(elevation)
    raised = math.floor(elevation / STEP) * STEP
    while raised < MAX_AIM_ELEVATION:
        raised = min(MAX_AIM_ELEVATION, raised + STEP)
        if blocking_ball(cue, direction, a, b, raised, balls, radius) is None:
            break
    return Clearance(raised, over)
