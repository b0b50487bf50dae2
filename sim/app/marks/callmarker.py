"""The call on the table: a gold ring around the called ball, one in the called pocket,
and a faint line between them, so the player sees what they called (and a ball picked
but not yet given its pocket) where they are looking, not only in the HUD's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from panda3d.core import LineSegs

from rules import BallId, PocketId
from rules.geometry import Point, TableGeometry
from sim.app.hud.widgets import GOLD
from sim.app.marks.clothmark import ClothMark
from sim.app.scene.cue import draw_circle
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

BALL_RING = 1.45  # the called ball's ring, in ball radii: clear of the ball itself
POCKET_RING = 0.055  # metres: about a pocket's mouth
SHOWN_IN = (Stage.AIM, Stage.PLACE)  # while the call can still be changed


Called = tuple[Point, Point | None]  # where the called ball is; the pocket's centre


class CallMarker(ClothMark[Called]):
    """Drawn once a frame from the controller's call; rebuilt only when it changes."""

    name = "call-marker"

    def __init__(
        self, base: ShowBase, geometry: TableGeometry, pockets: Mapping[PocketId, Point]
    ) -> None:
        super().__init__(base, geometry)
        self.pockets = dict(pockets)

    def draw(self, lines: LineSegs, shown: Called) -> None:
        ball, pocket = shown
        z = self.z
        lines.setColor(*GOLD[:3], 0.9)
        draw_circle(lines, ball, self.geometry.ball_radius * BALL_RING, z)
        if pocket is not None:
            draw_circle(lines, pocket, POCKET_RING, z)
            lines.setColor(*GOLD[:3], 0.35)
            lines.moveTo(ball[0], ball[1], z)
            lines.drawTo(pocket[0], pocket[1], z)

    def shown(self, controller: TableController) -> Called | None:
        """Where the called ball is and the called pocket's centre (None: no pocket yet);
        None when nothing is called or the call can no longer change."""
        if controller.stage not in SHOWN_IN:
            return None
        balls = controller.balls()
        call = controller.call
        ball: BallId | None = call.ball if call is not None else controller.call_ball
        if ball is None or ball not in balls:
            return None
        pocket = self.pockets[call.pocket] if call is not None else None
        return balls[ball], pocket
