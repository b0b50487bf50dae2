"""A screen: a mode the player opens and closes (the start screen, the menu, the replay
viewer, the match and drill summaries, the practice set-up), after pooltool's
``ani/modes`` where each menu is a mode. The window opens one with its mode manager's
one call, ``modes.open(screen)``, over the screen up if any (which it gives back as it
closes); the screen makes its widgets as it comes up, destroys them as it goes, and puts
back what it changed of the table when the player closes it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Protocol

from sim.app.modes.base import Mode
from sim.app.modes.manager import ModeManager
from sim.app.modes.window import Window
from sim.app.screens.review.keeper import GameReviews
from sim.play.drillrun import DrillRun
from sim.store.autosave import Autosave


class DrillDesk(Protocol):
    """The drill at the table, as the screens over it ask about it."""

    @property
    def run(self) -> DrillRun | None:
        """The drill on the table (None: none)."""

    def again(self) -> None:
        """A new session of the drill on the table, its balls back."""


class PracticeDesk(Protocol):
    """The practice table's own actions, as the screens over it ask for them."""

    def save_position(self, path: Path | None = None) -> Path:
        """The table as a position file (by default in the user's positions folder)."""

    def practice_rack(self, game: str) -> None:
        """A rack of ``game`` on the table being set up (another game's: a practice
        table of that game)."""


class ScreenWindow(Window, Protocol):
    """The window as its screens use it (``PoolApp``): the table's parts, as the table's
    modes see them, and the mode manager, the autosave, the drill and the practice
    table's actions, the game reviews, the start screen and the way out."""

    view: str

    @property
    def modes(self) -> ModeManager: ...
    @property
    def autosave(self) -> Autosave | None: ...
    @property
    def drills(self) -> DrillDesk: ...
    @property
    def practice(self) -> PracticeDesk: ...
    @property
    def reviews(self) -> GameReviews: ...

    def show_start_screen(self) -> None: ...
    def stop(self) -> None:
        """Finish the autosave in progress and stop the physics and the computer."""

    def quit(self) -> None:
        """End the program, after :meth:`stop`."""


class Screen(Mode):
    """A mode the player opens over the window and closes again: its widgets made in
    :meth:`enter` and destroyed in :meth:`exit` (also when the game leaves the table
    under it); :meth:`close` is the player closing it, and :meth:`closed` what the
    window gets back then (the HUD, the shot clock)."""

    over_table: ClassVar[bool] = True

    def __init__(self, window: ScreenWindow) -> None:
        self.app = window  # first: a screen's keys may be its own methods
        super().__init__(window)

    def close(self) -> None:
        """The player closes the screen: it goes, and the window is as it was before."""
        if self.app.modes.close(self) is self:
            self.closed()

    def closed(self) -> None:
        """After the player closed the screen."""

    def script_actions(self) -> Mapping[str, Callable[[Any], None]]:
        """The script's actions this screen answers while it is up (``poolsim play
        --script``, :mod:`sim.app.script`), by name: each takes the step's value and
        raises ValueError (or GameError) with one line when it cannot be done."""
        return {}
