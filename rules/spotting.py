"""Spotting balls on the long string (GEN-4, ROT-12, ROT-13; B-9, B-21).

Pure functions of the table, the balls already on the table and the options. The search
works on the line x = W/2: every ball near it blocks an open interval of y; the nearest
free point in a direction is then either the start point or an end of a blocked interval,
so trying those few candidates in order finds it exactly, frozen (at exactly 2R, or
2R + ``cue_ball_spot_gap`` from the cue ball, GEN-4(c)) to whatever blocks it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping

import attrs

from rules.facts import CUE, BallId
from rules.geometry import Point, TableGeometry
from rules.options import Options
from rules.positions import by_number


class SpottingError(RuntimeError):
    """No free point on the whole long string and its extension (cannot happen with at
    most 16 balls on a real table; raised rather than overlapping balls)."""


def _reach(ball: BallId, table: TableGeometry, options: Options) -> float:
    """How close a spotted ball's centre may come to ``ball``'s: frozen to an object ball,
    a small gap to a cue ball in play (GEN-4(c))."""
    return table.ball_diameter + (options.cue_ball_spot_gap if ball == CUE else 0.0)


def _blocked(
    table: TableGeometry, others: Mapping[BallId, Point], options: Options
) -> Iterator[tuple[float, float]]:
    """The open y-intervals of x = W/2 where a spotted ball would overlap another ball."""
    x0 = table.width / 2
    for ball, (x, y) in others.items():
        reach = _reach(ball, table, options)
        if abs(x - x0) < reach:
            half = math.sqrt(reach**2 - (x - x0) ** 2)
            yield (y - half, y + half)


def _is_free(
    y: float, table: TableGeometry, others: Mapping[BallId, Point], options: Options
) -> bool:
    """GEN-4: free when at least the reach (less ``contact_epsilon``) from every ball."""
    if not table.ball_radius <= y <= table.length - table.ball_radius:
        return False
    x0 = table.width / 2
    return all(
        math.hypot(x - x0, by - y) >= _reach(ball, table, options) - options.contact_epsilon
        for ball, (x, by) in others.items()
    )


def _first_free(
    candidates: Iterable[float],
    table: TableGeometry,
    others: Mapping[BallId, Point],
    options: Options,
) -> Point | None:
    for y in candidates:
        if _is_free(y, table, others, options):
            return (table.width / 2, y)
    return None


def spot_ball(table: TableGeometry, others: Mapping[BallId, Point], options: Options) -> Point:
    """GEN-4 / ROT-12: where one ball is spotted, given the balls on the table.

    FS if free; else the nearest free point on the long string toward the foot rail, frozen
    to the obstructing ball; only when that segment is full, the nearest free point on the
    extension toward the centre spot. B-21 ``nearest_either_side`` takes the nearest free
    point on either side. Pass the cue ball (as ``cue``) only when it stays in play.
    """
    foot_spot_y = table.foot_spot[1]
    top = table.length - table.ball_radius
    spans = list(_blocked(table, others, options))
    behind = [foot_spot_y, *sorted(hi for _, hi in spans if foot_spot_y < hi <= top)]
    front = sorted((lo for lo, _ in spans if lo < foot_spot_y), reverse=True)
    if options.spot_search_order == "nearest_either_side":
        candidates = sorted(
            [*behind, *front], key=lambda y: (abs(y - foot_spot_y), y < foot_spot_y)
        )
    else:
        candidates = [*behind, *front]
    point = _first_free(candidates, table, others, options)
    if point is None:
        raise SpottingError("the long string and its extension are full")
    return point


def _toward_head(
    start_y: float, table: TableGeometry, others: Mapping[BallId, Point], options: Options
) -> Point | None:
    """The free point of x = W/2 nearest ``start_y`` at or below it (toward the head)."""
    spans = _blocked(table, others, options)
    candidates = [start_y, *sorted((lo for lo, _ in spans if lo < start_y), reverse=True)]
    return _first_free(candidates, table, others, options)


# ROT-13: a stand-in for "a ball on FS" while FS is occupied or reserved for LB. It is an
# obstacle only, never a ball placed, so no sequence ball comes nearer FS than 2R and the
# first ball past it is frozen to its centre-spot side (y = FS.y - 2R = 1.84785).
_FOOT_SPOT_KEPT: BallId = "foot spot"


def foot_spot_free(table: TableGeometry, others: Mapping[BallId, Point], options: Options) -> bool:
    """GEN-4(a): FS is clear of every ball in ``others`` (the cue ball with its gap)."""
    return _is_free(table.foot_spot[1], table, others, options)


def spot_balls(
    balls: Iterable[BallId],
    table: TableGeometry,
    others: Mapping[BallId, Point],
    options: Options,
    *,
    keep_clear_of_foot_spot: bool = False,
) -> dict[BallId, Point]:
    """ROT-13 / B-9: where several balls are spotted, in ascending order of number.

    Default ``lowest_at_foot_rail`` + ``foot_rail``: the lowest frozen to the foot cushion
    (y = L - R), each next frozen in front of the previous one, jumping past any ball in
    the way (frozen to it on the foot-spot side) and on past the foot spot toward the centre
    spot. ``foot_spot_packed``: a row from FS toward the rail, the highest nearest FS.
    ``lowest_nearest_foot_spot``: each ball in turn by GEN-4 (lowest nearest FS).
    The balls placed become obstacles for the next; ``others`` is never moved.

    ``keep_clear_of_foot_spot``: ROT-13's "never a point closer to FS than 2R while FS is
    occupied or reserved for LB"; the caller knows which (rotation: LB among the balls its
    ruling spots, or FS covered before the sequence starts). 10-ball never asks (GEN-4).
    """
    ordered = by_number(balls)
    placed: dict[BallId, Point] = {}
    if keep_clear_of_foot_spot:
        others = {**others, _FOOT_SPOT_KEPT: table.foot_spot}
    if options.multi_spot_order == "lowest_nearest_foot_spot":
        sequence, from_rail = ordered, False
    elif options.multi_spot_anchor == "foot_spot_packed":
        sequence, from_rail = tuple(reversed(ordered)), False
    else:
        sequence, from_rail = ordered, True
    cursor = table.length - table.ball_radius
    for ball in sequence:
        obstacles = {**others, **placed}
        point = _toward_head(cursor, table, obstacles, options) if from_rail else None
        if point is None:
            point = spot_ball(table, obstacles, options)
        placed[ball] = point
        cursor = point[1] - table.ball_diameter
    return {ball: placed[ball] for ball in ordered}


def spot_in_wpa_order(
    balls: Iterable[BallId], table: TableGeometry, others: Mapping[BallId, Point], options: Options
) -> dict[BallId, Point]:
    """GEN-4 in the WPA games (10-ball, 9-ball): one ball on the long string; several in
    WPA 1.4's order (ascending, the lowest nearest the foot spot), whatever B-9's
    ``multi_spot_order`` says: that is a rotation option. ``others`` holds the cue ball
    only when it stays in play (GEN-4(c))."""
    balls = list(balls)
    if len(balls) == 1:
        return {balls[0]: spot_ball(table, others, options)}
    wpa = attrs.evolve(options, multi_spot_order="lowest_nearest_foot_spot")
    return spot_balls(balls, table, others, wpa)
