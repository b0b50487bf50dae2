"""The shot timeline: where every ball is, and how it is turned, at any time of a shot.

A :class:`ShotTimeline` is built once from a simulated pooltool system and answers
"all balls at time t" for any t in any order (scrubbing forward and back, frames at any
rate), without a precomputed time grid.

Positions and velocities are pooltool's own (``interpolate_ball_states``): a ball is
evolved from its state at the last event at or before t. Between two events a ball stays
in one motion state (every transition is an event), and in each state its motion is a
closed form: the centre moves with a constant acceleration (sliding and rolling friction
keep their direction), the spin about the vertical decays linearly until it stops. The
build turns every (event, ball) state into those coefficients, so a query is a binary
search on the event times and a few array operations for all balls at once.

Orientations are not in pooltool's state (only the angular velocity is), so they are
integrated. Within one motion state the angular velocity is piecewise linear in time
(linear, then its vertical part stops at a known time), and over a stretch where it is
linear a sixth-order Magnus step gives the rotation in closed form. A single step from
the last event cannot be accurate (a ball may roll for seconds, turning hundreds of
radians, with a turning axis that drifts while its side spin decays), so the build
steps through every interval, each step turning the ball at most
:data:`MAX_STEP_ANGLE`, and keeps the orientation at each step: the "knots", spaced by
the ball's own spin (none while it rests), not a time grid; positions never use them.
A query takes one Magnus step from the last knot before t. Over a break, orientations
are within about 2e-8 rad of a hundred times finer integration.

Pocketed balls: pooltool moves a ball to its pocket (at z = -depth) at the pocket event,
and so does the timeline; :attr:`BallStates.pocketed` says which balls are down so the
renderer can hide them or animate the drop from :attr:`ShotTimeline.markers`.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TypeAlias

import attrs
import numpy as np
from numpy.typing import ArrayLike, NDArray

from rules.facts import CUE, BallId
from rules.positions import ball_number
from sim.physics.pooltool_setup import pt
from sim.physics.table import rail_of_segment

FloatArray: TypeAlias = NDArray[np.float64]

# pooltool's interpolate_ball_states returns the event state itself for a time within
# this of the event (instead of evolving it by so little); doing the same keeps the two
# equal to the bit at event times.
SNAP_SECONDS = 1e-10
# Step limits of the orientation integration: the angle a ball turns in one step, and
# the change of its angular velocity over a step (|dw/dt| h^2, radians). At these sizes
# a break's orientations are within ~2e-8 rad of steps 100 times finer, with ~400 knots
# per ball (6,500 for a 16-ball break; a few ms to build).
MAX_STEP_ANGLE = 0.25
MAX_STEP_SPIN_CHANGE = 0.05
# pooltool leaves a vertical spin below this alone (physics/evolve, ptmath EPS).
_SPIN_EPS = float(np.finfo(float).eps * 100)

# Columns of the per-(event, ball) coefficient table. From the state after the event:
# position r0, velocity v0, acceleration acc, angular velocity w0 and its rates of change
# (cw: horizontal, linear all along; spin: vertical, until the spin stops at ``stop``),
# how long the ball keeps moving in this interval (``live``: the end of its motion state
# or the next event, whichever is first), and where its orientation knots are: the
# first one's index, then count, count per second and spacing in each of the two pieces
# of the interval, before and after the vertical spin stops.
_R0, _V0, _ACC, _W0, _CW, _SPIN = (slice(i, i + 3) for i in range(0, 18, 3))
_STOP, _LIVE, _KNOT, _NA, _PER_A, _HA, _NB, _PER_B, _HB = range(18, 27)
_COLUMNS = 27
# Columns of the orientation knot table: the orientation (w, x, y, z), then for the step
# that starts there its angular velocity, the rate of change of it, and the knot's time
# (seconds after its event).
_KQ, _KW, _KDW, _KT = slice(0, 4), slice(4, 7), slice(7, 10), 10
_KNOT_COLUMNS = 11


class MarkerKind(StrEnum):
    """What happened at a scrub-bar marker."""

    STRIKE = "strike"  # the cue tip hit the cue ball
    FIRST_CONTACT = "first-contact"  # the cue ball's first hit of another ball
    HIT = "hit"  # any other ball-ball collision
    RAIL = "rail"  # a ball hit a cushion (jaws included)
    POCKET = "pocket"  # a ball dropped


@attrs.frozen
class EventMarker:
    """One of the shot's events, for the scrub bar. ``balls`` in canonical order (cue
    first); ``place`` is the rail name for a rail, the pocket id for a pocket."""

    t: float
    kind: MarkerKind
    balls: tuple[BallId, ...]
    place: str | None = None


@attrs.frozen(eq=False)
class BallStates:
    """Every ball at one or more times; arrays lead with ``t.shape`` (``()`` for one time,
    ``(F,)`` for frames), then the ball axis in :attr:`ShotTimeline.ball_ids` order.

    positions (..., B, 3) metres (a pocketed ball sits in its pocket at z = -depth);
    orientations (..., B, 4) unit quaternions (w, x, y, z), the rotation from the ball
    model's frame to the table's; velocities, angular_velocities (..., B, 3) as pooltool
    reports them; motion (..., B) pooltool's motion state (0 stationary, 1 spinning,
    2 sliding, 3 rolling, 4 pocketed); pocketed (..., B).
    """

    t: FloatArray
    positions: FloatArray
    orientations: FloatArray
    velocities: FloatArray
    angular_velocities: FloatArray
    motion: NDArray[np.int8]
    pocketed: NDArray[np.bool_]


def frame_count(duration: float, fps: float) -> int:
    """Frames of a shot of ``duration`` seconds at ``fps``: one at every multiple of
    1/fps before the end, plus one at the end. 2.0 s at 60 fps is 121 frames."""
    return len(frame_times(duration, fps))


def frame_times(duration: float, fps: float) -> FloatArray:
    """``0, 1/fps, 2/fps, ...`` (every ``i / fps`` strictly before ``duration``), then
    ``duration`` itself, so the last frame shows the balls at rest."""
    if not (math.isfinite(duration) and duration >= 0):
        raise ValueError(f"duration must be finite and >= 0, got {duration!r}")
    if not (math.isfinite(fps) and fps > 0):
        raise ValueError(f"fps must be finite and > 0, got {fps!r}")
    count = math.ceil(duration * fps)
    # i / fps is what we return, so count exactly the i with i / fps < duration.
    while count > 0 and (count - 1) / fps >= duration:
        count -= 1
    while count / fps < duration:
        count += 1
    return np.append(np.arange(count) / fps, duration)


@attrs.frozen(eq=False)
class ShotTimeline:
    """Every ball at any time of one simulated shot. Build with :meth:`from_system`."""

    ball_ids: tuple[BallId, ...]
    event_times: FloatArray  # (E,) pooltool's event times, ascending (ties kept)
    markers: tuple[EventMarker, ...]
    start_orientations: FloatArray  # (B, 4) at t = 0
    _times: tuple[float, ...]  # event_times again, for a fast scalar bisect
    _motion: NDArray[np.int8]  # (E, B) motion state after each event
    _coefficients: FloatArray  # (E, B, _COLUMNS)
    _knots: FloatArray  # (K, 4) orientation knots, ball by ball, each in time order
    _final_knot: NDArray[np.intp]  # (B,) index of each ball's final orientation

    @property
    def duration(self) -> float:
        """Seconds from the stroke until the last ball stops."""
        return self._times[-1]

    @property
    def final_orientations(self) -> dict[BallId, tuple[float, float, float, float]]:
        """Each ball's orientation at rest, to start the next shot's timeline from."""
        final = self._knots[self._final_knot]
        return {
            ball: (float(q[0]), float(q[1]), float(q[2]), float(q[3]))
            for ball, q in zip(self.ball_ids, final, strict=True)
        }

    def index(self, ball: BallId) -> int:
        """The ball's position on the ball axis of :class:`BallStates`."""
        return self.ball_ids.index(ball)

    @classmethod
    def from_system(
        cls,
        system: pt.System,
        start_orientations: Mapping[BallId, Sequence[float]] | None = None,
    ) -> ShotTimeline:
        """The timeline of a simulated system. Each ball starts turned as
        ``start_orientations`` says (w, x, y, z; e.g. the previous shot's
        :attr:`final_orientations`), else as its pooltool ``initial_orientation`` is
        rendered (``pos`` then ``sphere``, as pooltool's scene folds them)."""
        ball_ids = tuple(system.balls)
        balls = [system.balls[ball] for ball in ball_ids]
        histories = [ball.history.states for ball in balls]
        if not histories or not histories[0]:
            raise ValueError("the system has not been simulated (no ball history)")
        times = np.array([state.t for state in histories[0]], dtype=float)
        for ball, history in zip(ball_ids, histories, strict=True):
            if [state.t for state in history] != times.tolist():
                raise ValueError(f"ball {ball}: its history is not on the shot's event times")
        rvw = np.array([[state.rvw for state in history] for history in histories])
        motion = np.array([[state.s for state in history] for history in histories]).T
        params = {
            name: np.array([getattr(ball.params, name) for ball in balls], dtype=float)
            for name in ("R", "u_s", "u_r", "u_sp", "g")
        }
        start = _start_orientations(system, ball_ids, start_orientations)
        coefficients = _coefficients(times, rvw.transpose(1, 0, 2, 3), motion, params)
        knots, final_knot = _integrate_orientations(coefficients, start)
        motion = motion.astype(np.int8)
        for array in (times, motion, coefficients, knots, start, final_knot):
            array.flags.writeable = False
        return cls(
            ball_ids=ball_ids,
            event_times=times,
            markers=_markers(system),
            start_orientations=start,
            times=tuple(times.tolist()),
            motion=motion,
            coefficients=coefficients,
            knots=knots,
            final_knot=final_knot,
        )

    def at(self, t: float) -> BallStates:
        """All balls at time ``t`` (seconds, 0 <= t <= duration)."""
        t = float(t)
        if not 0.0 <= t <= self._times[-1]:
            raise ValueError(f"t must be within [0, {self.duration}] s, got {t!r}")
        # The last event at or before t (the last of several at the same time), as in
        # pooltool's interpolate_ball_states.
        k = bisect.bisect_right(self._times, t) - 1
        tau = t - self._times[k]
        return self._evaluate(
            np.array(t), self._coefficients[k], 0.0 if tau < SNAP_SECONDS else tau, self._motion[k]
        )

    def states(self, times: ArrayLike) -> BallStates:
        """All balls at each of ``times`` (any order; each time is independent)."""
        t = np.array(times, dtype=float).reshape(-1)
        if not np.all((t >= 0.0) & (t <= self._times[-1])):
            raise ValueError(f"times must be within [0, {self.duration}] s")
        k = np.searchsorted(self.event_times, t, side="right") - 1
        tau = t - self.event_times[k]
        tau[tau < SNAP_SECONDS] = 0.0
        return self._evaluate(t, self._coefficients[k], tau[:, None], self._motion[k])

    def frame_times(self, fps: float) -> FloatArray:
        """The frame times of this shot at ``fps`` (see :func:`frame_times`)."""
        return frame_times(self.duration, fps)

    def frames(self, fps: float) -> BallStates:
        """All balls at every frame time of this shot at ``fps``."""
        return self.states(self.frame_times(fps))

    def _evaluate(
        self, t: FloatArray, c: FloatArray, tau: float | FloatArray, motion: NDArray[np.int8]
    ) -> BallStates:
        """The balls ``tau`` seconds after their last event, from its coefficients ``c``
        (..., B, _COLUMNS); every array keeps the leading shape."""
        # A ball moves for at most its motion state's time left; past it (only ever by
        # rounding: the next event is that transition) it stays where the motion ends.
        te = np.minimum(tau, c[..., _LIVE])
        te3 = te[..., None]
        stop = c[..., _STOP]
        acc = c[..., _ACC]
        positions = c[..., _R0] + te3 * (c[..., _V0] + 0.5 * acc * te3)
        velocities = c[..., _V0] + acc * te3
        omega = c[..., _W0] + c[..., _CW] * te3 + c[..., _SPIN] * np.minimum(te, stop)[..., None]

        # Orientation: the knot at or before te (knots are uniform in each piece of the
        # interval), then one Magnus step from it to te.
        n_a = c[..., _NA]
        in_b = te > stop
        j = np.where(
            in_b,
            n_a + np.minimum(np.floor((te - stop) * c[..., _PER_B]), c[..., _NB] - 1.0),
            np.minimum(np.floor(te * c[..., _PER_A]), n_a - 1.0),
        )
        knot = self._knots[(c[..., _KNOT] + np.maximum(j, 0.0)).astype(np.intp)]
        step = _step_rotation(knot[..., _KW], knot[..., _KDW], te - knot[..., _KT])
        orientations = _quat_mul(step, knot[..., _KQ])
        return BallStates(
            t=t,
            positions=positions,
            orientations=orientations,
            velocities=velocities,
            angular_velocities=omega,
            motion=motion,
            pocketed=motion == int(pt.constants.pocketed),
        )


def _start_orientations(
    system: pt.System,
    ball_ids: tuple[BallId, ...],
    given: Mapping[BallId, Sequence[float]] | None,
) -> FloatArray:
    given = dict(given or {})
    unknown = set(given) - set(ball_ids)
    if unknown:
        raise ValueError(f"start orientations for unknown balls: {sorted(unknown)}")
    rows = []
    for ball in ball_ids:
        if ball in given:
            rows.append(_unit(given[ball], ball))
        else:
            # pooltool renders a ball as its `pos` node over its `sphere` node and, on
            # render, folds pos into sphere (scene.render_balls): q = pos * sphere.
            orientation = system.balls[ball].initial_orientation
            rows.append(_quat_mul(_unit(orientation.pos, ball), _unit(orientation.sphere, ball)))
    return np.array(rows, dtype=float).reshape(len(ball_ids), 4)


def _unit(values: Sequence[float], ball: BallId) -> FloatArray:
    q = np.array(values, dtype=float)
    norm = float(np.linalg.norm(q)) if q.shape == (4,) else 0.0
    if not (math.isfinite(norm) and norm > 0):
        raise ValueError(f"ball {ball}: an orientation is 4 finite numbers, not all 0")
    return q / norm


def _coefficients(
    times: FloatArray,
    rvw: FloatArray,
    motion: NDArray[np.int_],
    p: Mapping[str, FloatArray],
) -> FloatArray:
    """The closed-form motion of every ball after every event, as pooltool's
    ``evolve_ball_motion`` has it for one motion state, and its orientation knots'
    layout. ``rvw`` is (E, B, 3, 3), ``motion`` (E, B), ``p`` ball parameters (B,)."""
    r, v, w = rvw[..., 0, :], rvw[..., 1, :], rvw[..., 2, :]
    radius, u_s, u_r, g = p["R"], p["u_s"], p["u_r"], p["g"]
    codes = pt.constants
    sliding, rolling = motion == int(codes.sliding), motion == int(codes.rolling)
    spinning = motion == int(codes.spinning)

    # Sliding: the contact point's velocity v + w x (-R z) keeps its direction.
    slip = v + radius[:, None] * np.stack([-w[..., 1], w[..., 0], np.zeros_like(w[..., 0])], -1)
    slip_speed = np.linalg.norm(slip, axis=-1, keepdims=True)
    slip_dir = np.divide(slip, slip_speed, out=np.zeros_like(slip), where=slip_speed > 0)
    speed = np.linalg.norm(v, axis=-1, keepdims=True)
    v_dir = np.divide(v, speed, out=np.zeros_like(v), where=speed > 0)
    alpha = 5 * p["u_sp"] * g / (2 * radius)  # the vertical spin's deceleration, rad/s^2
    state_left = np.select(
        [sliding, rolling, spinning],
        [
            2 * slip_speed[..., 0] / (7 * u_s * g),
            speed[..., 0] / (u_r * g),
            np.abs(w[..., 2]) * 2 / 5 * radius / p["u_sp"] / g,
        ],
        0.0,
    )
    live = np.minimum(state_left, np.append(np.diff(times), 0.0)[:, None])

    acc = np.select(
        [sliding[..., None], rolling[..., None]],
        [-(u_s * g)[:, None] * slip_dir, -(u_r * g)[:, None] * v_dir],
        0.0,
    )
    # Horizontal spin: sliding friction's torque; rolling keeps w = z x v / R.
    torque = -(5 / (2 * radius) * u_s * g)[:, None] * np.stack(
        [slip_dir[..., 1], -slip_dir[..., 0], np.zeros_like(slip_dir[..., 0])], -1
    )
    roll = np.stack([-acc[..., 1], acc[..., 0], np.zeros_like(acc[..., 0])], -1)
    cw = np.select([sliding[..., None], rolling[..., None]], [torque, roll / radius[:, None]], 0.0)
    # Vertical spin, in any moving state: decays at alpha to 0 (pooltool leaves a spin
    # below _SPIN_EPS alone).
    decays = (sliding | rolling | spinning) & (np.abs(w[..., 2]) >= _SPIN_EPS)
    spin = np.zeros_like(w)
    spin[..., 2] = np.where(decays, -np.sign(w[..., 2]) * alpha, 0.0)
    stop = np.minimum(np.where(decays, np.abs(w[..., 2]) / alpha, 0.0), live)

    c = np.zeros((*motion.shape, _COLUMNS))
    c[..., _R0], c[..., _V0], c[..., _ACC] = r, v, acc
    c[..., _W0], c[..., _CW], c[..., _SPIN] = w, cw, spin
    c[..., _STOP], c[..., _LIVE] = stop, live

    # Orientation steps, uniform in each piece (w is linear there, so |w| is largest at
    # a piece's ends): short in angle and in the change of w.
    def omega(s: FloatArray) -> FloatArray:
        w_s: FloatArray = w + cw * s[..., None] + spin * np.minimum(s, stop)[..., None]
        return w_s

    def steps(length: FloatArray, w1: FloatArray, w2: FloatArray, dw: FloatArray) -> FloatArray:
        turn = np.maximum(np.linalg.norm(w1, axis=-1), np.linalg.norm(w2, axis=-1))
        with np.errstate(divide="ignore"):
            h = np.minimum(MAX_STEP_ANGLE / turn, np.sqrt(MAX_STEP_SPIN_CHANGE / dw))
        n = np.ceil(np.divide(length, h, out=np.zeros_like(length), where=np.isfinite(h)))
        return np.where(length > 0, np.maximum(n, 1.0), 0.0)

    w_stop = omega(stop)
    dw_b = np.linalg.norm(cw, axis=-1)
    n_a = steps(stop, w, w_stop, np.hypot(dw_b, spin[..., 2]))
    n_b = steps(live - stop, w_stop, omega(live), dw_b)
    zero = np.zeros_like(stop)
    c[..., _NA], c[..., _NB] = n_a, n_b
    c[..., _PER_A] = np.divide(n_a, stop, out=zero.copy(), where=n_a > 0)
    c[..., _HA] = np.divide(stop, n_a, out=zero.copy(), where=n_a > 0)
    c[..., _PER_B] = np.divide(n_b, live - stop, out=zero.copy(), where=n_b > 0)
    c[..., _HB] = np.divide(live - stop, n_b, out=zero.copy(), where=n_b > 0)
    return c


def _integrate_orientations(
    c: FloatArray, start: FloatArray
) -> tuple[FloatArray, NDArray[np.intp]]:
    """Every ball's orientation knots, all balls in one table (K, _KNOT_COLUMNS): per
    ball, its start orientation, then one Magnus step after another through all its
    intervals. Sets the first-knot column of ``c`` to rows of that table; returns it and
    the row of each ball's final orientation."""
    events, balls = c.shape[:2]
    n = (c[..., _NA] + c[..., _NB]).astype(np.intp)  # steps of each (event, ball)
    per_ball = n.sum(axis=0)
    base = np.cumsum(per_ball + 1) - (per_ball + 1)  # where each ball's knots begin
    c[..., _KNOT] = base + np.cumsum(n, axis=0) - n  # the knot at each event

    per_row = n.T.reshape(-1)  # rows ball-major: each ball's intervals in time order
    row = np.repeat(np.arange(balls * events), per_row)
    j = np.arange(row.size) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    rows = c.transpose(1, 0, 2).reshape(balls * events, _COLUMNS)[row]
    n_a, stop = rows[:, _NA], rows[:, _STOP]

    def knot_time(i: FloatArray) -> FloatArray:
        return np.where(i < n_a, i * rows[:, _HA], stop + (i - n_a) * rows[:, _HB])

    jf = j.astype(float)
    s0 = knot_time(jf)
    last = jf + 1 == n_a + rows[:, _NB]  # an interval's last step ends where motion ends
    s1 = np.where(last, rows[:, _LIVE], knot_time(jf + 1))
    spin = rows[:, _SPIN]
    w = rows[:, _W0] + rows[:, _CW] * s0[:, None] + spin * np.minimum(s0, stop)[:, None]
    dw = rows[:, _CW] + spin * (jf < n_a)[:, None]

    # Each knot: the orientation at the start of a step, and the step's angular velocity
    # (w + dw s, s seconds after the knot time). A ball's final knot does not turn.
    knots = np.zeros((int(per_ball.sum()) + balls, _KNOT_COLUMNS))
    at_step = rows[:, _KNOT].astype(np.intp) + j
    knots[at_step, _KW], knots[at_step, _KDW], knots[at_step, _KT] = w, dw, s0
    knots[base, _KQ] = start
    knots[at_step + 1, _KQ] = _step_rotation(w, dw, s1 - s0)
    # A segmented parallel prefix product (Hillis-Steele): afterwards each knot holds
    # step_i * ... * step_1 * start of its ball, a product of about log2(K) partials.
    q = knots[:, _KQ]
    first = np.repeat(base, per_ball + 1)
    index = np.arange(len(q))
    shift = 1
    while shift <= per_ball.max():
        later = index[index - shift >= first]
        q[later] = _quat_mul(q[later], q[later - shift])
        shift *= 2
    knots[:, _KQ] = q / np.linalg.norm(q, axis=-1, keepdims=True)
    return knots, base + per_ball


def _step_rotation(w: FloatArray, dw: FloatArray, h: FloatArray) -> FloatArray:
    """The rotation (..., 4) over h seconds of a ball whose angular velocity is
    w + dw s at s seconds (w, dw (..., 3); h (...)).

    The sixth-order Magnus method written with the Taylor coefficients of the generator
    at the step's midpoint (Blanes, Casas, Oteo and Ros, "The Magnus expansion and some
    of its applications", Phys. Rep. 470 (2009)), for a linear w and in rotation-vector
    form: with u = h w(h/2), v = h^2 dw and p = u x v, the rotation vector is
    u - p / 12 - v x p / 240 + u x (u x p) / 720, that is
    u (1 - v.v / 240) + v (u.v) / 240 - p (1 / 12 + u.u / 720) since u.p = 0.
    Exact when w keeps its direction (p = 0); otherwise the error falls 64-fold per
    halved step (checked against an adaptive Runge-Kutta solution).
    """
    h1 = h[..., None]
    u = h1 * (w + dw * (0.5 * h1))
    v = (h1 * h1) * dw
    uu, vv, uv = (np.einsum("...i,...i->...", x, y)[..., None] for x, y in ((u, u), (v, v), (u, v)))
    rotation = u * (1 - vv / 240) + v * (uv / 240) - _cross(u, v) * (1 / 12 + uu / 720)
    angle = np.sqrt(np.einsum("...i,...i->...", rotation, rotation))[..., None]
    half = 0.5 * angle
    # No rotation for an angle of 0, whatever the scale (and no division by 0).
    scale = np.sin(half) / np.maximum(angle, 1e-300)
    return np.concatenate([np.cos(half), rotation * scale], axis=-1)


# Structure constants: (a x b)_k = sum_ij a_i b_j _LEVI_CIVITA[3i + j, k], and the same for
# the Hamilton product of (w, x, y, z) quaternions. One outer product and one matmul are
# much cheaper than a dozen ufuncs on small arrays.
_LEVI_CIVITA = np.zeros((9, 3))
for _i, _j, _k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
    _LEVI_CIVITA[3 * _i + _j, _k], _LEVI_CIVITA[3 * _j + _i, _k] = 1.0, -1.0
_HAMILTON = np.zeros((16, 4))
for _i, _j, _k, _sign in (
    (0, 0, 0, 1), (1, 1, 0, -1), (2, 2, 0, -1), (3, 3, 0, -1),
    (0, 1, 1, 1), (1, 0, 1, 1), (2, 3, 1, 1), (3, 2, 1, -1),
    (0, 2, 2, 1), (2, 0, 2, 1), (3, 1, 2, 1), (1, 3, 2, -1),
    (0, 3, 3, 1), (3, 0, 3, 1), (1, 2, 3, 1), (2, 1, 3, -1),
):  # fmt: skip
    _HAMILTON[4 * _i + _j, _k] = _sign


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    outer = a[..., :, None] * b[..., None, :]
    return outer.reshape(*outer.shape[:-2], 9) @ _LEVI_CIVITA


def _quat_mul(a: FloatArray, b: FloatArray) -> FloatArray:
    """Hamilton product a * b of (w, x, y, z) quaternions: rotate by b, then by a."""
    outer = a[..., :, None] * b[..., None, :]
    return outer.reshape(*outer.shape[:-2], 16) @ _HAMILTON


def _markers(system: pt.System) -> tuple[EventMarker, ...]:
    kinds = pt.EventType
    markers = []
    first_contact_seen = False
    for event in system.events:
        kind = event.event_type
        if kind == kinds.STICK_BALL:
            markers.append(EventMarker(event.time, MarkerKind.STRIKE, (event.ids[1],)))
        elif kind == kinds.BALL_BALL:
            balls = tuple(sorted(event.ids, key=ball_number))
            first = not first_contact_seen and CUE in balls
            first_contact_seen = first_contact_seen or first
            markers.append(
                EventMarker(
                    event.time, MarkerKind.FIRST_CONTACT if first else MarkerKind.HIT, balls
                )
            )
        elif kind in (kinds.BALL_LINEAR_CUSHION, kinds.BALL_CIRCULAR_CUSHION):
            ball, segment = event.ids
            markers.append(
                EventMarker(event.time, MarkerKind.RAIL, (ball,), str(rail_of_segment(segment)))
            )
        elif kind == kinds.BALL_POCKET:
            ball, pocket = event.ids
            markers.append(EventMarker(event.time, MarkerKind.POCKET, (ball,), pocket))
    return tuple(markers)
