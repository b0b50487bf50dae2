"""pooltool 0.6.0's search for the next event, done without looking at every pair again.

After each event pooltool's ``CollisionCache`` drops the cached collision times of the
balls the event changed, and each ``get_next_ball_*`` function then walks every pair
(every ball with every cushion segment, every pocket, every other ball: 560 pairs on a
rotation rack) to fill in the few dropped, and takes the earliest time with ``min`` and
a Python ``lambda`` for a key. On level 5's rotation decisions that was half of the
physics' time, and the physics nine tenths of a decision's (a profile of 14 decisions
of tuning seed 5: 40.6 of 77.3 s in ``get_next_event``).

The copies here compute the same times in the same order, and so the same bits:

- A ball's times with the cushions or the pockets are dropped together and filled in
  together, so a ball whose first pair is cached has all of them cached: a ball is
  looked at once, not once a segment, and its pairs are filled in as pooltool fills them.
- Two balls' time is dropped when either changed. A ball found unchanged (its pair with
  the next ball is cached) tells by its pair with each other ball whether that one
  changed; the dropped pairs are then filled in pooltool's order (``combinations``).
  Where no two neighbours' pair is cached, pooltool's own walk is taken.
- The earliest time is taken by ``min`` with the dict's own lookup (or ``attrgetter``)
  for a key: ``min`` keeps the first of equal times in the dict's order either way.

What stays pooltool's: every time computed (``solve``), the events built, the order the
caches are filled in. ``tests/physics/test_speedups.py`` holds shots of every game,
breaks and crowded tables, to the same bits with pooltool's own functions, and each copy
is installed only over the function it was written from (:mod:`.speedups`).
"""

from __future__ import annotations

from itertools import combinations
from operator import attrgetter
from typing import Any

import numpy as np

from sim.physics.pooltool_setup import pt

_time = attrgetter("time")


class _Pooltool:
    """pooltool's modules and constants the copies use, looked up once by :func:`bind`
    (an attribute of ``pt`` is a lookup each time), not at import: this module is
    imported with the physics' entry points, which the window's start screen imports
    without loading pooltool."""

    events: Any = None
    solve: Any = None
    is_overlapping: Any = None
    sliding: Any = None
    pocketed: Any = None
    nontranslating: Any = None


_pt = _Pooltool()


def bind() -> None:
    """Look pooltool's modules up for the copies (before they are installed)."""
    const = pt.constants
    _pt.events = pt.events
    _pt.solve = pt.evolution.event_based.solve
    _pt.is_overlapping = pt.ptmath.is_overlapping
    _pt.sliding = const.sliding
    _pt.pocketed = const.pocketed
    _pt.nontranslating = const.nontranslating


def transition_next(self: Any) -> Any:
    """``TransitionCache.get_next``: the earliest transition."""
    return min(self.transitions.values(), key=_time)


def _earliest(cache: dict[Any, float]) -> Any:
    """The key of the earliest time in ``cache``, the first of equal times."""
    return min(cache, key=cache.__getitem__)


def _fill_ball_pair(cache: dict[Any, float], shot: Any, ball1: Any, ball2: Any) -> None:
    """pooltool's time for one pair of balls (the body of its loop, unchanged)."""
    ball1_state = ball1.state
    ball1_params = ball1.params
    ball2_state = ball2.state
    ball2_params = ball2.params
    ball_pair = (ball1.id, ball2.id)
    s1, s2 = ball1_state.s, ball2_state.s
    still = _pt.nontranslating
    if s1 == _pt.pocketed or s2 == _pt.pocketed or (s1 in still and s2 in still):
        cache[ball_pair] = np.inf
    elif _pt.is_overlapping(ball1_state.rvw, ball2_state.rvw, ball1_params.R, ball2_params.R):
        cache[ball_pair] = shot.t
    else:
        dtau_E = _pt.solve.ball_ball_collision_time(
            rvw1=ball1_state.rvw,
            rvw2=ball2_state.rvw,
            s1=ball1_state.s,
            s2=ball2_state.s,
            mu1=(ball1_params.u_s if ball1_state.s == _pt.sliding else ball1_params.u_r),
            mu2=(ball2_params.u_s if ball2_state.s == _pt.sliding else ball2_params.u_r),
            m1=ball1_params.m,
            m2=ball2_params.m,
            g1=ball1_params.g,
            g2=ball2_params.g,
            R=ball1_params.R,
        )
        cache[ball_pair] = shot.t + dtau_E


def _changed_balls(cache: dict[Any, float], balls: list[Any]) -> list[bool] | None:
    """Which balls' pairs were dropped (a pair is dropped when either ball changed):
    read off the pairs of a ball found unchanged (the first of two neighbours whose pair
    is cached); None when no neighbours' pair is cached."""
    ids = [ball.id for ball in balls]
    for ref in range(len(ids) - 1):
        if (ids[ref], ids[ref + 1]) in cache:
            return [
                other != ref and (ids[min(ref, other)], ids[max(ref, other)]) not in cache
                for other in range(len(ids))
            ]
    return None


def ball_ball_next(shot: Any, collision_cache: Any) -> Any:
    """``get_next_ball_ball_collision``: the earliest collision of two balls."""
    events = _pt.events
    cache = collision_cache.times.setdefault(events.EventType.BALL_BALL, {})
    balls = list(shot.balls.values())
    changed = _changed_balls(cache, balls)
    if changed is None:
        for ball1, ball2 in combinations(balls, 2):
            if (ball1.id, ball2.id) not in cache:
                _fill_ball_pair(cache, shot, ball1, ball2)
    elif any(changed):
        count = len(balls)
        for i in range(count):
            for j in range(i + 1, count):
                if (changed[i] or changed[j]) and (balls[i].id, balls[j].id) not in cache:
                    _fill_ball_pair(cache, shot, balls[i], balls[j])
    if not cache:
        return events.null_event(np.inf)
    ball_pair = _earliest(cache)
    return events.ball_ball_collision(
        ball1=shot.balls[ball_pair[0]], ball2=shot.balls[ball_pair[1]], time=cache[ball_pair]
    )


def _fill_ball_with(
    cache: dict[Any, float], shot: Any, objects: dict[Any, Any], time_of: Any
) -> None:
    """Each ball's times with each of ``objects`` (cushion segments or pockets) where its
    first is not cached: ``time_of(state, params, object)`` is pooltool's solve for the
    kind. A ball's pairs are dropped and filled together, so its first pair tells."""
    first = next(iter(objects))
    for ball in shot.balls.values():
        if (ball.id, first) in cache:
            continue
        state = ball.state
        params = ball.params
        still = state.s in _pt.nontranslating  # no time to solve: it goes nowhere
        for thing in objects.values():
            obj_ids = (ball.id, thing.id)
            if obj_ids in cache:
                continue
            cache[obj_ids] = np.inf if still else shot.t + time_of(state, params, thing)


def _earliest_with(
    shot: Any,
    collision_cache: Any,
    kind: Any,
    objects: dict[Any, Any],
    time_of: Any,
    event: Any,
    named: str,
) -> Any:
    """The earliest event of ``kind`` between a ball and one of ``objects``, its cache
    filled first (:func:`_fill_ball_with`): pooltool's ``event(ball=, NAMED=, time=)``."""
    cache = collision_cache.times.setdefault(kind, {})
    _fill_ball_with(cache, shot, objects, time_of)
    ball_id, thing_id = _earliest(cache)
    thing = {named: objects[thing_id]}
    return event(ball=shot.balls[ball_id], time=cache[(ball_id, thing_id)], **thing)


def _mu(state: Any, params: Any) -> float:
    return params.u_s if state.s == _pt.sliding else params.u_r  # type: ignore[no-any-return]


def _arc_time(solve: Any, state: Any, params: Any, arc: Any) -> float:
    """pooltool's time to a circle on the table (a cushion's curve, a pocket): ``solve``,
    its function for the kind."""
    return solve(  # type: ignore[no-any-return]
        rvw=state.rvw,
        s=state.s,
        a=arc.a,
        b=arc.b,
        r=arc.radius,
        mu=_mu(state, params),
        m=params.m,
        g=params.g,
        R=params.R,
    )


def _circular_time(state: Any, params: Any, cushion: Any) -> float:
    return _arc_time(_pt.solve.ball_circular_cushion_collision_time, state, params, cushion)


def _pocket_time(state: Any, params: Any, pocket: Any) -> float:
    return _arc_time(_pt.solve.ball_pocket_collision_time, state, params, pocket)


def _linear_time(state: Any, params: Any, cushion: Any) -> float:
    return _pt.solve.ball_linear_cushion_collision_time(  # type: ignore[no-any-return]
        rvw=state.rvw,
        s=state.s,
        lx=cushion.lx,
        ly=cushion.ly,
        l0=cushion.l0,
        p1=cushion.p1,
        p2=cushion.p2,
        direction=cushion.direction,
        mu=_mu(state, params),
        m=params.m,
        g=params.g,
        R=params.R,
    )


def circular_cushion_next(shot: Any, collision_cache: Any) -> Any:
    """``get_next_ball_circular_cushion_event``: the earliest ball on a cushion's curve."""
    events = _pt.events
    if not shot.table.has_circular_cushions:
        return events.null_event(np.inf)
    return _earliest_with(
        shot,
        collision_cache,
        events.EventType.BALL_CIRCULAR_CUSHION,
        shot.table.cushion_segments.circular,
        _circular_time,
        events.ball_circular_cushion_collision,
        "cushion",
    )


def linear_cushion_next(shot: Any, collision_cache: Any) -> Any:
    """``get_next_ball_linear_cushion_collision``: the earliest ball on a straight
    cushion."""
    events = _pt.events
    if not shot.table.has_linear_cushions:
        return events.null_event(np.inf)
    return _earliest_with(
        shot,
        collision_cache,
        events.EventType.BALL_LINEAR_CUSHION,
        shot.table.cushion_segments.linear,
        _linear_time,
        events.ball_linear_cushion_collision,
        "cushion",
    )


def pocket_next(shot: Any, collision_cache: Any) -> Any:
    """``get_next_ball_pocket_collision``: the earliest ball into a pocket."""
    events = _pt.events
    if not shot.table.has_pockets:
        return events.null_event(np.inf)
    return _earliest_with(
        shot,
        collision_cache,
        events.EventType.BALL_POCKET,
        shot.table.pockets,
        _pocket_time,
        events.ball_pocket_collision,
        "pocket",
    )
