"""The camera: an orbit around a target point, with presets and smooth moves.

The camera is described by what it looks at (``target``), from which direction
(``heading``: 0 looks up the table along +y, as Panda3D's; ``pitch``: negative looks
down) and how far away. Presets set a goal; every frame the camera eases toward it, so
switching views or following the balls never jumps.

:func:`top_down_camera` sets a fixed view at once, without the rig (tests and
screenshots).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs

from rules.geometry import Point, TableGeometry
from sim.app.tablegeometry import TableLayout

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

    from sim.physics.table import TableSpec

MIN_DISTANCE = 0.25
MAX_DISTANCE = 6.0
MIN_PITCH = -89.5  # straight down is degenerate for Panda3D's heading
MAX_PITCH = -3.0
EASE_PER_SECOND = 6.0  # how quickly the camera closes on its goal
RAIL_MARGIN = 0.2  # metres of rail and pocket beyond the cushion noses, each side
# Behind the cue ball: metres from the point looked at, degrees down, and how far ahead of
# the cue ball along the aim that point is. A closer, lower camera (0.9 m, 14 degrees on
# the ball) showed the cue ball filling the screen and the table as a sliver.
BEHIND_DISTANCE = 1.5
BEHIND_PITCH = -21.0
BEHIND_LOOK_AHEAD = 0.3


@attrs.define
class View:
    target: tuple[float, float, float]
    heading: float
    pitch: float
    distance: float

    def position(self) -> tuple[float, float, float]:
        h, p = math.radians(self.heading), math.radians(self.pitch)
        forward = (-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), math.sin(p))
        return tuple(t - f * self.distance for t, f in zip(self.target, forward, strict=True))  # type: ignore[return-value]


def _angle_towards(current: float, goal: float, share: float) -> float:
    """Ease an angle the short way round."""
    delta = (goal - current + 180.0) % 360.0 - 180.0
    return current + delta * share


class CameraRig:
    """Drives ``base.camera`` toward a goal view; presets: behind the cue ball, overhead,
    broadcast."""

    def __init__(self, base: ShowBase, geometry: TableGeometry) -> None:
        self.base = base
        self.geometry = geometry
        self.current = self.overhead_view()
        self.goal = self.current
        self.preset = "overhead"
        self.apply()

    # -- presets ---------------------------------------------------------------------

    def overhead_view(self) -> View:
        """The whole table from above, the head rail on the left of the screen."""
        g = self.geometry
        # The table with its rails, between the HUD's bars (a fifth of the height).
        along, across = g.length + 2 * RAIL_MARGIN, (g.width + 2 * RAIL_MARGIN) / 0.8
        fov_h, fov_v = (math.radians(a) for a in self.base.camLens.getFov())
        distance = max(along / 2 / math.tan(fov_h / 2), across / 2 / math.tan(fov_v / 2))
        return View(
            target=(g.width / 2, g.length / 2, 0.0),
            heading=-90.0,
            pitch=MIN_PITCH,
            distance=distance,
        )

    def broadcast_view(self) -> View:
        """A television angle: from beside the table, high, the whole table in frame."""
        g = self.geometry
        return View(
            target=(g.width / 2, g.length / 2, 0.0),
            heading=-90.0,
            pitch=-48.0,
            distance=g.length * 1.25,
        )

    def behind_view(self, cue: Point, aim: float) -> View:
        """Down the line of the shot from behind the cue ball (``aim`` in pooltool's
        degrees: 0 = +x, 90 = +y), high and far enough back that the object ball and the
        pocket beyond it are in view (pooltool's own aim view sits 2 m back, 10 degrees
        up, on a narrower lens): the camera looks at a point ahead of the cue ball, which
        sits in the lower part of the frame with the shot in front of it."""
        h = math.radians(aim)
        ahead = BEHIND_LOOK_AHEAD
        return View(
            target=(
                cue[0] + math.cos(h) * ahead,
                cue[1] + math.sin(h) * ahead,
                self.geometry.ball_radius,
            ),
            heading=aim - 90.0,
            pitch=BEHIND_PITCH,
            distance=BEHIND_DISTANCE,
        )

    def show(self, preset: str, cue: Point | None = None, aim: float = 90.0) -> None:
        self.preset = preset
        if preset == "behind" and cue is not None:
            self.goal = self.behind_view(cue, aim)
        elif preset == "broadcast":
            self.goal = self.broadcast_view()
        else:
            self.preset = "overhead"
            self.goal = self.overhead_view()

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
        """Lean toward the moving balls: the target moves ``share`` of the way from the
        table's middle to their middle, so the action is central and the table in view."""
        if not points:
            return
        g = self.geometry
        x = sum(p[0] for p in points) / len(points)
        y = sum(p[1] for p in points) / len(points)
        cx, cy = g.width / 2, g.length / 2
        self.goal.target = (cx + share * (x - cx), cy + share * (y - cy), g.ball_radius)

    # -- every frame -------------------------------------------------------------------

    def update(self, dt: float) -> None:
        share = 1.0 - math.exp(-EASE_PER_SECOND * max(0.0, dt))
        c, g = self.current, self.goal
        c.target = tuple(a + (b - a) * share for a, b in zip(c.target, g.target, strict=True))  # type: ignore[assignment]
        c.heading = _angle_towards(c.heading, g.heading, share)
        c.pitch += (g.pitch - c.pitch) * share
        c.distance += (g.distance - c.distance) * share
        self.apply()

    def apply(self) -> None:
        camera = self.base.camera
        camera.setPos(*self.current.position())
        camera.setHpr(self.current.heading, self.current.pitch, 0.0)


# --------------------------------------------------------------------------------------
# Fixed views (tests and screenshots)


def top_down_camera(base: ShowBase, spec: TableSpec, margin: float = 0.03) -> None:
    """Look straight down on the whole table, long side horizontal, head rail on the
    left; fits the rails' outer edges plus ``margin`` (a fraction) into the window."""
    lay = TableLayout.from_table(spec.build())
    half_long = (lay.outer.y1 - lay.outer.y0) / 2 * (1 + margin)
    half_short = (lay.outer.x1 - lay.outer.x0) / 2 * (1 + margin)
    lens = base.camLens
    lens.setAspectRatio(base.win.getXSize() / base.win.getYSize())
    lens.setFov(40)
    fov_h, fov_v = (math.radians(v) for v in lens.getFov())
    height = max(half_long / math.tan(fov_h / 2), half_short / math.tan(fov_v / 2))
    lens.setNearFar(0.05, height + 2.0)
    base.disableMouse()
    base.camera.setPos(lay.width / 2, lay.length / 2, lay.rail_top + height)
    base.camera.setHpr(90, -90, 0)
