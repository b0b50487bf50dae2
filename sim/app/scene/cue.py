"""The cue stick at the aim, and the aiming aid (the ghost ball where the cue ball would
first touch a ball, the line there, and the object ball's line after it)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from panda3d.core import LineSegs, TransparencyAttrib

from rules import CUE, BallId
from rules.geometry import Point, TableGeometry
from sim.physics.models import cue_model_path
from sim.play.geometry.cueclearance import TIP_GAP
from sim.play.table.turn import Aim

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase


def first_contact(
    cue: Point, direction: float, balls: Mapping[BallId, Point], geometry: TableGeometry
) -> tuple[Point, BallId | None]:
    """Where the cue ball's centre would be when it first touches a ball going straight
    along ``direction`` (degrees), and that ball; or where it meets a cushion line."""
    dx, dy = math.cos(math.radians(direction)), math.sin(math.radians(direction))
    reach = 2 * geometry.ball_radius
    best: tuple[float, BallId | None] = (math.inf, None)
    for ball, (x, y) in balls.items():
        if ball == CUE:
            continue
        fx, fy = x - cue[0], y - cue[1]
        along = fx * dx + fy * dy
        across2 = fx * fx + fy * fy - along * along
        if along <= 0 or across2 >= reach * reach:
            continue
        t = along - math.sqrt(reach * reach - across2)
        if 0 < t < best[0]:
            best = (t, ball)
    if best[1] is None:  # no ball: the first cushion line (nose lines moved in by R)
        r = geometry.ball_radius
        limits = []
        if dx > 1e-12:
            limits.append((geometry.width - r - cue[0]) / dx)
        if dx < -1e-12:
            limits.append((r - cue[0]) / dx)
        if dy > 1e-12:
            limits.append((geometry.length - r - cue[1]) / dy)
        if dy < -1e-12:
            limits.append((r - cue[1]) / dy)
        best = (max(0.0, min(limits, default=0.0)), None)
    t = best[0]
    return (cue[0] + t * dx, cue[1] + t * dy), best[1]


def draw_circle(
    lines: LineSegs, centre: Point, radius: float, z: float, segments: int = 48
) -> None:
    """A circle on the plane at height ``z``, as one closed line of ``segments``."""
    for i in range(segments + 1):
        angle = 2 * math.pi * i / segments
        point = (centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle), z)
        if i == 0:
            lines.moveTo(*point)
        else:
            lines.drawTo(*point)


class CueStick:
    """pooltool's cue model, set to the aim each frame; and the aiming aid."""

    def __init__(self, base: ShowBase, geometry: TableGeometry) -> None:
        self.geometry = geometry
        self.base = base
        self.focus = base.render.attachNewNode("cue-focus")
        self.stick = self.focus.attachNewNode("cue-stick")
        self.model = base.loader.loadModel(str(cue_model_path()))
        self.model.reparentTo(self.stick)
        self.aid = base.render.attachNewNode("aiming-aid")
        self.aid.setTransparency(TransparencyAttrib.MAlpha)
        self.aid.setLightOff()
        self.show_aid = True
        self._aid_key: object = None

    def place(self, cue: Point, aim: Aim, elevation: float) -> None:
        """The tip just behind the cue ball, offset by the tip position, the butt raised
        by ``elevation`` (the aim's, or more to clear the balls behind the cue ball)."""
        r = self.geometry.ball_radius
        self.focus.setPos(cue[0], cue[1], r)
        # pooltool's frame: the model lies along +x from its tip; turned to point back
        # from the ball, then rolled up by the elevation (as pooltool's own renderer).
        self.focus.setHpr(aim.direction + 180.0, 0.0, -elevation)
        self.model.setPos(r + TIP_GAP, 0, 0)
        self.stick.setPos(0, -aim.a * r, aim.b * r)
        self.focus.show()

    def hide(self) -> None:
        self.focus.hide()
        self.aid.hide()

    def draw_aid(self, cue: Point, aim: Aim, balls: Mapping[BallId, Point]) -> None:
        if not self.show_aid:
            self.aid.hide()
            return
        self.aid.show()
        key = (cue, aim.heading, tuple(sorted(balls.items())))
        if key == self._aid_key:
            return
        self._aid_key = key
        for child in self.aid.getChildren():
            child.removeNode()
        # Along the cue ball's own line (its side spin's squirt), not the cue's.
        ghost, ball = first_contact(cue, aim.heading, balls, self.geometry)
        z = self.geometry.ball_radius * 0.15
        lines = LineSegs("aim-line")
        lines.setThickness(2.0)
        lines.setColor(1, 1, 1, 0.55)
        lines.moveTo(cue[0], cue[1], z)
        lines.drawTo(ghost[0], ghost[1], z)
        if ball is not None:
            target = balls[ball]
            # The object ball leaves along the line of centres at contact.
            ox, oy = target[0] - ghost[0], target[1] - ghost[1]
            norm = math.hypot(ox, oy) or 1.0
            lines.setColor(1.0, 0.85, 0.3, 0.7)
            lines.moveTo(target[0], target[1], z)
            lines.drawTo(target[0] + ox / norm * 0.35, target[1] + oy / norm * 0.35, z)
        self.aid.attachNewNode(lines.create())
        ring = LineSegs("ghost")
        ring.setThickness(2.0)
        ring.setColor(1, 1, 1, 0.8)
        draw_circle(ring, ghost, self.geometry.ball_radius, z, segments=40)
        self.aid.attachNewNode(ring.create())
