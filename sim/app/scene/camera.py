"""The camera: an orbit around a target point, with presets and smooth moves.

The camera is described by what it looks at (``target``), from which direction
(``heading``: 0 looks up the table along +y, as Panda3D's; ``pitch``: negative looks
down) and how far away. Presets set a goal; every frame the camera eases toward it, so
switching views or following the balls never jumps.

The overhead and broadcast views are framed, not set: the distance and a shift of the
lens (its film offset) are worked out so the table's pockets and cloth fall inside the
part of the window the HUD leaves free (:attr:`CameraRig.free`, from
:mod:`sim.app.hud.layout`) and the rails inside the window, whatever its shape.

:func:`top_down_camera` sets a fixed view at once, without the rig (tests and
screenshots).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from rules.geometry import Point, wrapped_degrees
from sim.app.hud.layout import Box
from sim.app.scene.tablegeometry import TableLayout

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

    from sim.physics.table import TableSpec

MIN_DISTANCE = 0.25
MAX_DISTANCE = 6.0
FIT_DISTANCES = (0.3, 40.0)  # the range a framed view's distance is sought in
FIT_STEPS = 40  # halvings of that range: well under a millimetre
NEAR = 0.05  # a framed point must be this far in front of the camera (metres)
WINDOW = Box(-1.0, 1.0, -1.0, 1.0)  # the whole window, in render2d units
WINDOW_MARGIN = 0.02  # the rails' outer edge stays this far inside the window
WHOLE_WINDOW = WINDOW.shrunk(WINDOW_MARGIN)  # a rig's free part with no HUD over it
POCKET_POINTS = 12  # points round each pocket's rim that a framed view keeps clear
FRAMED = ("overhead", "broadcast")  # the presets framed into the free part
FOLLOW_STEPS = 8  # halvings of a framed view's lean toward the balls
MIN_PITCH = -89.5  # straight down is degenerate for Panda3D's heading
MAX_PITCH = -3.0
EASE_PER_SECOND = 6.0  # how quickly the camera closes on its goal
# Behind the cue ball: metres from the point looked at, degrees down, and how far ahead of
# the cue ball along the aim that point is. A closer, lower camera (0.9 m, 14 degrees on
# the ball) showed the cue ball filling the screen and the table as a sliver.
BEHIND_DISTANCE = 1.5
BEHIND_PITCH = -21.0
BEHIND_LOOK_AHEAD = 0.3
# When a pocket in sight from there would be under the HUD's bands (a side pocket beside a
# cue ball on the rail, under the cue-ball widget): the picture lifted by a lens shift
# (render2d units), the camera pulled back if a lift alone puts a far pocket under the
# scoreboard, and then tilted further down; each tried in turn, the least change first.
BEHIND_PITCHES = (BEHIND_PITCH, -30.0, -40.0, -50.0)
# Behind a cue raised over a ball the camera looks down this much more steeply than the
# cue rises: on the cue's own line it sat inside the stick, and the view was all wood.
OVER_THE_CUE = 8.0
BEHIND_DISTANCES = (1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0, 5.0)
BEHIND_LIFTS = tuple(0.05 * i for i in range(17))
POCKET_CLEAR = 0.06  # a pocket's centre this far inside the free part, or off the window


Vec3 = tuple[float, float, float]


@attrs.define
class View:
    target: Vec3
    heading: float
    pitch: float
    distance: float = BEHIND_DISTANCE
    # Where the middle of the view is drawn, in render2d units (the lens's film offset):
    # a framed view is shifted into the part of the window the HUD leaves free.
    shift: tuple[float, float] = (0.0, 0.0)

    def axes(self) -> tuple[Vec3, Vec3, Vec3]:
        """The camera's right, forward and up directions (Panda3D's, for its HPR)."""
        h, p = math.radians(self.heading), math.radians(self.pitch)
        right = (math.cos(h), math.sin(h), 0.0)
        forward = (-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), math.sin(p))
        up = (math.sin(h) * math.sin(p), -math.cos(h) * math.sin(p), math.cos(p))
        return right, forward, up

    def position(self) -> Vec3:
        _, forward, _ = self.axes()
        return tuple(t - f * self.distance for t, f in zip(self.target, forward, strict=True))  # type: ignore[return-value]

    def project(self, point: Vec3, tan_x: float, tan_y: float) -> tuple[float, float] | None:
        """Where ``point`` is drawn, in render2d units, through a lens whose half field
        of view has tangents ``tan_x`` across and ``tan_y`` up; None: not in front."""
        return self.projector(tan_x, tan_y)(point)

    def projector(self, tan_x: float, tan_y: float) -> Callable[[Vec3], tuple[float, float] | None]:
        """:meth:`project` for many points (the view's axes worked out once)."""
        (rx, ry, rz), (fx, fy, fz), (ux, uy, uz) = self.axes()
        cx, cy, cz = self.position()
        sx, sy = self.shift

        def project(point: Vec3) -> tuple[float, float] | None:
            dx, dy, dz = point[0] - cx, point[1] - cy, point[2] - cz
            depth = dx * fx + dy * fy + dz * fz
            if depth < NEAR:
                return None
            x = (dx * rx + dy * ry + dz * rz) / depth / tan_x
            y = (dx * ux + dy * uy + dz * uz) / depth / tan_y
            return (x + sx, y + sy)

        return project


@attrs.frozen
class TableOutline:
    """The points of the table a framed view must show: ``clear`` (the rims of the
    pockets and the corners of the cloth, where every ball is) inside the free part of
    the window, ``whole`` (the rails' outer corners) inside the window."""

    clear: tuple[Vec3, ...]
    whole: tuple[Vec3, ...]
    pockets: tuple[Vec3, ...]  # the pockets' centres, on the cloth

    @staticmethod
    def of(layout: TableLayout, ball_radius: float) -> TableOutline:
        clear: list[Vec3] = [
            (x, y, ball_radius) for x in (0.0, layout.width) for y in (0.0, layout.length)
        ]
        for _, centre, radius in layout.pockets:
            for k in range(POCKET_POINTS):
                angle = 2 * math.pi * k / POCKET_POINTS
                x = float(centre[0]) + radius * math.cos(angle)
                y = float(centre[1]) + radius * math.sin(angle)
                clear.append((x, y, 0.0))
        o = layout.outer
        whole = tuple((x, y, layout.rail_top) for x in (o.x0, o.x1) for y in (o.y0, o.y1))
        pockets = tuple((float(c[0]), float(c[1]), 0.0) for _, c, _ in layout.pockets)
        return TableOutline(clear=tuple(clear), whole=whole, pockets=pockets)


def _extent(points: list[tuple[float, float]]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Box(min(xs), max(xs), min(ys), max(ys))


def _shift_range(extent: Box, inside: Box) -> tuple[float, float, float, float] | None:
    """The shifts (x from, x to, y from, y to) that put ``extent`` inside ``inside``."""
    if extent.width > inside.width or extent.height > inside.height:
        return None
    return (
        inside.x0 - extent.x0,
        inside.x1 - extent.x1,
        inside.y0 - extent.y0,
        inside.y1 - extent.y1,
    )


def _placed(
    view: View, outline: TableOutline, free: Box, tan_x: float, tan_y: float
) -> View | None:
    """``view`` shifted so the outline's clear points are in ``free`` (as central as the
    rails' staying in the window allows), or None if at its distance they cannot be."""
    project = attrs.evolve(view, shift=(0.0, 0.0)).projector(tan_x, tan_y)
    clear = [project(p) for p in outline.clear]
    whole = [project(p) for p in outline.whole]
    if any(p is None for p in clear + whole):
        return None
    inner = _extent([p for p in clear if p is not None])
    outer = _extent([p for p in whole if p is not None])
    a = _shift_range(inner, free)
    b = _shift_range(outer, WINDOW.shrunk(WINDOW_MARGIN))
    if a is None or b is None:
        return None
    x0, x1, y0, y1 = max(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), min(a[3], b[3])
    if x0 > x1 or y0 > y1:
        return None
    centre_x = (free.x0 + free.x1) / 2 - (inner.x0 + inner.x1) / 2
    centre_y = (free.y0 + free.y1) / 2 - (inner.y0 + inner.y1) / 2
    return attrs.evolve(view, shift=(min(x1, max(x0, centre_x)), min(y1, max(y0, centre_y))))


def framed(view: View, outline: TableOutline, free: Box, tan_x: float, tan_y: float) -> View:
    """``view``'s direction and target, brought as close as it can be with the table's
    pockets and cloth inside ``free`` and its rails inside the window (render2d units;
    ``tan_x``, ``tan_y``: the lens's half field of view)."""
    near, far = FIT_DISTANCES
    best = _placed(attrs.evolve(view, distance=far), outline, free, tan_x, tan_y)
    if best is None:  # nothing fits (a window too small for its panels): as far as allowed
        return attrs.evolve(view, distance=far)
    for _ in range(FIT_STEPS):
        middle = (near + far) / 2
        placed = _placed(attrs.evolve(view, distance=middle), outline, free, tan_x, tan_y)
        if placed is None:
            near = middle
        else:
            far, best = middle, placed
    return best


def behind_pitch(elevation: float) -> float:
    """The pitch of the view behind the cue ball: its own (:data:`BEHIND_PITCH`), or
    :data:`OVER_THE_CUE` steeper than a cue raised to ``elevation`` degrees."""
    return max(MIN_PITCH, min(BEHIND_PITCH, -(elevation + OVER_THE_CUE)))


def clear_of_the_bands(
    view: View, outline: TableOutline, free: Box, tan_x: float, tan_y: float
) -> View:
    """``view`` (behind the cue ball) as it is if every pocket in sight is in ``free``;
    else the first lift and distance (:data:`BEHIND_LIFTS`, :data:`BEHIND_DISTANCES`)
    at which each is, or off the window (then the pitches of :data:`BEHIND_PITCHES`);
    the view as it was if none does."""
    if _pockets_clear(view, outline, free, tan_x, tan_y):
        return view
    # What the view shows of the cloth and the pockets' rims stays shown: a pocket is not
    # brought out from under the dock by sending the shot's far end under the scoreboard.
    shown = _inside(view, outline.clear, free, tan_x, tan_y)
    for pitch in (view.pitch, *(p for p in BEHIND_PITCHES if p < view.pitch)):
        for distance in BEHIND_DISTANCES:
            for lift in BEHIND_LIFTS:
                candidate = attrs.evolve(view, pitch=pitch, distance=distance, shift=(0, lift))
                if _pockets_clear(candidate, outline, free, tan_x, tan_y) and len(
                    _inside(candidate, shown, free, tan_x, tan_y)
                ) == len(shown):
                    return candidate
    return view


def _inside(
    view: View, points: tuple[Vec3, ...], free: Box, tan_x: float, tan_y: float
) -> tuple[Vec3, ...]:
    """Those of ``points`` the view draws inside ``free``."""
    project = view.projector(tan_x, tan_y)
    drawn = [(point, project(point)) for point in points]
    return tuple(point for point, at in drawn if at is not None and free.contains(*at))


def _pockets_clear(
    view: View, outline: TableOutline, free: Box, tan_x: float, tan_y: float
) -> bool:
    """No pocket is drawn in the window outside ``free`` (under a band of the HUD)."""
    project = view.projector(tan_x, tan_y)
    inside = free.shrunk(POCKET_CLEAR)
    for pocket in outline.pockets:
        at = project(pocket)
        if at is None:  # behind the camera
            continue
        x, y = at
        seen = abs(x) < 1 + POCKET_CLEAR and abs(y) < 1 + POCKET_CLEAR
        if seen and not inside.contains(x, y):
            return False
    return True


def _angle_towards(current: float, goal: float, share: float) -> float:
    """Ease an angle the short way round."""
    return current + wrapped_degrees(goal - current) * share


class CameraRig:
    """Drives ``base.camera`` toward a goal view; presets: behind the cue ball, overhead,
    broadcast. ``free``: the part of the window (render2d units) the framed presets
    fit the table into; the whole window until the HUD says otherwise."""

    def __init__(self, base: ShowBase, spec: TableSpec) -> None:
        self.base = base
        self.geometry = spec.geometry
        self.outline = TableOutline.of(TableLayout.from_table(spec.plan()), spec.ball_radius)
        self.free = WHOLE_WINDOW
        self._cue: Point | None = None
        self._aim = 90.0
        self._elevation = 0.0
        self._behind: tuple[object, View] | None = None  # the last behind view, and for what
        self.preset = "overhead"
        self.current = self.overhead_view()
        self.goal = self.current
        self.apply()

    # -- presets ---------------------------------------------------------------------

    def _lens_tangents(self) -> tuple[float, float]:
        """The half field of view's tangents, across and up, for the window's shape now
        (worked out from the shape: the lens may not have heard of a resize yet)."""
        across = math.tan(math.radians(self.base.camLens.getFov()[0]) / 2)
        return across, across / self.base.getAspectRatio()

    def _framed(self, view: View) -> View:
        return framed(view, self.outline, self.free, *self._lens_tangents())

    def overhead_view(self) -> View:
        """The whole table from above, the head rail on the right of the screen."""
        g = self.geometry
        view = View(target=(g.width / 2, g.length / 2, 0.0), heading=-90.0, pitch=MIN_PITCH)
        return self._framed(view)

    def broadcast_view(self) -> View:
        """A television angle: from beside the table, high, the whole table in frame."""
        g = self.geometry
        view = View(target=(g.width / 2, g.length / 2, 0.0), heading=-90.0, pitch=-48.0)
        return self._framed(view)

    def behind_view(self, cue: Point, aim: float, elevation: float = 0.0) -> View:
        """Down the line of the shot from behind the cue ball (``aim`` in pooltool's
        degrees: 0 = +x, 90 = +y), high and far enough back that the object ball and the
        pocket beyond it are in view (pooltool's own aim view sits 2 m back, 10 degrees
        up, on a narrower lens): the camera looks at a point ahead of the cue ball, which
        sits in the lower part of the frame with the shot in front of it. Not framed:
        the far pockets are often out of sight from here (a call goes overhead, see
        :mod:`sim.app.modes.aim`). But no pocket in sight is left under the HUD's bands
        (:func:`clear_of_the_bands`): a cue ball by a rail has the pocket beside it in
        view, under the cue-ball widget, unless the picture is lifted. A cue raised to
        ``elevation`` degrees is looked down on from above (:func:`behind_pitch`)."""
        h = math.radians(aim)
        ahead = BEHIND_LOOK_AHEAD
        view = View(
            target=(
                cue[0] + math.cos(h) * ahead,
                cue[1] + math.sin(h) * ahead,
                self.geometry.ball_radius,
            ),
            heading=aim - 90.0,
            pitch=behind_pitch(elevation),
            distance=BEHIND_DISTANCE,
        )
        # Worked out again only when the shot, the free part or the lens changes (the aim
        # mode asks every frame); a copy, as a goal is moved by the player's drags.
        key = (cue, aim, view.pitch, self.free, self._lens_tangents())
        if self._behind is None or self._behind[0] != key:
            fitted = clear_of_the_bands(view, self.outline, self.free, *self._lens_tangents())
            self._behind = (key, fitted)
        return attrs.evolve(self._behind[1])

    def show(
        self, preset: str, cue: Point | None = None, aim: float = 90.0, elevation: float = 0.0
    ) -> None:
        self.preset = preset
        self._cue, self._aim, self._elevation = cue, aim, elevation
        if preset == "behind" and cue is not None:
            self.goal = self.behind_view(cue, aim, elevation)
        elif preset == "broadcast":
            self.goal = self.broadcast_view()
        else:
            self.preset = "overhead"
            self.goal = self.overhead_view()

    def set_free(self, free: Box) -> None:
        """The HUD leaves ``free`` (render2d units) to the table now: the view is framed
        again for it."""
        if free != self.free:
            self.free = free
            self.reframe()

    def reframe(self) -> None:
        """Frame the preset on show again (the free part or the window's shape changed);
        a view the player moved stays as it is."""
        if self.preset != "free":
            self.show(self.preset, self._cue, self._aim, self._elevation)

    def shows_every_pocket(self) -> bool:
        """Whether every pocket's centre is in the free part of the window in the view the
        camera is going to (a framed preset: always; behind the cue ball: seldom)."""
        return self._pockets_free(self.goal.target)

    def jump(self) -> None:
        """Go to the goal at once (first frame, screenshots)."""
        self.current = attrs.evolve(self.goal)
        self.apply()

    # -- player moves ----------------------------------------------------------------

    def orbit(self, heading: float, pitch: float) -> None:
        self.goal.heading += heading
        self.goal.pitch = min(MAX_PITCH, max(MIN_PITCH, self.goal.pitch + pitch))
        self.preset = "free"

    def zoom(self, factor: float) -> None:
        self.goal.distance = min(MAX_DISTANCE, max(MIN_DISTANCE, self.goal.distance * factor))

    def pan(self, right: float, forward: float) -> None:
        """Move the target across the table, in the camera's own directions (metres)."""
        h = math.radians(self.goal.heading)
        x, y, z = self.goal.target
        dx = math.cos(h) * right - math.sin(h) * forward
        dy = math.sin(h) * right + math.cos(h) * forward
        g = self.geometry
        self.goal.target = (min(g.width, max(0.0, x + dx)), min(g.length, max(0.0, y + dy)), z)
        self.preset = "free"

    def follow(self, points: list[Point], share: float = 0.4) -> None:
        """Lean toward the moving balls: the target moves up to ``share`` of the way from
        the table's middle to their middle, so the action is central; in a framed view no
        further than every pocket, rim and all, stays in the free part of the window (there
        is little room to lean: the table fills it), so no ball drops out of sight or
        under a panel."""
        if not points:
            return
        g = self.geometry
        x = sum(p[0] for p in points) / len(points)
        y = sum(p[1] for p in points) / len(points)
        cx, cy = g.width / 2, g.length / 2

        def leaned(part: float) -> Vec3:
            return (cx + part * (x - cx), cy + part * (y - cy), g.ball_radius)

        rims = self.outline.clear  # the pockets whole, not only their centres
        if self.preset not in FRAMED or self._pockets_free(leaned(share), rims):
            self.goal.target = leaned(share)
            return
        low, high = 0.0, share  # the lean kept, and one too far
        for _ in range(FOLLOW_STEPS):
            middle = (low + high) / 2
            fits = self._pockets_free(leaned(middle), rims)
            low, high = (middle, high) if fits else (low, middle)
        self.goal.target = leaned(low)

    def _pockets_free(self, target: Vec3, points: tuple[Vec3, ...] | None = None) -> bool:
        """Whether every pocket's centre (or every one of ``points``) is in the free part
        with the goal at ``target``."""
        project = attrs.evolve(self.goal, target=target).projector(*self._lens_tangents())
        for point in self.outline.pockets if points is None else points:
            at = project(point)
            if at is None or not self.free.contains(*at):
                return False
        return True

    # -- every frame -------------------------------------------------------------------

    def update(self, dt: float) -> None:
        share = 1.0 - math.exp(-EASE_PER_SECOND * max(0.0, dt))
        c, g = self.current, self.goal
        c.target = tuple(a + (b - a) * share for a, b in zip(c.target, g.target, strict=True))  # type: ignore[assignment]
        c.heading = _angle_towards(c.heading, g.heading, share)
        c.pitch += (g.pitch - c.pitch) * share
        c.distance += (g.distance - c.distance) * share
        c.shift = (
            c.shift[0] + (g.shift[0] - c.shift[0]) * share,
            c.shift[1] + (g.shift[1] - c.shift[1]) * share,
        )
        self.apply()

    def apply(self) -> None:
        camera = self.base.camera
        camera.setPos(*self.current.position())
        camera.setHpr(self.current.heading, self.current.pitch, 0.0)
        # The film offset moves the picture by -2 * offset / film size (render2d units).
        lens = self.base.camLens
        film = lens.getFilmSize()
        sx, sy = self.current.shift
        lens.setFilmOffset(-sx * film[0] / 2, -sy * film[1] / 2)


# --------------------------------------------------------------------------------------
# Fixed views (tests and screenshots)


def top_down_camera(base: ShowBase, spec: TableSpec, margin: float = 0.03) -> None:
    """Look straight down on the whole table, long side horizontal, head rail on the
    left; fits the rails' outer edges plus ``margin`` (a fraction) into the window."""
    lay = TableLayout.from_table(spec.plan())
    half_long = (lay.outer.y1 - lay.outer.y0) / 2 * (1 + margin)
    half_short = (lay.outer.x1 - lay.outer.x0) / 2 * (1 + margin)
    lens = base.camLens
    lens.setAspectRatio(base.win.getXSize() / base.win.getYSize())
    lens.setFov(40)
    lens.setFilmOffset(0, 0)  # a rig's framing, if one was here before
    fov_h, fov_v = (math.radians(v) for v in lens.getFov())
    height = max(half_long / math.tan(fov_h / 2), half_short / math.tan(fov_v / 2))
    lens.setNearFar(0.05, height + 2.0)
    base.disableMouse()
    base.camera.setPos(lay.width / 2, lay.length / 2, lay.rail_top + height)
    base.camera.setHpr(90, -90, 0)
