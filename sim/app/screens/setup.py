"""Setting the practice table up by hand, a screen of its own over the table: drag a ball
to move it, drag it off the cloth (or right-click it, or Delete over it) to take it off,
bring one back from the HUD's tray; Space (or Done) shoots from the table as it is set
up, U leaves the table as it was. The window opens it as the controller enters the
set-up stage and closes it as it leaves it (``ModeManager.stage_screens``); the menu
and the replay viewer open over it and give it back. Its panel is the HUD's (its
buttons in the controls' block, :mod:`sim.app.hud.setuppanel`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from rules import CUE, BallId, BallInHand, Player
from rules.geometry import Point, distance
from sim.app.hud.hud import Hud
from sim.app.modes.aim import BALL_PICK
from sim.app.modes.pointer import DragTarget
from sim.app.modes.table import TableMode
from sim.app.modes.window import Mouse
from sim.app.screens.base import Screen
from sim.play.table.tablesetup import TableSetup


class SetupScreen(Screen, TableMode):
    """The set-up: seen from overhead, so the whole cloth is in reach; the table's keys
    (the camera, Esc for the menu), and its own. A ball follows a left drag and is put
    down where it is released, if the table accepts it there (else it stays, and the
    HUD says why in one line); released off the cloth, it goes to the tray."""

    name = "setup"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.dragging: BallId | None = None  # the ball a left drag moves

    def key_map(self) -> dict[str, Callable[[], None]]:
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

    @property
    def table(self) -> TableSetup:
        """The set-up in progress (GameError: none, the screen on its way out)."""
        return self.controller.set_up.current()

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
            self.table.remove(ball)

    def press_hud(self, hud: Hud, x: float, y: float) -> DragTarget | None:
        return "hud" if hud.covers(x, y) else None

    def release(self, button: str, mouse: Mouse | None) -> None:
        ball, self.dragging = self.dragging, None
        if button != "mouse1" or ball is None:
            return
        point = None if mouse is None else self.window.table_point(mouse)
        table = self.table
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
            self.table.remove(ball)

    # -- every frame ---------------------------------------------------------------------------

    def frame(self, dt: float) -> None:
        """Over the table drawn at rest (also under the menu): the kitchen while the
        cue ball is in hand there, and the ball dragged under the pointer."""
        if self.controller.set_up.table is None:
            return  # left this frame: the screen closes at the next
        kitchen = self.window.kitchen
        if kitchen is not None and self.shows_kitchen():
            kitchen.show()
        if self.dragging is not None:
            self.show_balls(self.shown_balls(self.controller.balls()))

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

    # -- the script's steps the set-up answers ---------------------------------------------------

    def script_actions(self) -> dict[str, Callable[[Any], None]]:
        return {
            "set_up": self._set_up,
            "move_ball": self._move_ball,
            "remove_ball": lambda ball: self.table.remove(str(ball)),
            "add_ball": self._add_ball,
            "rack": self._rack,
            "clear": lambda value: self.table.clear(),
            "referee": self._referee,
            "setup_done": lambda value: self.space(),
        }

    def _set_up(self, value: Any) -> None:
        """U again (false): the table as it was; true: set up already, nothing to do."""
        if value is False:
            self.set_up()

    def _move_ball(self, value: Any) -> None:
        ball, x, y = value
        self.table.move(str(ball), _point(x, y))

    def _add_ball(self, value: Any) -> None:
        """A ball from the tray: at its spot (the first free place near it), or at (x, y)."""
        if isinstance(value, list):
            ball, x, y = value
            self.table.add(str(ball), _point(x, y))
        else:
            self.table.add(str(value))

    def _rack(self, game: Any) -> None:
        """A rack button: that game's rack (another game's sets up a practice table of it),
        or the table's own game's (null)."""
        own = self.controller.game.setup.game
        self.app.practice.practice_rack(own if game is None else str(game))

    def _referee(self, value: Any) -> None:
        """The referee "on" or "off", or {"on", "turn", "in_hand"}: whose turn and the cue
        ball in hand too."""
        table = self.table
        if value in ("on", "off"):
            table.set_referee(value == "on")
            return
        if not isinstance(value, dict) or not set(value) <= {"on", "turn", "in_hand"}:
            raise ValueError('referee: "on", "off", or {"on", "turn", "in_hand"}')
        table.set_referee(bool(value.get("on", True)))
        if "turn" in value:
            table.set_turn(Player(value["turn"]))
        if "in_hand" in value:
            in_hand = value["in_hand"]
            table.set_in_hand(None if in_hand is None else BallInHand(in_hand))


def _point(x: Any, y: Any) -> Point:
    point = (float(x), float(y))
    if not all(math.isfinite(v) for v in point):
        raise ValueError(f"a point is two finite numbers, not {point}")
    return point


def _name(ball: BallId) -> str:
    return "the cue ball" if ball == CUE else f"the {ball}"
