"""pooltool's events turned into neutral shot facts for the referee (``rules.facts``).

Event by event, in pooltool's (chronological) order:

- ``ball_ball`` -> :class:`Hit` (balls in canonical order: cue first, then by number);
- ``ball_linear_cushion`` / ``ball_circular_cushion`` -> :class:`RailContact`, with the
  rail the segment belongs to (jaws and jaw tips count, B-4 ``rail_includes_jaws``);
- ``ball_pocket`` -> :class:`Pocketing`.

Two facts are not pooltool events and are computed from the balls' trajectories:

- :class:`HeadStringCrossing`: the first time the cue ball's centre reaches y = L/4 coming
  out of the kitchen, solved exactly between events (motion between two events is
  uniformly accelerated: sliding and rolling friction have a fixed direction);
- :class:`OffTable`: a ball that is not pocketed yet ends outside the bed. pooltool 0.6.0
  has no such event; it only happens when a ball tunnels through a cushion, and poolsim
  reports it rather than lose the ball.
"""

from __future__ import annotations

import math
from itertools import pairwise

from rules.facts import CUE, Fact, Hit, OffTable, Pocketing, RailContact, ShotFacts
from rules.facts import HeadStringCrossing as HeadStringCrossingFact
from rules.geometry import TableGeometry
from rules.positions import ball_number
from sim.physics.pooltool_setup import pt
from sim.physics.table import rail_of_segment, within_rails


def shot_facts(system: pt.System, geometry: TableGeometry) -> ShotFacts:
    """Every fact of a simulated shot, in time order."""
    kinds = pt.EventType
    cushions = (kinds.BALL_LINEAR_CUSHION, kinds.BALL_CIRCULAR_CUSHION)
    facts: list[Fact] = []
    for event in system.events:
        kind = event.event_type
        if kind == kinds.BALL_BALL:
            a, b = sorted(event.ids, key=ball_number)
            facts.append(Hit(balls=(a, b), t=event.time))
        elif kind in cushions:
            ball, segment = event.ids
            facts.append(RailContact(ball=ball, rail=rail_of_segment(segment), t=event.time))
        elif kind == kinds.BALL_POCKET:
            ball, pocket = event.ids
            facts.append(Pocketing(ball=ball, pocket=pocket, t=event.time))
    extra: list[Fact] = [OffTable(ball=ball, t=t) for ball, t in off_table(system, geometry)]
    if CUE in system.balls:
        crossing = head_string_crossing(system.balls[CUE], geometry.head_string_y)
        if crossing is not None:
            extra.append(HeadStringCrossingFact(t=crossing))
    # A stable sort keeps pooltool's order among events that share a time.
    return tuple(sorted(facts + extra, key=lambda fact: fact.t or 0.0))


def head_string_crossing(ball: pt.Ball, head_string_y: float) -> float | None:
    """When the ball's centre first reaches ``head_string_y`` from the kitchen, or None.

    None also when the ball starts on or past the head string: it never comes *out of*
    the kitchen (the referee treats such a start as a crossing at the stroke).
    """
    states = ball.history.states
    if not states or states[0].rvw[0][1] >= head_string_y:
        return None
    return first_crossing(ball, axis=1, level=head_string_y)


def first_heading(system: pt.System, ball: str) -> float | None:
    """The direction ``ball`` first moves in, in degrees (the cue's aim convention: 0 is
    +x, 90 is +y), or None if it never moves (or is not on the table). For an object
    ball, the line it leaves its first collision on: what throw and spin made of the
    ghost-ball aim."""
    if ball not in system.balls:
        return None
    still = (pt.constants.stationary, pt.constants.pocketed)  # pooltool's, at first use
    for state in system.balls[ball].history.states:
        vx, vy = float(state.rvw[1][0]), float(state.rvw[1][1])
        if state.s not in still and math.hypot(vx, vy) > 1e-9:
            return math.degrees(math.atan2(vy, vx)) % 360.0
    return None


def first_crossing(ball: pt.Ball, *, axis: int, level: float) -> float | None:
    """The first time the ball's centre coordinate ``axis`` (0: x, 1: y) reaches ``level``
    from the side it started on, or None. Exact: between two events a ball's motion is
    uniformly accelerated (sliding and rolling friction keep their direction), so each
    span is a quadratic in time."""
    states = ball.history.states
    if not states:
        return None
    side = 1.0 if states[0].rvw[0][axis] < level else -1.0
    params = ball.params
    still = (pt.constants.stationary, pt.constants.pocketed)
    for start, end in pairwise(states):
        gap0 = side * (level - float(start.rvw[0][axis]))  # > 0 until the crossing
        if gap0 <= 0:
            return None  # only reachable through a pocket jump; never crossed on the bed
        span = end.t - start.t
        if span <= 0 or start.s in still:
            continue
        # The position just before the next event (``end`` is already resolved, and a
        # pocketed ball has jumped into the pocket), evolved by pooltool's own motion law.
        rvw, _ = pt.physics.evolve.evolve_ball_motion(
            state=start.s,
            rvw=start.rvw,
            R=params.R,
            m=params.m,
            u_s=params.u_s,
            u_sp=params.u_sp,
            u_r=params.u_r,
            g=params.g,
            t=span,
        )
        # The distance still to go, as a quadratic in time: gap0 - v tau - a tau^2 / 2.
        velocity = side * float(start.rvw[1][axis])
        gap1 = side * (level - float(rvw[0][axis]))
        accel = 2 * (gap0 - gap1 - velocity * span) / span**2
        root = _first_root(0.5 * accel, velocity, -gap0, span)
        if root is not None:
            return start.t + root
        if gap1 <= 0:  # a root lost to rounding at the very end of the span
            return end.t
    return None


def _first_root(a: float, b: float, c: float, upper: float) -> float | None:
    """Smallest tau in (0, upper] with a tau^2 + b tau + c = 0, given c < 0."""
    if abs(a) < 1e-12:
        roots = [-c / b] if b > 0 else []
    else:
        disc = b * b - 4 * a * c
        if disc < 0:
            return None
        sq = math.sqrt(disc)
        # The numerically stable pair of roots.
        q = -0.5 * (b + math.copysign(sq, b)) if b != 0 else 0.5 * sq
        roots = [q / a] + ([c / q] if q != 0 else [])
    valid = [r for r in roots if 0 < r <= upper * (1 + 1e-12)]
    return min(valid) if valid else None


def off_table(system: pt.System, geometry: TableGeometry) -> list[tuple[str, float]]:
    """Balls that end off the bed without a pocket event, with the first time their centre
    was found more than a radius past a cushion nose."""
    lost = []
    for ball_id, ball in system.balls.items():
        if ball.state.s == pt.constants.pocketed or _within_rails(ball.state, geometry):
            continue
        times = [s.t for s in ball.history.states if not _within_rails(s, geometry)]
        lost.append((ball_id, float(times[0]) if times else float(system.t)))
    return sorted(lost, key=lambda item: ball_number(item[0]))


def _within_rails(state: pt.objects.BallState, geometry: TableGeometry) -> bool:
    return within_rails(geometry, (float(state.rvw[0][0]), float(state.rvw[0][1])))
