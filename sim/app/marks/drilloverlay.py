"""A drill drawn on the table: the zone where the cue ball must stop, washed onto the
cloth with its edge drawn, and a ring in each pocket the goal names (a ball allowed any
pocket marks none: every pocket is right), so the player sees the goal where they look."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from panda3d.core import (
    CardMaker,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    GeomVertexFormat,
    GeomVertexWriter,
    LineSegs,
    NodePath,
    TransparencyAttrib,
)

from rules import PocketId
from rules.geometry import Point, TableGeometry
from sim.app.scene.cue import draw_circle
from sim.play.drill import CircleZone, Drill, RectangleZone

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

ZONE = (0.35, 0.8, 1.0)  # a cool blue: not the call's gold, not a foul's red
ZONE_WASH = 0.22
POCKET_RING = 0.075  # metres: round a pocket's mouth
POCKET = (0.45, 1.0, 0.55)
SEGMENTS = 64


def _fan(centre: Point, radius: float, z: float) -> NodePath:
    """A filled circle on the cloth: a fan of triangles around its centre."""
    data = GeomVertexData("zone", GeomVertexFormat.getV3(), Geom.UHStatic)
    vertex = GeomVertexWriter(data, "vertex")
    vertex.addData3(centre[0], centre[1], z)
    for i in range(SEGMENTS + 1):
        angle = 2 * math.pi * i / SEGMENTS
        vertex.addData3(
            centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle), z
        )
    triangles = GeomTriangles(Geom.UHStatic)
    for i in range(1, SEGMENTS + 1):
        triangles.addVertices(0, i, i + 1)
    geom = Geom(data)
    geom.addPrimitive(triangles)
    node = GeomNode("zone-fill")
    node.addGeom(geom)
    return NodePath(node)


class DrillOverlay:
    """The drill's goal on the cloth, under the balls; shown while the table is."""

    def __init__(
        self,
        base: ShowBase,
        geometry: TableGeometry,
        pockets: Mapping[PocketId, Point],
        drill: Drill,
    ) -> None:
        self.node: NodePath = base.render.attachNewNode("drill-overlay")
        self.node.setTransparency(TransparencyAttrib.MAlpha)
        self.node.setLightOff()
        self.node.setDepthWrite(False)
        z = geometry.ball_radius * 0.05  # on the cloth, under the balls and their shadows
        zone = drill.goal.zone
        edge = LineSegs("drill-zone-edge")
        edge.setThickness(3.0)
        edge.setColor(*ZONE, 0.95)
        if isinstance(zone, CircleZone):
            fill = _fan(zone.centre, zone.radius, z)
            fill.reparentTo(self.node)
            fill.setColor(*ZONE, ZONE_WASH)
            fill.setTwoSided(True)
            draw_circle(edge, zone.centre, zone.radius, z)
        elif isinstance(zone, RectangleZone):
            card = CardMaker("drill-zone")
            card.setFrame(zone.low[0], zone.high[0], zone.low[1], zone.high[1])
            fill = self.node.attachNewNode(card.generate())
            fill.setP(-90)  # the card lies in x-z; turn it flat onto the cloth
            fill.setZ(z)
            fill.setColor(*ZONE, ZONE_WASH)
            fill.setTwoSided(True)
            (x0, y0), (x1, y1) = zone.low, zone.high
            edge.moveTo(x0, y0, z)
            for x, y in ((x1, y0), (x1, y1), (x0, y1), (x0, y0)):
                edge.drawTo(x, y, z)
        self.node.attachNewNode(edge.create())
        rings = LineSegs("drill-pockets")
        rings.setThickness(4.0)
        rings.setColor(*POCKET, 0.95)
        for pot in drill.goal.pots:
            for pocket in pot.pockets or ():
                draw_circle(rings, pockets[pocket], POCKET_RING, z)
        ringed = self.node.attachNewNode(rings.create())
        # Over the rails: a corner's ring would hide behind its cushions' noses.
        ringed.setDepthTest(False)
        ringed.setBin("fixed", 10)

    def show(self, shown: bool) -> None:
        if shown:
            self.node.show()
        else:
            self.node.hide()

    def destroy(self) -> None:
        self.node.removeNode()
