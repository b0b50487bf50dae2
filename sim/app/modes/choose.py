"""Between strokes: a player's choice on the HUD's choice bar (the lag winner's who
breaks, the incoming player's option after a foul or a push out), and the match over.
The choices are the bar's buttons; the keys are the table's."""

from __future__ import annotations

from sim.app.modes.table import TableMode


class ChooseMode(TableMode):
    name = "choose"


class OverMode(TableMode):
    name = "over"
