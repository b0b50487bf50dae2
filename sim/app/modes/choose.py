"""Between strokes: a player's choice on the HUD's choice bar (the lag winner's who
breaks, the incoming player's option after a foul or a push out), and the match over.
The choices are the bar's buttons; the keys are the table's."""

from __future__ import annotations

from sim.app.modes.table import TableMode


class ChooseMode(TableMode):
    name = "choose"


class OverMode(TableMode):
    """The match is over: its summary comes up by itself (the over bar's Match summary
    brings it back once closed)."""

    name = "over"

    def enter(self) -> None:
        super().enter()
        if not self.controller.practice:  # a practice rack won: set up again instead
            self.window.show_match_summary()
