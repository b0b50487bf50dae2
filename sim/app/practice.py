"""The practice table's own actions, beyond the set-up the controller holds: a rack of
any game (another game's rack sets up a practice table of that game) and the table
saved as a position file (docs/POSITION.md)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Protocol

import attrs

from rules import game_kind
from sim.app.modes.manager import ModeManager
from sim.paths import data_dir
from sim.play.game import Game, GameError
from sim.play.table.controller import TableController


class PracticeWindow(Protocol):
    """What the practice table's actions ask of the window (``PoolApp``)."""

    @property
    def controller(self) -> TableController | None: ...
    @property
    def modes(self) -> ModeManager: ...
    def play(self, game: Game) -> None: ...


class PracticeTable:
    """The actions of the practice table's set-up panel and of the menu."""

    def __init__(self, window: PracticeWindow) -> None:
        self.app = window

    def practice_rack(self, game: str) -> None:
        """A rack of ``game`` on the practice table being set up; another game's rack
        sets up a practice table of that game (the session so far stays autosaved)."""
        controller = self.app.controller
        if controller is None or not controller.practice:
            raise GameError("racks are set up on the practice table")
        setup = controller.game.setup
        if game != setup.game:
            game_kind(game)  # an unknown game is refused before the table changes
            self.app.play(Game(attrs.evolve(setup, game=game, drill="")))  # no drill's now
            controller = self.app.controller
            assert controller is not None
        controller.set_up.begin().rack()

    def save_position(self, path: Path | None = None) -> Path:
        """The table as a position file: at ``path``, or in the user data folder's
        ``positions/`` under a new name; the HUD says where."""
        from sim.store.positionfile import save_position

        controller = self.app.controller
        if controller is None:
            raise GameError("no table to save a position of")
        position = controller.set_up.position()
        if path is None:
            folder = data_dir() / "positions"
            stamp = dt.datetime.now().strftime("%Y-%m-%d-%H%M%S")
            path = folder / f"{position.game}-{stamp}.json"
            count = 1
            while path.exists():
                count += 1
                path = folder / f"{position.game}-{stamp}-{count}.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_position(position, path)
        except (OSError, ValueError) as error:
            raise GameError(
                f"cannot save the position at {path}: {getattr(error, 'strerror', None) or error}"
            ) from None
        self.app.modes.say(f"Position saved: {path}")
        return path
