"""The cue ball in hand: it follows the mouse over legal spots; a click (or Space) puts
it down."""

from __future__ import annotations

from rules import BallInHand
from rules.geometry import Point
from sim.app.modes.table import TableMode
from sim.play.game import GameError


class PlaceMode(TableMode):
    """Ball in hand, the same in every game and every time (a break, after a foul, B to
    pick it up again): the camera overhead so the whole allowed area is in view and the
    pointer over it moves the cue ball; the kitchen washed over when that is the area."""

    name = "place"

    def enter(self) -> None:
        self.window.show_view("overhead")

    def exit(self) -> None:
        """The cue ball is down (or the game left the table): the player's view again."""
        self.window.show_view(self.window.view)

    def space(self) -> None:
        self.controller.confirm_placement()

    def click_table(self, point: Point) -> None:
        controller = self.controller
        reason = controller.legal_placement(point)
        if reason is not None:
            raise GameError(f"the cue ball cannot go there: {reason}")
        controller.move_cue_ball(point)
        controller.confirm_placement()

    def frame(self, dt: float) -> None:
        point = self.window.table_point()
        if point is not None:
            self.controller.move_cue_ball(point)

    def shows_kitchen(self) -> bool:
        """The kitchen is washed over while the cue ball is in hand there."""
        state = self.controller.state
        return state is not None and state.ball_in_hand is BallInHand.KITCHEN
