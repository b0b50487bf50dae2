"""pooltool 0.6.0's step from one event to the next, done faster to the same bits: moving
every ball on to the event's time, and writing every ball's state into its history.

A profile of level 5's rotation decisions (1,631 strokes of a rack of tuning seed 5,
the search's own, after :mod:`.nextevent`) put a sixth of the physics' time here, in
work that computes nothing:

- ``_SimulationState.evolve`` hands every ball to numba's ``evolve_ball_motion``, the
  balls at rest and those in a pocket too, for which it returns a copy of their state
  and nothing else; on a rotation rack most of the fifteen lie still, and a call into
  numba costs some microseconds of argument checking. :func:`evolve` copies those
  balls' state itself (``ndarray.copy``, the same C-ordered array of the same numbers)
  and hands numba the rest, with the same arguments.
- ``System._update_history`` sets each ball's time through attrs' ``on_setattr`` hook,
  whose only work is the field's converter, ``float``: :func:`update_history` applies
  ``float`` itself and sets the slot directly, and appends to the history with its
  assertion, as ``BallHistory.add`` does.

The states, their times and the histories are the same objects holding the same
numbers; ``tests/physics/test_speedups.py`` holds shots of every game to the same bits
with pooltool's own functions, and each copy is installed only over the function it was
written from (:mod:`.speedups`).
"""

from __future__ import annotations

from typing import Any

from sim.physics.pooltool_setup import pt

# attrs' classes are slotted; its hook is skipped by setting the slot as object does.
_set_slot = object.__setattr__


class _Pooltool:
    """pooltool's names the copies use, looked up once by :func:`bind`, not at import
    (the window's start screen imports the physics' entry points without pooltool)."""

    ball_state: Any = None
    evolve_module: Any = None
    resting: tuple[int, ...] = ()


_pt = _Pooltool()


def bind() -> None:
    """Look pooltool's names up for the copies (before they are installed)."""
    _pt.ball_state = pt.objects.BallState
    _pt.evolve_module = pt.physics.evolve  # the module pooltool's evolve calls into
    _pt.resting = (pt.constants.stationary, pt.constants.pocketed)


def evolve(shot: Any, dt: float) -> None:
    """``_SimulationState.evolve``: every ball moved on ``dt`` seconds."""
    evolve_ball_motion = _pt.evolve_module.evolve_ball_motion
    ball_state = _pt.ball_state
    resting = _pt.resting
    for ball in shot.balls.values():
        state = ball.state
        motion = state.s
        if motion in resting:  # evolve_ball_motion's own first step for these
            rvw = state.rvw.copy()
        else:
            params = ball.params
            rvw, _ = evolve_ball_motion(
                state=motion,
                rvw=state.rvw,
                R=params.R,
                m=params.m,
                u_s=params.u_s,
                u_sp=params.u_sp,
                u_r=params.u_r,
                g=params.g,
                t=dt,
            )
        ball.state = ball_state(rvw, motion, shot.t + dt)


def update_history(self: Any, event: Any) -> None:
    """``System._update_history``: every ball's state, at the event's time, appended to
    its history."""
    self.t = event.time
    time = float(event.time)  # BallState.t's converter, as its hook would apply it
    for ball in self.balls.values():
        state = ball.state
        _set_slot(state, "t", time)
        states = ball.history.states
        if states:  # BallHistory.add's check
            assert state.t >= states[-1].t
        states.append(state)
    self.events.append(event)
