"""A mark drawn on the cloth from the controller's state, once a frame, and rebuilt only
when what it shows changes: the call's rings (:mod:`sim.app.marks.callmarker`) and the hint's
ghost (:mod:`sim.app.marks.hintghost`) are two."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from panda3d.core import LineSegs, NodePath, TransparencyAttrib

from rules.geometry import TableGeometry
from sim.play.table.controller import TableController

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

Shown = TypeVar("Shown")
HIDDEN = "hidden"  # nothing drawn until the next update, whatever it then shows


class ClothMark(Generic[Shown]):
    """Lines on the cloth: :meth:`shown` says what to show now (None: nothing), and
    :meth:`draw` draws it into fresh line segments; both are the mark's own."""

    name = "cloth-mark"

    def __init__(self, base: ShowBase, geometry: TableGeometry) -> None:
        self.geometry = geometry
        self.node: NodePath = base.render.attachNewNode(self.name)
        self.node.setTransparency(TransparencyAttrib.MAlpha)
        self.node.setLightOff()
        self.node.setDepthWrite(False)
        self.node.hide()
        self._shown: object = None

    @property
    def z(self) -> float:
        """On the cloth, under the balls' equators."""
        return self.geometry.ball_radius * 0.12

    def shown(self, controller: TableController) -> Shown | None:
        raise NotImplementedError

    def draw(self, lines: LineSegs, shown: Shown) -> None:
        raise NotImplementedError

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
        lines = LineSegs(self.name)
        lines.setThickness(3.0)
        self.draw(lines, shown)
        self.node.attachNewNode(lines.create())
        self.node.show()

    def hide(self) -> None:
        """Off the table for a while (the replay viewer over it); the next update draws
        it again."""
        self.node.hide()
        self._shown = HIDDEN

    def destroy(self) -> None:
        self.node.removeNode()
