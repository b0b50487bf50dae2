"""The table's modes, one for each stage of the controller (a 10-ball call is the aim's
mode with a ball picked; the practice set-up's keys and mouse are its screen's,
:mod:`sim.app.screens.setup`, over the table at rest)."""

from __future__ import annotations

from sim.app.modes.aim import AimMode, CallMode, LagMode
from sim.app.modes.choose import BreakerMode, ChooseMode, OverMode
from sim.app.modes.place import PlaceMode
from sim.app.modes.table import TableMode
from sim.app.modes.watch import StrikeMode, WatchMode
from sim.app.modes.window import Window
from sim.play.table.controller import TableController
from sim.play.table.turn import Stage


class SettingUp(TableMode):
    """The table while it is set up by hand: drawn at rest, the cue put away. The
    set-up's screen over it takes the keys and the mouse, and draws the ball dragged."""

    name = "setup"


class TableModes:
    def __init__(self, window: Window) -> None:
        self.lag = LagMode(window)
        self.aim = AimMode(window)
        self.call = CallMode(window)
        self.place = PlaceMode(window)
        self.choose = ChooseMode(window)
        self.breaker = BreakerMode(window)
        self.strike = StrikeMode(window)
        self.watch = WatchMode(window)
        self.over = OverMode(window)
        self.setup = SettingUp(window)
        self._by_stage: dict[Stage, TableMode] = {
            Stage.LAG: self.lag,
            Stage.BREAKER: self.breaker,
            Stage.PLACE: self.place,
            Stage.AIM: self.aim,
            Stage.SIMULATING: self.strike,
            Stage.WATCH: self.watch,
            Stage.CHOOSE: self.choose,
            Stage.OFFER: self.choose,
            Stage.OVER: self.over,
            Stage.SETUP: self.setup,
        }

    def for_stage(self, controller: TableController) -> TableMode:
        """The mode for the controller's stage now."""
        stage = controller.stage
        if stage is Stage.AIM and controller.call_ball is not None:
            return self.call
        return self._by_stage[stage]

    def all(self) -> list[TableMode]:
        return [
            self.lag,
            self.aim,
            self.call,
            self.place,
            self.choose,
            self.breaker,
            self.strike,
            self.watch,
            self.over,
            self.setup,
        ]
