"""The hint's ghost: a ring where the hinted stroke leaves the cue ball, and a faint line
to it from the cue ball, so the person sees the position the stroke plays for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from panda3d.core import LineSegs, NodePath, TransparencyAttrib

from rules.geometry import Point, TableGeometry
from sim.app.cue import draw_circle
from sim.play.controller import Stage, TableController

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

GHOST = (0.75, 0.95, 1.0)  # a cool white, unlike the call's gold
SHOWN_IN = (Stage.AIM, Stage.PLACE)


class HintGhost:
    """Drawn once a frame from the controller's hint; rebuilt only when it changes."""

    def __init__(self, base: ShowBase, geometry: TableGeometry) -> None:
        self.geometry = geometry
        self.node: NodePath = base.render.attachNewNode("hint-ghost")
        self.node.setTransparency(TransparencyAttrib.MAlpha)
        self.node.setLightOff()
        self.node.setDepthWrite(False)
        self.node.hide()
        self._shown: object = None

    def update(self, controller: TableController) -> None:
        shown = self.shown(controller)
        if shown == self._shown:
            return
        self._shown = shown
        for child in self.node.getChildren():
            child.removeNode()
        if shown is None:
            self.node.hide()
            return
        cue, after = shown
        radius = self.geometry.ball_radius
        z = radius * 0.12
        lines = LineSegs("hint")
        lines.setThickness(3.0)
        lines.setColor(*GHOST, 0.95)
        draw_circle(lines, after, radius, z)
        draw_circle(lines, after, radius * 0.35, z)
        lines.setColor(*GHOST, 0.3)
        lines.moveTo(cue[0], cue[1], z)
        lines.drawTo(after[0], after[1], z)
        self.node.attachNewNode(lines.create())
        self.node.show()

    @staticmethod
    def shown(controller: TableController) -> tuple[Point, Point] | None:
        """The cue ball now and where the hint leaves it; None without a hint to show."""
        hint = controller.hint
        cue = controller.cue_ball()
        if hint is None or hint.cue_after is None or cue is None:
            return None
        if controller.stage not in SHOWN_IN:
            return None
        return cue, hint.cue_after

    def hide(self) -> None:
        self.node.hide()
        self._shown = "hidden"

    def destroy(self) -> None:
        self.node.removeNode()
