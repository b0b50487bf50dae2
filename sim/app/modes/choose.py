"""Between strokes: a player's choice on the HUD's choice bar (the lag winner's who
breaks, the incoming player's option after a foul or a push out, the answer to a
stalemate offered), and the match over. The choices are the bar's buttons; the keys are
the table's, and Y / N answer a stalemate offered."""

from __future__ import annotations

from collections.abc import Callable

from rules import CUE, BallId, Player
from rules.geometry import Point
from sim.app.modes.table import TableMode
from sim.app.scene.scene import LAG_BALL


class ChooseMode(TableMode):
    name = "choose"

    def key_map(self) -> dict[str, Callable[[], None]]:
        keys = super().key_map()
        keys["y"] = lambda: self.controller.stalemate.answer(True)
        keys["n"] = lambda: self.controller.stalemate.answer(False)
        return keys


class BreakerMode(ChooseMode):
    """The lag winner chooses who breaks, with both lag balls where they stopped, so
    both players see who was nearer the head cushion."""

    name = "breaker"

    def shown_balls(self, balls: dict[BallId, Point]) -> dict[BallId, Point]:
        ids = {Player.A: CUE, Player.B: LAG_BALL}
        return {ids[player]: rest for player, rest in self.controller.lag.rests().items()}


class OverMode(TableMode):
    """The match is over: its summary comes up by itself (the over bar's Match summary
    brings it back once closed)."""

    name = "over"
    # The summary is owed until it has come up: a match that ends under the menu shows
    # it as soon as the menu closes.
    owed = False

    def enter(self) -> None:
        super().enter()
        self.owed = not self.controller.practice  # a practice rack won: set up again
        self.frame(0.0)

    def frame(self, dt: float) -> None:
        super().frame(dt)
        if self.owed:
            self.owed = not self.window.show_match_summary()
