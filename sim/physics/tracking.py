"""Tracking lines: where the stroke being aimed sends the cue ball and the first ball it
hits, read off the shot the table already simulated ahead of the resting aim.

The window draws them on the cloth while the player aims (:mod:`sim.app.marks.tracking`); here
is only what they are: each ball's path as a polyline on the bed, where it stops (or the
last place it was seen on the bed, if it drops), and where the cue ball's centre is when
it first touches a ball. No second simulation: the preview's own
:class:`~sim.physics.simulate.SimulatedShot` is read, so the lines end exactly where the
balls of the shot then played come to rest.
"""

from __future__ import annotations

import attrs
import numpy as np

from rules.facts import CUE, BallId, Hit
from rules.geometry import Point
from sim.physics.simulate import SimulatedShot
from sim.physics.timeline import ShotTimeline

# Points a second along a path, between the events (which are always points of it): a
# rolling ball's curve (after a follow or draw shot's contact, a massé) is smooth at
# this rate, and a path of a few seconds stays a few hundred points.
SAMPLES_PER_SECOND = 120.0


@attrs.frozen
class BallPath:
    """One ball's path over the shot: ``points`` from where it started to ``end``,
    where it came to rest (or, ``pocketed``, its last point on the bed before it
    dropped). Only the points where it moved are kept."""

    ball: BallId
    points: tuple[Point, ...]
    end: Point
    pocketed: bool


@attrs.frozen
class TrackingLines:
    """The paths a stroke gives: the cue ball's, the first object ball's (None: it hits
    no ball) and ``contact``, the cue ball's centre at that first hit."""

    cue: BallPath
    object_ball: BallPath | None
    contact: Point | None

    @property
    def paths(self) -> tuple[BallPath, ...]:
        return (self.cue,) if self.object_ball is None else (self.cue, self.object_ball)


def first_hit(shot: SimulatedShot) -> Hit | None:
    """The cue ball's first collision with another ball, from the shot's facts."""
    hits = [f for f in shot.facts if isinstance(f, Hit) and f.involves(CUE)]
    # Facts come in event order; a hit with no time (never from the physics) goes last.
    return min(hits, key=lambda h: np.inf if h.t is None else h.t, default=None)


def tracking_lines(shot: SimulatedShot) -> TrackingLines:
    """The tracking lines of a simulated shot (see the module)."""
    timeline = ShotTimeline.from_system(shot.system)
    duration = timeline.duration
    grid = np.arange(0.0, duration, 1.0 / SAMPLES_PER_SECOND)
    times = np.unique(np.concatenate((grid, timeline.event_times, [duration])))
    states = timeline.states(times)
    hit = first_hit(shot)
    object_ball = None if hit is None else hit.other(CUE)

    def path(ball: BallId) -> BallPath:
        j = timeline.index(ball)
        down = np.flatnonzero(states.pocketed[:, j])
        on_bed = states.positions[: down[0] if len(down) else len(times), j, :2]
        moved = np.concatenate(([True], np.any(on_bed[1:] != on_bed[:-1], axis=1)))
        points = [(float(x), float(y)) for x, y in on_bed[moved]]
        pocketed = ball not in shot.after
        # Where it rests is the shot's own resting position, to the bit (the timeline's
        # last state is the same numbers; taking the shot's says what is promised).
        end = points[-1] if pocketed or not points else shot.after[ball]
        if not pocketed and points:
            points[-1] = end
        return BallPath(ball=ball, points=tuple(points), end=end, pocketed=pocketed)

    contact = None
    if hit is not None and hit.t is not None:
        at = timeline.at(min(hit.t, duration)).positions[timeline.index(CUE)]
        contact = (float(at[0]), float(at[1]))
    return TrackingLines(
        cue=path(CUE),
        object_ball=None if object_ball is None else path(object_ball),
        contact=contact,
    )
