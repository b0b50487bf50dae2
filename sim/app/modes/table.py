"""What every mode of the table answers: the stroke's keys, the camera, the HUD's meter
and tip widget, the wheel; and the table drawn at rest. Each stage's mode changes the
few things that differ (what Space does, whether the aim turns, what a click does)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rules import BallId, Declaration
from rules.geometry import Point
from sim.app.hud.hud import Hud
from sim.app.modes.base import Mode
from sim.app.modes.pointer import DragTarget
from sim.app.modes.window import Mouse
from sim.app.scene.cue import CueStick
from sim.play.table.controller import TableController

POWER_STEP = 0.02  # an arrow key or a wheel step over the meter
TIP_STEP = 0.05  # I J K L, in ball radii
ELEVATION_STEP = 2.0  # E / D, degrees


class TableMode(Mode):
    """A mode of the table (the controller's stage). By default: Space strikes, the aim
    stays, a click on the table does nothing, the cue stick is put away."""

    table_underneath = True
    # The aim turns (the arrows, a drag), and the meter and tip widget take presses.
    aiming: ClassVar[bool] = False

    @property
    def controller(self) -> TableController:
        controller = self.window.controller
        assert controller is not None, "a table mode with no game on the table"
        return controller

    def key_map(self) -> dict[str, Callable[[], None]]:
        window = self.window
        keys: dict[str, Callable[[], None]] = {"space": self.space, "enter": self.space}
        for side, sign in (("left", 1.0), ("right", -1.0)):
            for shift, step in (("", 1.0), ("shift-", 0.1)):
                for repeat in ("", "-repeat"):
                    keys[f"{shift}arrow_{side}{repeat}"] = self._turner(sign * step)
        for direction, sign in (("up", 1.0), ("down", -1.0)):
            for repeat in ("", "-repeat"):
                keys[f"arrow_{direction}{repeat}"] = self._power_stepper(sign * POWER_STEP)
        tips = {"i": (0.0, TIP_STEP), "k": (0.0, -TIP_STEP), "j": (TIP_STEP, 0.0)}
        for key, (da, db) in {**tips, "l": (-TIP_STEP, 0.0)}.items():
            keys[key] = self._tipper(da, db)
        keys["e"] = lambda: self.elevate(ELEVATION_STEP)
        keys["d"] = lambda: self.elevate(-ELEVATION_STEP)
        keys["s"] = lambda: self.declare(Declaration.SAFETY)
        keys["p"] = lambda: self.declare(Declaration.PUSH_OUT)
        keys["b"] = lambda: self.controller.pick_up_cue_ball()
        keys["g"] = self.toggle_aid
        keys["t"] = window.toggle_tracking
        keys["h"] = self.toggle_help
        keys["f"] = window.toggle_panels
        keys["w"] = self.toggle_details
        keys["r"] = lambda: window.open_replay()
        keys["x"] = self.take_extension
        keys["backspace"] = self.take_again
        keys["u"] = self.set_up
        # "?" is "/" with shift on most keyboards, and Panda3D names it so
        keys["/"] = keys["?"] = keys["shift-/"] = self.ask_hint
        keys["o"] = self.offer_stalemate
        for key, preset in (("1", "behind"), ("2", "overhead"), ("3", "broadcast")):
            keys[key] = self._viewer(preset)
        keys["escape"] = window.open_menu
        return keys

    # One closure per key (a lambda in a loop would see the loop's last value).
    def _turner(self, degrees: float) -> Callable[[], None]:
        return lambda: self.turn(degrees)

    def _power_stepper(self, step: float) -> Callable[[], None]:
        return lambda: self.power(step)

    def _tipper(self, da: float, db: float) -> Callable[[], None]:
        return lambda: self.tip(da, db)

    def _viewer(self, preset: str) -> Callable[[], None]:
        return lambda: self.window.choose_view(preset)

    # -- the stroke -------------------------------------------------------------------------

    def space(self) -> None:
        self.controller.strike()

    def take_again(self) -> None:
        """Backspace: the last shot back, its stroke loaded (the first try kept)."""
        self.controller.branches.take_back()

    def set_up(self) -> None:
        """U: set the practice table up by hand, from the balls as they lie."""
        self.controller.set_up.begin()

    def ask_hint(self) -> None:
        """/ or ?: what the computer would play here, loaded on the cue when it answers."""
        self.controller.seat.ask_hint()

    def offer_stalemate(self) -> None:
        """O: offer the other player a stalemate (GEN-16), once the rack has been quiet."""
        self.controller.stalemate.make_offer()

    def turn(self, degrees: float) -> None:
        """The aim turns only while a stroke is set up (AIM, LAG)."""

    def power(self, step: float) -> None:
        controller = self.controller
        controller.set_power(controller.aim.power + step)

    def tip(self, da: float, db: float) -> None:
        aim = self.controller.aim
        self.controller.set_tip(aim.a + da, aim.b + db)

    def elevate(self, degrees: float) -> None:
        self.controller.set_elevation(self.controller.aim.elevation + degrees)

    def declare(self, declaration: Declaration) -> None:
        current = self.controller.declaration
        self.controller.declare(None if current is declaration else declaration)

    def take_extension(self) -> None:
        """X: more time on this shot on the shot clock (B-18), and said."""
        self.controller.shot_clock.take_extension()
        state = self.controller.state
        seconds = state.options.shot_clock_extension_s if state is not None else None
        if self.window.hud is not None and seconds is not None:
            self.window.hud.say(f"extension taken: {seconds:.0f} more seconds on this shot")

    def toggle_aid(self) -> None:
        """G: the aiming line (to the first ball and on from it) on or off, and said."""
        cue = self.window.cue
        if cue is not None:
            cue.show_aid = not cue.show_aid
            if self.window.hud is not None:
                self.window.hud.say(f"aiming line {'on' if cue.show_aid else 'off'} (G)")

    def toggle_help(self) -> None:
        hud = self.window.hud
        if hud is not None:
            hud.toggle_help()

    def toggle_details(self) -> None:
        """W: the referee's details, every reason with its rule ID."""
        hud = self.window.hud
        if hud is not None:
            hud.toggle_details()

    # -- the mouse ----------------------------------------------------------------------------

    def press(self, button: str, mouse: Mouse) -> None:
        pointer = self.window.pointer
        pointer.pressed(button, mouse)
        hud = self.window.hud
        if button == "mouse1" and hud is not None:
            pointer.target = self.press_hud(hud, *self.window.aspect_point(mouse))
        elif button == "mouse3":
            pointer.target = "orbit"
        elif button == "mouse2":
            pointer.target = "pan"

    def press_hud(self, hud: Hud, x: float, y: float) -> DragTarget | None:
        """A left press at (x, y) in the HUD's units. The HUD's bands are not the table
        (a click on the cue-ball widget with the cue ball in hand put it down there): a
        press on them moves nothing, and is no click on the table."""
        if hud.over_power_meter(x, y) is not None or hud.over_tip_widget(x, y) is not None:
            return "hud"
        return "hud" if hud.covers(x, y) else None

    def click(self, mouse: Mouse) -> None:
        point = self.window.table_point(mouse)
        if point is not None:
            self.click_table(point)

    def click_table(self, point: Point) -> None:
        """A click on the table at ``point`` (the plane of the ball centres)."""

    def wheel(self, step: int, mouse: Mouse | None) -> None:
        if self.window.rig is None:
            return
        hud = self.window.hud
        over = None if mouse is None else self.window.aspect_point(mouse)
        if over is not None and hud is not None and hud.over_power_meter(*over) is not None:
            self.power(POWER_STEP * step)
            return
        self.zoom(step)

    # -- every frame ------------------------------------------------------------------------------

    def before_update(self) -> None:
        """Every frame before the controller's update (the stage as it was)."""

    def draw(self) -> None:
        """The balls at rest, the cue stick and the kitchen as this mode shows them."""
        balls = self.controller.balls()
        self.show_balls(self.shown_balls(balls))
        cue = self.window.cue
        if cue is not None:
            self.draw_cue(cue, balls)
        kitchen = self.window.kitchen
        if kitchen is not None:
            kitchen.show() if self.shows_kitchen() else kitchen.hide()
        tracking = self.window.tracking_lines
        if tracking is not None:  # only while aiming, with the preview of this stroke
            tracking.show(None if self.computer_choosing() else self.controller.preview.lines)

    def shown_balls(self, balls: dict[BallId, Point]) -> dict[BallId, Point]:
        return balls

    def draw_cue(self, cue: CueStick, balls: dict[BallId, Point]) -> None:
        cue.hide()

    def computer_choosing(self) -> bool:
        """Whether the computer at the table is still choosing its stroke (while aiming)."""
        return False

    def shows_kitchen(self) -> bool:
        return False

    def show_balls(self, balls: dict[BallId, Point]) -> None:
        """The balls at rest, each turned as the last shot left it."""
        scene, controller = self.window.scene, self.controller
        assert scene is not None
        ids = list(balls)
        radius = controller.game.setup.spec.ball_radius
        positions = [(x, y, radius) for x, y in balls.values()]
        turned = controller.orientations
        orientations = [turned.get(ball, (1.0, 0.0, 0.0, 0.0)) for ball in ids]
        scene.set_balls(ids, positions, orientations)
