"""A pot stroke foretold in closed form, without pooltool: the cheap screen the search
runs before the physics (:meth:`sim.play.opponent.search.Thinker.planned`).

pooltool steps a shot's events in Python, some 20 to 50 ms a stroke on this machine;
the search meets hundreds of strokes a decision. Most of them only need ranking: which
strokes of a pot are worth simulating, which pots hold up when struck with noise, which
strokes of the next pot leave something. So each stroke is first foretold by the physics
every pool player knows, for the two balls that matter, in plain Python (a few dozen
float operations a phase: no array set-up, and the same floats on every machine):

- the cue strike: pooltool's instantaneous point model (speed from the cue's mass and
  the tip's offset, the spin it gives, the squirt of side spin off the aim);
- the cue ball to the object ball along its line, sliding (its spin and its pace
  trading by the cloth's sliding friction) until it rolls, then rolling;
- the collision of equal balls without friction: the object ball leaves on the line of
  centres (the ghost ball), the cue ball keeps the tangent part of its pace and all its
  spin, so it slides on a curve until it rolls (the stun line, the natural-roll line and
  everything between, draw and follow) and then rolls straight; a ball it meets on the
  way is struck as the object ball was (it rolls off on the line of centres, the cue
  ball goes on with the rest), up to two;
- the cushions: the cue ball reflected with the normal part of its pace times the
  cushion's restitution and its spin kept, so it slides again (a rolling ball comes off
  a rail nearer to it, as it does on a table); a cushion met within a pocket's mouth is
  a scratch;
- the object ball's reach (sliding, then rolling) against its travel to the pocket, and
  its line's error at the mouth against the pocket's margin (the judge's).

The object ball leaves on its thrown line (the collision's friction, as pooltool's), so
the search can turn a pot's aim for throw in the forecast (:attr:`Forecast.heading`)
before the physics checks it.

Left out, and why the screen is still worth it: the cue ball's swerve, jaws, the
object ball's own way beyond its pocket's line, and what the balls the cue ball meets
go on to do (:attr:`Forecast.kisses` says it met them). The search simulates the
strokes the forecast ranks best, and judges the final few by their noisy strikes in
the physics.

The constants are pooltool 0.6.0's defaults (``BallParams.default()``,
``CueSpecs.default()``); a test holds them to pooltool's.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import attrs

from rules import CUE, BallId, PocketId, Positions, RailName
from rules.facts import Fact, Hit, Pocketing, RailContact
from rules.geometry import Point
from sim.physics.simulate import BALL_MASS, CueAction, squirt
from sim.physics.table import CushionRebound, TableSpec

GRAVITY = 9.81
BALL_RADIUS = 0.028575  # m
CUE_MASS = 0.567  # kg
SLIDING_FRICTION = 0.2  # u_s
ROLLING_FRICTION = 0.01  # u_r
BALL_RESTITUTION = 0.95  # e_b
# Ball-ball friction, Alciatore's fit u_b = a + b exp(-c v) of the contact's slip speed v
# (pooltool's AlciatoreBallBallFriction).
ALCIATORE = (9.951e-3, 0.108, 1.088)
# A cushion line met this close (metres, beyond the pocket's half width) to a pocket's
# mouth is a pocket: the ball's centre is a radius off the nose, and the jaws funnel it.
POCKET_REACH = 0.01
MAX_CUSHIONS = 6  # a forecast stops following the cue ball at this many cushions
MAX_KISSES = 2  # and at the third ball it meets after the contact
SLIDE_SAMPLES = 6  # points along a sliding curve checked for other balls
RESTING_SPEED = 1e-6  # m/s
# rad/s^2: side spin's decay, 5 u_sp g / 2R with pooltool's u_sp = 4/9 R.
SPIN_DECAY = 5 * (4 / 9) * GRAVITY / 2


@attrs.frozen
class Forecast:
    """What a pot stroke is foretold to do. ``contact``: the cue ball reaches the ball
    aimed at (if not, nothing else is foretold); ``drops``: the object ball reaches the
    pocket within its margin; ``line_error``: how far off the pocket's centre (metres,
    signed) its line passes at the mouth; ``cue``: where the cue ball stops (where it
    met another ball, for a kiss); ``scratch``: the pocket the cue ball goes into;
    ``heading``: the object ball's line off the contact, degrees (the cue's aim
    convention), throw included; ``kisses``: the balls the cue ball runs into after the
    contact, in turn (each rolls
    off on the line of centres to where ``moved`` says; past :data:`MAX_KISSES` the
    forecast stops at the ball met); ``rails``: the cushions the cue ball meets after
    the contact; ``resting``: where the object ball would stop on a bare bed (used
    when it does not drop);
    ``object_rail``: a ball that does not drop reaches the rail by the pocket."""

    contact: bool
    drops: bool = False
    line_error: float = 0.0
    heading: float = 0.0
    cue: Point | None = None
    scratch: PocketId | None = None
    kisses: tuple[BallId, ...] = ()
    moved: tuple[tuple[BallId, Point], ...] = ()
    rails: tuple[RailName, ...] = ()
    resting: Point | None = None
    object_rail: bool = False

    @property
    def certain(self) -> bool:
        """Nothing happened that the forecast follows only roughly (no kiss)."""
        return not self.kisses

    def facts(self, target: BallId, pocket: PocketId) -> tuple[Fact, ...]:
        """The shot's facts as the referee reads them (:mod:`rules.facts`)."""
        if not self.contact:
            return ()
        found: list[Fact] = [Hit((CUE, target))]
        if self.drops:
            found.append(Pocketing(target, pocket))
        elif self.object_rail:
            found.append(RailContact(target))
        found += [RailContact(CUE, rail) for rail in self.rails]
        found += [Hit((CUE, ball)) for ball in self.kisses]
        if self.scratch is not None:
            found.append(Pocketing(CUE, self.scratch))
        return tuple(found)

    def resting_balls(self, start: Positions, target: BallId) -> Positions:
        """The balls at rest after it: ``start`` with the cue ball and the object ball
        moved (or gone)."""
        balls = dict(start)
        if self.cue is None or self.scratch is not None:
            del balls[CUE]
        else:
            balls[CUE] = self.cue
        if self.drops:
            del balls[target]
        elif self.resting is not None:
            balls[target] = self.resting
        balls.update(self.moved)
        return Positions(balls)


@attrs.frozen
class _Ball:
    """The cue ball between events: position, velocity, and its spin as the velocity it
    would roll at (``roll``: R times the horizontal spin turned a quarter; equal to the
    velocity when it rolls), and its spin about the vertical."""

    x: float
    y: float
    vx: float
    vy: float
    rx: float
    ry: float
    spin: float = 0.0  # about the vertical, rad/s (side spin)


@attrs.frozen
class _Travel:
    """The cue ball's way after the contact: where it stops, the pocket it drops in, the
    balls it meets and where each of them stops, the cushions it touches."""

    rest: Point = (0.0, 0.0)
    scratch: PocketId | None = None
    kisses: tuple[BallId, ...] = ()
    moved: tuple[tuple[BallId, Point], ...] = ()
    rails: tuple[RailName, ...] = ()


class Forecaster:
    """Foretells pot strokes on one table (see the module): its size and mouths."""

    def __init__(
        self, spec: TableSpec, mouths: Mapping[PocketId, Point], rebound: CushionRebound
    ) -> None:
        geometry = spec.geometry
        self.rebound = rebound
        self.radius = geometry.ball_radius
        self.low = (self.radius, self.radius)
        self.high = (geometry.width - self.radius, geometry.length - self.radius)
        self.mouths = mouths
        self.reach = {
            pocket: (
                spec.side_pocket_width if pocket.value.endswith("c") else spec.corner_pocket_width
            )
            / 2
            + POCKET_REACH
            for pocket in mouths
        }

    # -- the stroke ----------------------------------------------------------------------

    def foresee(
        self,
        balls: Positions,
        target: BallId,
        mouth: Point,
        action: CueAction,
        margin: float,
    ) -> Forecast:
        """``action`` struck from ``balls`` at ``target``, meant for the pocket whose
        ``mouth`` it is sent to (``Pot.mouth``; its ``margin``: how far off its centre
        line the ball may come and drop)."""
        speed, roll, spin = _strike(action)
        heading = math.radians(action.aim) + squirt(action.a)
        ux, uy = math.cos(heading), math.sin(heading)
        cue, ball = balls[CUE], balls[target]
        # Where the cue ball's line first comes within two radii of the ball's centre.
        ahead = (ball[0] - cue[0]) * ux + (ball[1] - cue[1]) * uy
        across = (ball[0] - cue[0]) * uy - (ball[1] - cue[1]) * ux
        diameter = 2 * self.radius
        if ahead <= 0 or abs(across) >= diameter:
            return Forecast(contact=False)
        run_up = ahead - math.sqrt(diameter * diameter - across * across)
        at = _along_line(speed, roll, run_up)
        if at is None:
            return Forecast(contact=False)
        speed, roll, took = at
        spin = math.copysign(max(abs(spin) - SPIN_DECAY * took, 0.0), spin)
        hit = (cue[0] + run_up * ux, cue[1] + run_up * uy)
        nx, ny = (ball[0] - hit[0]) / diameter, (ball[1] - hit[1]) / diameter
        arriving = _Ball(hit[0], hit[1], speed * ux, speed * uy, roll * ux, roll * uy, spin)
        after, (ox, oy) = _collide(arriving, nx, ny)
        object_speed = math.hypot(ox, oy)
        line = (ox / object_speed, oy / object_speed)
        error, reach, resting = self._object_ball(ball, line, object_speed, mouth)
        to_pocket = math.dist(ball, mouth)
        drops = abs(error) <= margin and reach >= to_pocket
        others = {b: p for b, p in balls.items() if b not in (CUE, target)}
        travel = self._cue_ball(after, others)
        return Forecast(
            contact=True,
            drops=drops,
            line_error=error,
            heading=math.degrees(math.atan2(line[1], line[0])) % 360.0,
            cue=travel.rest,
            scratch=travel.scratch,
            kisses=travel.kisses,
            moved=travel.moved,
            rails=travel.rails,
            resting=resting,
            object_rail=reach >= to_pocket - diameter,
        )

    def _object_ball(
        self, ball: Point, line: tuple[float, float], speed: float, mouth: Point
    ) -> tuple[float, float, Point]:
        """The object ball sent along ``line`` at ``speed``: its line's signed error at
        the pocket's ``mouth``, how far it rolls, and where it would stop on a bare bed."""
        dx, dy = mouth[0] - ball[0], mouth[1] - ball[1]
        error = dx * line[1] - dy * line[0]
        reach = _reach(speed, 0.0)
        rest = (
            min(max(ball[0] + reach * line[0], self.low[0]), self.high[0]),
            min(max(ball[1] + reach * line[1], self.low[1]), self.high[1]),
        )
        return error, reach, rest

    # -- the cue ball after the contact ------------------------------------------------

    def _cue_ball(self, ball: _Ball, others: dict[BallId, Point]) -> _Travel:
        """The cue ball from the contact on, phase by phase (sliding, rolling), each cut
        short by the first cushion line or ball it reaches: a ball met is struck as the
        object ball was (it rolls off on the line of centres and stops there, met no
        more), up to :data:`MAX_KISSES`."""
        travel = _Travel()
        others = dict(others)
        while True:
            kind, duration, accel = _next_phase(ball)
            if duration <= 0:
                return attrs.evolve(travel, rest=(ball.x, ball.y))
            wall = self._first_wall(ball, duration, accel)
            end = duration if wall is None else wall[0]
            met = self._first_ball(ball, end, accel, kind, others)
            if met is not None:
                other, when = met
                ball = _moved(ball, when, accel, kind)
                travel = attrs.evolve(travel, kisses=(*travel.kisses, other))
                if len(travel.kisses) > MAX_KISSES:
                    return attrs.evolve(travel, rest=(ball.x, ball.y))
                ball, rest = self._kissed(ball, others.pop(other))
                travel = attrs.evolve(travel, moved=(*travel.moved, (other, rest)))
                continue
            ball = _moved(ball, end, accel, kind)
            if wall is None:
                continue
            point = (ball.x, ball.y)
            pocket = self._pocket_at(point)
            if pocket is not None:
                return attrs.evolve(travel, rest=point, scratch=pocket)
            travel = attrs.evolve(travel, rails=(*travel.rails, wall[1]))
            if len(travel.rails) >= MAX_CUSHIONS:
                return attrs.evolve(travel, rest=point)
            ball = self._bounced(ball, wall[1])

    def _kissed(self, ball: _Ball, other: Point) -> tuple[_Ball, Point]:
        """The cue ball striking a ball at rest at ``other`` as it did the object ball:
        the cue ball after, and where the other stops."""
        dx, dy = other[0] - ball.x, other[1] - ball.y
        apart = math.hypot(dx, dy) or 1.0
        nx, ny = dx / apart, dy / apart
        if ball.vx * nx + ball.vy * ny <= 0:
            return ball, other
        after, (ox, oy) = _collide(ball, nx, ny)
        reach = _reach(math.hypot(ox, oy), 0.0)
        rest = (
            min(max(other[0] + reach * nx, self.low[0]), self.high[0]),
            min(max(other[1] + reach * ny, self.low[1]), self.high[1]),
        )
        return after, rest

    def _first_wall(
        self, ball: _Ball, duration: float, accel: tuple[float, float]
    ) -> tuple[float, RailName] | None:
        """The first cushion line the ball's centre reaches within ``duration``."""
        found: tuple[float, RailName] | None = None
        for axis, position, speed, limit, rail in (
            (0, ball.x, ball.vx, self.low[0], RailName.LEFT),
            (0, ball.x, ball.vx, self.high[0], RailName.RIGHT),
            (1, ball.y, ball.vy, self.low[1], RailName.HEAD),
            (1, ball.y, ball.vy, self.high[1], RailName.FOOT),
        ):
            when = _first_root(0.5 * accel[axis], speed, position - limit, duration)
            if when is not None and (found is None or when < found[0]):
                found = (when, rail)
        return found

    def _first_ball(
        self,
        ball: _Ball,
        duration: float,
        accel: tuple[float, float],
        kind: str,
        others: dict[BallId, Point],
    ) -> tuple[BallId, float] | None:
        """The first of ``others`` the ball comes within two radii of in this phase's
        first ``duration`` seconds, and about when (the path as a polyline: a few
        points along a sliding curve)."""
        diameter = 2 * self.radius
        steps = SLIDE_SAMPLES if kind == _SLIDING else 1
        path = [_moved(ball, duration * step / steps, accel, kind) for step in range(steps + 1)]
        for step, (start, end) in enumerate(itertools.pairwise(path)):
            best: tuple[float, BallId] | None = None
            for other, at in others.items():
                share = _meeting_share((start.x, start.y), (end.x, end.y), at, diameter)
                if share is not None and (best is None or share < best[0]):
                    best = (share, other)
            if best is not None:
                return best[1], duration * (step + best[0]) / steps
        return None

    def _bounced(self, ball: _Ball, rail: RailName) -> _Ball:
        """Off a cushion, on its line: pooltool's cushion model
        (:class:`~sim.physics.table.CushionRebound`), in the cushion's frame (x into
        it, y along it, z up) turned to and from the table's."""
        radius = self.radius
        wx, wy = -ball.ry / radius, ball.rx / radius  # the spin from the roll
        turn = _FRAMES[rail]
        v, w = self.rebound(turn.into(ball.vx, ball.vy), turn.spin_into(wx, wy, ball.spin))
        vx, vy = turn.out(*v)
        wx, wy, spin = turn.spin_out(*w)
        if rail in (RailName.LEFT, RailName.RIGHT):
            x, y = (self.low[0] if rail is RailName.LEFT else self.high[0]), ball.y
        else:
            x, y = ball.x, (self.low[1] if rail is RailName.HEAD else self.high[1])
        return _Ball(x, y, vx, vy, wy * radius, -wx * radius, spin)

    def _pocket_at(self, point: Point) -> PocketId | None:
        for pocket, mouth in self.mouths.items():
            if math.dist(point, mouth) <= self.reach[pocket]:
                return pocket
        return None


# -- two balls ---------------------------------------------------------------------------


def _collide(ball: _Ball, nx: float, ny: float) -> tuple[_Ball, tuple[float, float]]:
    """``ball`` striking a ball at rest whose centre lies along (nx, ny): pooltool's
    frictional inelastic collision (its default, after Alciatore's TP A-5, A-6 and
    A-14), statement for statement in the collision's frame (x along the line of
    centres, y across it, z up). The ball after, and the other's velocity off it: along
    the line of centres, and across it the friction's impulse (the throw; the spin the
    friction gives it left out)."""
    radius = BALL_RADIUS
    # Into the frame: velocity and spin (from the roll: w = (-ry, rx) / R) turned by -n.
    vx, vy = ball.vx * nx + ball.vy * ny, -ball.vx * ny + ball.vy * nx
    wx0, wy0 = -ball.ry / radius, ball.rx / radius
    wx, wy, wz = wx0 * nx + wy0 * ny, -wx0 * ny + wy0 * nx, ball.spin
    e = BALL_RESTITUTION
    v1_n, v2_n = 0.5 * (1 - e) * vx, 0.5 * (1 + e) * vx
    pressed = abs(v2_n - v1_n)
    # The contact point's slip, the normal parts set aside: (0, vy + wz R, -wy R).
    cy, cz = vy + wz * radius, -wy * radius
    slip = math.hypot(cy, cz)
    ty = tz = 0.0  # the impulse along the contact, on ball 1
    sliding = slip > 1e-9
    if sliding:
        friction = ALCIATORE[0] + ALCIATORE[1] * math.exp(-ALCIATORE[2] * slip)
        ty, tz = -friction * pressed * cy / slip, -friction * pressed * cz / slip
        # Slip after, on ball 1 (vy + ty, w + dw) against ball 2 (-ty, dw): reversed?
        dwy, dwz = 2.5 / radius * -tz, 2.5 / radius * ty
        after_y = (vy + ty + (wz + dwz) * radius) - (-ty + dwz * -radius)
        after_z = (tz - (wy + dwy) * radius) - (-tz + dwy * radius)
        sliding = cy * after_y + cz * after_z > 0
    if not sliding:  # they roll on each other: the no-slip impulse
        ty = -(vy + radius * wz) / 7.0
        tz = -(-radius * wy) / 7.0
    dwy, dwz = 2.5 / radius * -tz, 2.5 / radius * ty
    if not sliding:
        dwy, dwz = -(5.0 / 14.0) * wy, -(5.0 / 14.0) * (vy / radius + wz)
    vy1, wy1, wz1 = vy + ty, wy + dwy, wz + dwz
    # Out of the frame (turned by n); the normal part of the spin kept.
    out_vx, out_vy = v1_n * nx - vy1 * ny, v1_n * ny + vy1 * nx
    out_wx, out_wy = wx * nx - wy1 * ny, wx * ny + wy1 * nx
    # The other ball takes the opposite of the impulse along the contact: its throw.
    other = (v2_n * nx + ty * ny, v2_n * ny - ty * nx)
    after = _Ball(ball.x, ball.y, out_vx, out_vy, out_wy * radius, -out_wx * radius, wz1)
    return after, other


# -- the cue strike ---------------------------------------------------------------------


def _strike(action: CueAction) -> tuple[float, float, float]:
    """The cue ball off the tip (pooltool's ``cue_strike`` with the cue level): its
    speed, its topspin as a rolling velocity along the stroke (a tip height ``b`` of 0.4
    radii gives the natural roll), and its side spin (rad/s about the vertical)."""
    offset = action.a**2 + action.b**2
    speed = 2 * action.speed / (1 + BALL_MASS / CUE_MASS + 2.5 * offset)
    return speed, 2.5 * action.b * speed, -2.5 * action.a * speed / BALL_RADIUS


# -- one ball on a straight line ------------------------------------------------------


def _along_line(speed: float, roll: float, travel: float) -> tuple[float, float, float] | None:
    """The speed and roll of a ball struck straight (``speed``, ``roll`` along its line)
    after ``travel`` metres, and the time it took, or None if it stops short."""
    slip = speed - roll
    friction = SLIDING_FRICTION * GRAVITY
    slide_time = 0.0
    if slip != 0:
        sign = 1.0 if slip > 0 else -1.0
        slide_time = 2 * abs(slip) / (7 * friction)
        decel = sign * friction
        slide = speed * slide_time - 0.5 * decel * slide_time**2
        if travel <= slide:
            when = _first_root(-0.5 * decel, speed, -travel, slide_time)
            if when is None:
                return None
            return speed - decel * when, roll + 2.5 * decel * when, when
        travel -= slide
        speed -= decel * slide_time
    rolling = ROLLING_FRICTION * GRAVITY
    left = speed * speed - 2 * rolling * travel
    if speed <= 0 or left <= 0:
        return None
    arrival = math.sqrt(left)
    return arrival, arrival, slide_time + (speed - arrival) / rolling


def _reach(speed: float, roll: float) -> float:
    """How far a ball goes on a straight line before it stops."""
    slip = speed - roll
    friction = SLIDING_FRICTION * GRAVITY
    slide_time = 2 * abs(slip) / (7 * friction)
    decel = friction if slip > 0 else -friction
    slide = speed * slide_time - 0.5 * decel * slide_time**2
    rolling_speed = max(speed - decel * slide_time, 0.0)
    return slide + rolling_speed**2 / (2 * ROLLING_FRICTION * GRAVITY)


# -- the cue ball in the plane ----------------------------------------------------------

_SLIDING, _ROLLING = "sliding", "rolling"


def _next_phase(ball: _Ball) -> tuple[str, float, tuple[float, float]]:
    """The ball's motion from here until it changes: (kind, duration, acceleration).
    Sliding while the cloth's contact point slips (the slip keeps its direction and
    shrinks at 7/2 of the friction's deceleration), then rolling to a stop."""
    sx, sy = ball.vx - ball.rx, ball.vy - ball.ry
    slip = math.hypot(sx, sy)
    if slip > RESTING_SPEED:
        friction = SLIDING_FRICTION * GRAVITY
        return _SLIDING, 2 * slip / (7 * friction), (-friction * sx / slip, -friction * sy / slip)
    speed = math.hypot(ball.vx, ball.vy)
    if speed <= RESTING_SPEED:
        return _ROLLING, 0.0, (0.0, 0.0)
    decel = ROLLING_FRICTION * GRAVITY
    return _ROLLING, speed / decel, (-decel * ball.vx / speed, -decel * ball.vy / speed)


def _moved(ball: _Ball, time: float, accel: tuple[float, float], kind: str) -> _Ball:
    """The ball ``time`` seconds on in a phase of constant ``accel``."""
    x = ball.x + ball.vx * time + 0.5 * accel[0] * time * time
    y = ball.y + ball.vy * time + 0.5 * accel[1] * time * time
    vx, vy = ball.vx + accel[0] * time, ball.vy + accel[1] * time
    if kind == _SLIDING:
        # The spin takes up what the pace loses, times 5/2 (a solid ball's inertia).
        rx, ry = ball.rx - 2.5 * accel[0] * time, ball.ry - 2.5 * accel[1] * time
    else:
        rx, ry = vx, vy
    # Side spin dies at a constant rate (pooltool's spinning friction) while it moves.
    spin = math.copysign(max(abs(ball.spin) - SPIN_DECAY * time, 0.0), ball.spin)
    return _Ball(x, y, vx, vy, rx, ry, spin)


@attrs.frozen
class _Frame:
    """A cushion's frame against the table's: its x (into the cushion) and y axes as
    table directions; z is up in both. A mirror frame turns spin the other way."""

    x: tuple[float, float]
    y: tuple[float, float]

    @property
    def mirror(self) -> bool:
        return self.x[0] * self.y[1] - self.x[1] * self.y[0] < 0

    def into(self, vx: float, vy: float) -> tuple[float, float]:
        return (vx * self.x[0] + vy * self.x[1], vx * self.y[0] + vy * self.y[1])

    def out(self, a: float, b: float) -> tuple[float, float]:
        return (a * self.x[0] + b * self.y[0], a * self.x[1] + b * self.y[1])

    def spin_into(self, wx: float, wy: float, wz: float) -> tuple[float, float, float]:
        sign = -1.0 if self.mirror else 1.0  # spin is an axial vector
        a, b = self.into(wx, wy)
        return (sign * a, sign * b, sign * wz)

    def spin_out(self, a: float, b: float, c: float) -> tuple[float, float, float]:
        sign = -1.0 if self.mirror else 1.0
        wx, wy = self.out(a, b)
        return (sign * wx, sign * wy, sign * c)


_FRAMES = {
    RailName.RIGHT: _Frame((1.0, 0.0), (0.0, 1.0)),
    RailName.LEFT: _Frame((-1.0, 0.0), (0.0, 1.0)),
    RailName.FOOT: _Frame((0.0, 1.0), (-1.0, 0.0)),
    RailName.HEAD: _Frame((0.0, -1.0), (1.0, 0.0)),
}


def _first_root(a: float, b: float, c: float, limit: float) -> float | None:
    """The least t in (0, limit] with a t^2 + b t + c = 0 where the value is crossing
    from the table's side (c's sign) to the other, or None."""
    roots: list[float]
    if abs(a) < 1e-12:
        roots = [] if b == 0 else [-c / b]
    else:
        disc = b * b - 4 * a * c
        if disc < 0:
            return None
        root = math.sqrt(disc)
        roots = [(-b - root) / (2 * a), (-b + root) / (2 * a)]
    good = [t for t in roots if 1e-12 < t <= limit]
    return min(good) if good else None


def _meeting_share(start: Point, end: Point, point: Point, reach: float) -> float | None:
    """The share (0..1) of the segment start-end at which it first comes within
    ``reach`` of ``point``, or None."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    fx, fy = start[0] - point[0], start[1] - point[1]
    a = dx * dx + dy * dy
    c = fx * fx + fy * fy - reach * reach
    if c <= 0:
        return 0.0
    if a == 0:
        return None
    b = 2 * (fx * dx + fy * dy)
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    share = (-b - math.sqrt(disc)) / (2 * a)
    return share if 0.0 <= share <= 1.0 else None
