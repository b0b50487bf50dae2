"""Setting the practice table up by hand: drag a ball to move it, drag it off the cloth
(or right-click it, or Delete over it) to take it off, bring one back from the HUD's
tray; Space (or Done) shoots from the table as it is set up."""

from __future__ import annotations

from typing import Any

from rules import CUE, BallId, BallInHand
from rules.geometry import Point, distance
from sim.app.hud.hud import Hud
from sim.app.modes.aim import BALL_PICK
from sim.app.modes.pointer import DragTarget
from sim.app.modes.table import TableMode
from sim.app.modes.window import Mouse


class SetupMode(TableMode):
    """The set-up: seen from overhead, so the whole cloth is in reach. A ball follows a
    left drag and is put down where it is released, if the table accepts it there (else
    it stays, and the HUD says why in one line); released off the cloth, it goes to the
    tray."""

    name = "setup"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.dragging: BallId | None = None  # the ball a left drag moves

    def key_map(self) -> dict[str, Any]:
        keys = super().key_map()
        keys["delete"] = self.remove_pointed
        return keys

    def enter(self) -> None:
        self.dragging = None
        self.window.show_view("overhead")

    def exit(self) -> None:
        self.dragging = None
        self.window.show_view(self.window.view)

    def space(self) -> None:
        self.controller.set_up.done()

    def set_up(self) -> None:
        """U again: the set-up left unchanged, the table as it was before it."""
        self.controller.set_up.cancel()

    # -- the mouse ------------------------------------------------------------------------

    def ball_at(self, point: Point) -> BallId | None:
        """The ball under ``point`` (a click this close to a ball's centre is on it)."""
        balls = self.controller.balls()
        radius = self.controller.game.setup.spec.ball_radius
        return min(
            (b for b in balls if distance(balls[b], point) <= radius * BALL_PICK),
            key=lambda b: distance(balls[b], point),
            default=None,
        )

    def press(self, button: str, mouse: Mouse) -> None:
        super().press(button, mouse)
        pointer = self.window.pointer
        if pointer.target is not None and button == "mouse1":
            return  # a press on the HUD
        point = self.window.table_point(mouse)
        ball = None if point is None else self.ball_at(point)
        if button == "mouse1" and ball is not None:
            self.dragging = ball
            pointer.target = "hud"  # the camera and the aim stay; the ball moves
        elif button == "mouse3" and ball is not None:
            pointer.target = "hud"
            self.controller.set_up.current().remove(ball)

    def press_hud(self, hud: Hud, x: float, y: float) -> DragTarget | None:
        return "hud" if hud.covers(x, y) else None

    def release(self, button: str, mouse: Mouse | None) -> None:
        ball, self.dragging = self.dragging, None
        if button != "mouse1" or ball is None:
            return
        point = None if mouse is None else self.window.table_point(mouse)
        table = self.controller.set_up.current()
        spec = self.controller.game.setup.spec
        if point is None or not spec.geometry.on_bed(point):
            table.remove(ball)  # dropped off the cloth: back to the tray
            self.say(f"{_name(ball)} is off the table (the tray brings it back)")
            return
        table.move(ball, point)
        self.say("")

    def remove_pointed(self) -> None:
        """Delete: the ball under the pointer off the table."""
        point = self.window.table_point()
        ball = None if point is None else self.ball_at(point)
        if ball is not None:
            self.controller.set_up.current().remove(ball)

    # -- drawing ------------------------------------------------------------------------------

    def shows_kitchen(self) -> bool:
        """With the referee on and the cue ball in hand in the kitchen, the kitchen."""
        table = self.controller.set_up.table
        return table is not None and table.in_hand is BallInHand.KITCHEN

    def shown_balls(self, balls: dict[BallId, Point]) -> dict[BallId, Point]:
        """The dragged ball under the pointer (where it is put down on release)."""
        if self.dragging is None:
            return balls
        point = self.window.table_point()
        if point is None:
            return balls
        return {**balls, self.dragging: point}


def _name(ball: BallId) -> str:
    return "the cue ball" if ball == CUE else f"the {ball}"
