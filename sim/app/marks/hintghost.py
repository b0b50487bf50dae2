"""The hint's ghost: a ring where the hinted stroke leaves the cue ball, and a faint line
along the cue ball's way to it (a kick's legs, the way round a ball), so the person sees
the position the stroke plays for and how it gets there."""

from __future__ import annotations

from panda3d.core import LineSegs

from rules.geometry import Point
from sim.app.marks.clothmark import ClothMark
from sim.app.scene.cue import draw_circle
from sim.play.table.controller import TableController
from sim.play.table.turn import HintShown, Stage

GHOST = (0.75, 0.95, 1.0)  # a cool white, unlike the call's gold
SHOWN_IN = (Stage.AIM, Stage.PLACE)


class HintGhost(ClothMark[tuple[Point, Point, tuple[Point, ...]]]):
    """Drawn once a frame from the controller's hint; rebuilt only when it changes."""

    name = "hint-ghost"
    # The hint last seen and the stroke it loaded (the cue ball, aim, power, tip and
    # elevation): once the person changes the stroke, the ring would show where another
    # stroke leaves the cue ball, so it goes.
    _hinted: tuple[HintShown, tuple[object, ...]] | None = None

    def shown(self, controller: TableController) -> tuple[Point, Point, tuple[Point, ...]] | None:
        """The cue ball now, where the hint leaves it and its way there; None without a
        hint to show, or once the stroke is no longer the hint's."""
        hint = controller.seat.hint
        cue = controller.cue_ball()
        if hint is None or hint.cue_after is None or cue is None:
            return None
        if controller.stage not in SHOWN_IN:
            return None
        aim = controller.aim
        stroke = (cue, aim.direction, aim.power, aim.a, aim.b, aim.elevation)
        if self._hinted is None or self._hinted[0] is not hint:
            self._hinted = (hint, stroke)  # the stroke as the hint loaded it
        elif self._hinted[1] != stroke:
            return None
        return cue, hint.cue_after, hint.cue_path

    def draw(self, lines: LineSegs, shown: tuple[Point, Point, tuple[Point, ...]]) -> None:
        cue, after, path = shown
        radius, z = self.geometry.ball_radius, self.z
        lines.setColor(*GHOST, 0.95)
        draw_circle(lines, after, radius, z)
        draw_circle(lines, after, radius * 0.35, z)
        lines.setColor(*GHOST, 0.3)
        way = path if len(path) >= 2 else (cue, after)
        lines.moveTo(way[0][0], way[0][1], z)
        for x, y in way[1:]:
            lines.drawTo(x, y, z)
