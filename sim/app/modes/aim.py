"""Setting up a stroke: the lag, aiming, and a 10-ball call (a ball clicked, then its
pocket)."""

from __future__ import annotations

from typing import Any

import attrs

from rules import CUE, BallId, PocketId
from rules.geometry import Point, distance
from sim.app.hud.hud import Hud
from sim.app.modes.pointer import DragTarget
from sim.app.modes.table import TableMode
from sim.app.scene.camera import View
from sim.app.scene.cue import CueStick, first_contact
from sim.app.scene.scene import LAG_BALL
from sim.physics.table import pocket_centre

BALL_PICK = 1.3  # a click this many ball radii from a ball's centre is on the ball
POCKET_PICK = 0.14  # metres from a pocket's centre


class AimMode(TableMode):
    """The shooter aims: the arrows and a left drag turn the aim, the meter and the
    cue-ball widget set power and tip; a click on a ball aims at it (and in 10-ball
    picks it to call), a click elsewhere aims at that spot."""

    name = "aim"
    aiming = True

    def turn(self, degrees: float) -> None:
        self.controller.turn(degrees)

    def press_hud(self, hud: Hud, x: float, y: float) -> DragTarget | None:
        power, tip = hud.over_power_meter(x, y), hud.over_tip_widget(x, y)
        if power is not None:
            self.controller.set_power(power)
            return "power"
        if tip is not None:
            self.controller.set_tip(*tip)
            return "tip"
        if hud.covers(x, y):  # a press on a panel is not one on the table
            return "hud"
        return "aim"

    def frame(self, dt: float) -> None:
        rig = self.window.rig
        if rig is not None and rig.preset == "behind":  # behind the cue ball, along the aim
            self.window.show_view("behind")

    def draw_cue(self, cue: CueStick, balls: dict[BallId, Point]) -> None:
        ball = balls.get(CUE)
        if ball is None or self.computer_choosing():
            cue.hide()
            return
        cue.place(ball, self.controller.aim, self.controller.cue_clearance().elevation)
        cue.draw_aid(ball, self.controller.aim, self.aid_balls(balls))

    def computer_choosing(self) -> bool:
        """The cue as it lies (straight at the ball on, often through another ball) is
        no stroke of the computer's: none is drawn until the one it chose is loaded."""
        return self.controller.seat.choosing

    def aid_balls(self, balls: dict[BallId, Point]) -> dict[BallId, Point]:
        """The balls the aiming aid's line may meet."""
        return balls

    def click_table(self, point: Point) -> None:
        controller = self.controller
        balls = controller.balls()
        radius = controller.game.setup.spec.ball_radius
        hit = min(
            (b for b in balls if b != CUE and distance(balls[b], point) <= radius * BALL_PICK),
            key=lambda b: distance(balls[b], point),
            default=None,
        )
        if hit is not None:
            # A ball the stroke meets first already is called as it is aimed (a cut set
            # up, the hint's stroke); any other ball is aimed at straight.
            if not (controller.can_call and self.meets_first(hit, balls)):
                controller.aim_at(balls[hit])
            if controller.can_call:  # 10-ball: the ball, then its pocket, is a call
                controller.call_ball = hit
                self.say(f"the {hit}: click its pocket to call it")
            return
        if not self.click_pocket(point):
            controller.aim_at(point)

    def meets_first(self, ball: BallId, balls: dict[BallId, Point]) -> bool:
        """Whether the stroke as aimed sends the cue ball into ``ball`` first."""
        if CUE not in balls:
            return False
        others = {b: p for b, p in balls.items() if b != CUE}
        geometry = self.controller.game.setup.spec.geometry
        return first_contact(balls[CUE], self.controller.aim.heading, others, geometry)[1] == ball

    def click_pocket(self, point: Point) -> bool:
        """A click at ``point`` that is a pocket's (True: taken)."""
        return False


class CallMode(AimMode):
    """10-ball, a ball picked to call: a click on a pocket calls the shot (ball and
    pocket); a click on another ball picks that one instead.

    Every pocket can be called from every camera: a view that does not show them all
    (behind the cue ball, low, sees the far pockets seldom; a view turned by hand may
    not) goes overhead while the pocket is picked, as ball in hand does, and back once
    the call is made. A player judges a pocket by the path to it, which overhead shows
    whole; a marker at the window's edge for a pocket out of sight would not."""

    name = "call"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.view_before: tuple[str, View] | None = None  # where the call went overhead from

    def enter(self) -> None:
        rig = self.window.rig
        if rig is not None and not rig.shows_every_pocket():
            self.view_before = (rig.preset, attrs.evolve(rig.goal))
            rig.show("overhead")

    def exit(self) -> None:
        """The call is made (or dropped): back to the view the player called from."""
        rig, before = self.window.rig, self.view_before
        self.view_before = None
        if rig is None or before is None:
            return
        preset, goal = before
        if preset == "behind":
            self.window.show_view("behind")  # along the aim, which the pick turned
        else:
            rig.goal, rig.preset = goal, preset

    def click_pocket(self, point: Point) -> bool:
        controller = self.controller
        pocket = self.pocket_near(point)
        if pocket is None or controller.call_ball is None:
            return False
        controller.call_shot(controller.call_ball, pocket)
        return True

    def pocket_near(self, point: Point) -> PocketId | None:
        table = self.controller.game.setup.spec.plan()
        nearest = min(PocketId, key=lambda p: distance(pocket_centre(table, p), point))
        return nearest if distance(pocket_centre(table, nearest), point) < POCKET_PICK else None


class LagMode(AimMode):
    """Each player's lag stroke: aimed like a shot, the two lag balls waiting behind
    the head string; a click on the table does nothing."""

    name = "lag"

    def shown_balls(self, balls: dict[BallId, Point]) -> dict[BallId, Point]:
        a, b = self.controller.lag.balls()
        return {CUE: a, LAG_BALL: b}

    def aid_balls(self, balls: dict[BallId, Point]) -> dict[BallId, Point]:
        return {}

    def click_table(self, point: Point) -> None:
        pass
