"""The area the game marks on the cloth and the balls it points out (14.1's rack outline,
where the balls are racked again while the game goes on, and the break ball left out of
that rack), so a player sees whether a ball lies in the area before playing it."""

from __future__ import annotations

from panda3d.core import LineSegs

from rules import BallId
from rules.geometry import Point
from sim.app.marks.clothmark import ClothMark
from sim.app.scene.cue import draw_circle
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage

OUTLINE = (0.95, 0.95, 0.88)  # a chalk line's white
BREAK_RING = (0.55, 0.85, 1.0)  # a cool blue, unlike the call's gold and the hint's white
RING = 1.6  # the marked ball's ring, in ball radii: outside the call's ring
SHOWN_IN = (Stage.AIM, Stage.PLACE, Stage.CHOOSE)  # the balls at rest, the shot not yet played

Marked = tuple[tuple[Point, ...], tuple[Point, ...]]  # the area's corners; the balls' centres


class RackArea(ClothMark[Marked]):
    """Drawn once a frame from the game's state; rebuilt only when it changes."""

    name = "rack-area"

    def shown(self, controller: TableController) -> Marked | None:
        """The game's area, and where its pointed-out balls lie while the shot is to be
        played; None where the game marks no area (or the table is being set up)."""
        state = controller.state
        if state is None or controller.stage is Stage.SETUP:
            return None
        area = state.rack_area()
        if area is None:
            return None
        balls = controller.balls()
        marked: tuple[BallId, ...] = state.marked_balls()
        if controller.stage not in SHOWN_IN:
            marked = ()
        return area, tuple(balls[ball] for ball in marked if ball in balls)

    def draw(self, lines: LineSegs, shown: Marked) -> None:
        area, balls = shown
        z = self.z
        lines.setColor(*OUTLINE, 0.55)
        for i, (x, y) in enumerate((*area, area[0])):
            if i == 0:
                lines.moveTo(x, y, z)
            else:
                lines.drawTo(x, y, z)
        lines.setColor(*BREAK_RING, 0.95)
        for centre in balls:
            draw_circle(lines, centre, self.geometry.ball_radius * RING, z)
