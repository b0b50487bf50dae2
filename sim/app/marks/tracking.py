"""Tracking lines on the cloth: the cue ball's path in white, the first object ball's in
its ball's colour, a ring where each stops and a ghost ball where the cue ball first
touches it (:class:`sim.physics.tracking.TrackingLines`, from the preview of the resting
aim).

The lines are built once per set of lines (a few line strips) and left alone after: a
frame with the same lines costs nothing but drawing them, and a window at rest draws
nothing at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from panda3d.core import LineSegs, TransparencyAttrib

from rules.facts import CUE
from rules.geometry import Point
from sim.app.scene.colours import BALL_COLOURS
from sim.app.scene.cue import draw_circle
from sim.app.scene.scene import SHADOW_CAMERA_MASK, Quality, to_linear
from sim.physics.tracking import BallPath, TrackingLines

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

# Just over the cloth, under the balls' equators: the lines lie on the bed and a ball
# standing on one hides it, as a chalk line would be hidden.
LINE_HEIGHT = 0.002
THICKNESS = 3.0  # pixels
LINE_ALPHA = 0.9
RING_ALPHA = 0.95
CONTACT_ALPHA = 0.6  # the ghost ball at the first contact: fainter than where balls stop
CUE_COLOUR = (1.0, 1.0, 1.0)


class TrackingOverlay:
    """The tracking lines' node under ``render``: :meth:`show` the controller's lines each
    frame (None hides them). With the ``quality`` preset the colours are given in linear
    light, as simplepbr blends and tone-maps them (else a yellow reads as cream).
    ``colour``: every line in it (the review's best option, beside the paths of the shot
    played drawn in the balls' colours), as the preset is to be given it."""

    def __init__(
        self,
        base: ShowBase,
        ball_radius: float,
        quality: Quality = "fast",
        colour: tuple[float, float, float] | None = None,
    ) -> None:
        self.radius = ball_radius
        self.linear = quality == "quality"
        self.colour = colour
        self.node = base.render.attachNewNode("tracking-lines")
        self.node.setLightOff()  # their own colour, in either graphics preset
        self.node.setTransparency(TransparencyAttrib.MAlpha)
        self.node.setDepthWrite(False)
        self.node.setBin("fixed", 10)  # over the cloth and its shadows, under nothing else
        self.node.hide(SHADOW_CAMERA_MASK)  # no shadow: no pass of the shadow camera
        self._shown: TrackingLines | None = None

    @property
    def showing(self) -> TrackingLines | None:
        """The lines on the cloth now (None: none)."""
        return None if self.node.isHidden() else self._shown

    def show(self, lines: TrackingLines | None) -> None:
        """Draw ``lines`` (built again only when they are other lines); None hides them."""
        if lines is None:
            self.node.hide()
            return
        if lines is not self._shown:
            self._build(lines)
        self.node.show()

    def _build(self, lines: TrackingLines) -> None:
        self._shown = lines
        for child in self.node.getChildren():
            child.removeNode()
        for path in lines.paths:
            # The replay's ball colours (the cue ball's white), so a path reads the same
            # in both; a ball of no standard set is drawn white.
            colour = CUE_COLOUR if path.ball == CUE else BALL_COLOURS.get(path.ball, CUE_COLOUR)
            self._path(path, self.colour or (to_linear(colour) if self.linear else colour))
        if lines.contact is not None:
            contact = self.colour or CUE_COLOUR  # white
            self._ring("tracking-contact", lines.contact, (*contact, CONTACT_ALPHA))

    def _path(self, path: BallPath, colour: tuple[float, float, float]) -> None:
        if len(path.points) >= 2:
            segs = LineSegs(f"tracking-{path.ball}")
            segs.setThickness(THICKNESS)
            segs.setColor(*colour, LINE_ALPHA)
            (x, y), *rest = path.points
            segs.moveTo(x, y, LINE_HEIGHT)
            for x, y in rest:
                segs.drawTo(x, y, LINE_HEIGHT)
            self.node.attachNewNode(segs.create())
        self._ring(f"tracking-end-{path.ball}", path.end, (*colour, RING_ALPHA))

    def _ring(self, name: str, centre: Point, colour: tuple[float, float, float, float]) -> None:
        """A ball's outline on the cloth at ``centre``."""
        ring = LineSegs(name)
        ring.setThickness(THICKNESS - 1.0)
        ring.setColor(*colour)
        draw_circle(ring, centre, self.radius, LINE_HEIGHT, segments=40)
        self.node.attachNewNode(ring.create())

    def destroy(self) -> None:
        self.node.removeNode()
