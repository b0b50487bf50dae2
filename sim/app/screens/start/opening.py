"""What the start screen and its panels put on the table, a frame after saying so: a new
game, the autosaved one, a file the player names (a game, a position, a drill: each to
its own table) or a drill of the list. A table needs pooltool: while it still loads (the
first seconds of the start screen) the window waits for it, answering, instead of
freezing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from direct.task.Task import Task

from rules import Player
from sim.app.hud.widgets import DIM, NOTICE
from sim.app.modes.base import OPENING_TASK
from sim.app.scene.scene import Quality
from sim.app.screens.base import DrillDesk, ScreenWindow
from sim.app.screens.preferences import Preferences
from sim.physics.pooltool_setup import load_pooltool_in_background, pooltool_loaded
from sim.physics.simulators.simulator import Simulator
from sim.play.game import Game, GameSetup
from sim.store.drillfile import ShippedDrill

Colour = tuple[float, ...]
Say = Callable[[str, Colour], None]


class OnStart(Protocol):
    """Puts a game on the table (``PoolApp.play``); ``resumed``: it is the autosaved one."""

    def __call__(
        self, game: Game, *, resumed: bool = False, computers: dict[Player, str] | None = None
    ) -> None: ...


class DrillDoor(DrillDesk, Protocol):
    """The drill at the table (``sim.app.screens.drilltable.DrillTable``), as the start
    screen opens one."""

    def open(self, shipped: ShippedDrill, player: str = ...) -> None:
        """The drill at a practice table of its game, set up at its position."""


class StartHost(ScreenWindow, Protocol):
    """What the start screen and its panels ask of the window (``PoolApp``), beyond what
    every screen does: the simulator it reports on, the remembered choices, and the
    graphics preset to set."""

    quality: Quality

    @property
    def worker(self) -> Simulator: ...
    @property
    def preferences(self) -> Preferences | None: ...
    @property
    def drills(self) -> DrillDoor:
        """The drill at the table, which a drill of the list or a drill file opens."""


class Opener:
    """Opens for the screen that made it, saying on it (``say``) what it is doing or why
    it cannot; ``practice``: the set-up of a practice table the form asks for (the
    players' names), which a position file's game and table then replace."""

    def __init__(
        self,
        host: StartHost,
        on_start: OnStart,
        say: Say,
        practice: Callable[[], GameSetup],
    ) -> None:
        self.host, self.on_start, self.say, self.practice = host, on_start, say, practice

    def shortly(self, action: Callable[[], None]) -> None:
        """Do ``action`` once the frame now being made is on screen (reading a long game
        takes a moment, and the window should say what it is doing meanwhile), and once
        pooltool is loaded."""
        load_pooltool_in_background()

        def run(task: Any) -> int:
            if task.frame < 1 or not pooltool_loaded():  # this frame shows the message
                return int(Task.cont)
            action()
            return int(Task.DS_done)

        tasks = self.host.base.taskMgr
        tasks.remove(OPENING_TASK)
        tasks.add(run, OPENING_TASK)

    @property
    def busy(self) -> bool:
        """Something is about to be opened (its frame is on the way)."""
        return bool(self.host.base.taskMgr.hasTaskNamed(OPENING_TASK))

    def cancel(self) -> None:
        self.host.base.taskMgr.remove(OPENING_TASK)

    def open_path(self, path: Path) -> None:
        """The file at ``path`` on the table, for what it is (a frame later, saying so);
        the one-line reason when it cannot be."""
        self.say(f"opening {path.name}...", DIM)
        self.shortly(lambda: self.open_now(path))

    def open_now(self, path: Path) -> None:
        from sim.store.opening import kind_of_file

        try:
            kind = kind_of_file(path)
        except ValueError as error:  # NotOurFile, or a path no system accepts
            self.say(str(error), NOTICE)
            return
        if kind == "position":
            self._practice_at(path)
        elif kind == "drill":
            self._drill(path)
        else:
            self._game(path)

    def _game(self, path: Path) -> None:
        from sim.store.gamefile import GameFileError, load

        try:
            game = load(path)
        except (GameFileError, ValueError) as error:
            self.say(str(error), NOTICE)
            return
        if self.host.autosave is not None:
            self.host.autosave.opened_from(path, game)
        self.on_start(game)

    def _practice_at(self, path: Path) -> None:
        """A position file: a practice table of its game and table, set up as it says."""
        from sim.play.game import GameError
        from sim.store.opening import practice_at
        from sim.store.positionfile import PositionFileError, load_position

        try:
            game = practice_at(self.practice(), load_position(path))
        except (PositionFileError, GameError, ValueError) as error:
            self.say(str(error), NOTICE)
            return
        self.on_start(game)

    def _drill(self, path: Path) -> None:
        """A drill file: the drill at its table, for the player named first."""
        from sim.store.drillfile import DrillFileError, load_drill

        try:
            shipped = load_drill(path)
        except DrillFileError as error:
            self.say(str(error), NOTICE)
            return
        self.host.drills.open(shipped, self.practice().players[0])

    def open_drill(self, shipped: ShippedDrill, player: str) -> None:
        """A drill of the list at its table, for ``player`` (a frame later, saying so)."""
        self.say(f"opening {shipped.drill.title}...", DIM)
        self.shortly(lambda: self.host.drills.open(shipped, player))
