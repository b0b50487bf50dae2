"""Where the balls are: an immutable mapping from ball id to centre.

A ball that is pocketed, off the table or in hand is simply absent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping

from rules.facts import BALL_IDS, CUE, BallId, RailName
from rules.geometry import Point, TableGeometry, distance


def ball_number(ball: BallId) -> int:
    """The number on the ball; the cue ball is 0. Orders balls as a player would."""
    return 0 if ball == CUE else int(ball)


def by_number(balls: Iterable[BallId]) -> tuple[BallId, ...]:
    return tuple(sorted(balls, key=ball_number))


def describe(balls: Iterable[BallId]) -> str:
    """``the 3, the 7 and the 10`` for reasons written for players."""
    names = [f"the {ball}" if ball != CUE else "the cue ball" for ball in by_number(balls)]
    if len(names) <= 1:
        return "".join(names) or "no ball"
    return ", ".join(names[:-1]) + " and " + names[-1]


class Positions(Mapping[BallId, Point]):
    """Ball id -> (x, y), in ball-number order, immutable and hashable."""

    __slots__ = ("_points",)
    _points: dict[BallId, Point]

    def __init__(self, points: Mapping[BallId, Point] | Iterable[tuple[BallId, Point]] = ()):
        items = dict(points)
        for ball, point in items.items():
            if ball not in BALL_IDS:
                raise ValueError(f"unknown ball {ball!r}")
            if len(point) != 2 or not all(math.isfinite(c) for c in point):
                raise ValueError(f"ball {ball}: a position is two finite numbers, got {point!r}")
        ordered = sorted(items.items(), key=lambda item: ball_number(item[0]))
        object.__setattr__(self, "_points", {b: (float(p[0]), float(p[1])) for b, p in ordered})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Positions is immutable")

    def __getitem__(self, ball: BallId) -> Point:
        return self._points[ball]

    def __iter__(self) -> Iterator[BallId]:
        return iter(self._points)

    def __len__(self) -> int:
        return len(self._points)

    def __hash__(self) -> int:
        return hash(tuple(self._points.items()))

    def __repr__(self) -> str:
        return f"Positions({self._points!r})"

    def __reduce__(self) -> tuple[type[Positions], tuple[dict[BallId, Point]]]:
        return (Positions, (dict(self._points),))

    @property
    def object_balls(self) -> tuple[BallId, ...]:
        return tuple(ball for ball in self._points if ball != CUE)

    @property
    def lowest(self) -> BallId | None:
        """The lowest-numbered object ball here (LB when these are the table's balls)."""
        return next(iter(self.object_balls), None)

    def moved(self, placements: Mapping[BallId, Point]) -> Positions:
        return Positions({**self._points, **placements})

    def without(self, *balls: BallId) -> Positions:
        return Positions({b: p for b, p in self._points.items() if b not in balls})

    def overlapping(self, point: Point, radius: float, tolerance: float) -> BallId | None:
        """A ball whose centre is closer to ``point`` than 2 radii less ``tolerance``."""
        for ball, centre in self._points.items():
            if distance(point, centre) < 2 * radius - tolerance:
                return ball
        return None


def frozen_rails(point: Point, table: TableGeometry, tolerance: float) -> frozenset[RailName]:
    """The cushions a ball at ``point`` is frozen to: its centre within R + ``tolerance``
    of the cushion nose (B-4)."""
    x, y = point
    reach = table.ball_radius + tolerance
    rails = {
        RailName.LEFT: x <= reach,
        RailName.RIGHT: x >= table.width - reach,
        RailName.HEAD: y <= reach,
        RailName.FOOT: y >= table.length - reach,
    }
    return frozenset(name for name, frozen in rails.items() if frozen)
