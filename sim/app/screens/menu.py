"""The in-game menu (Esc): resume, save a copy, new game, quit."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Protocol

from direct.gui.DirectGui import DGG, DirectEntry, DirectFrame
from direct.showbase.ShowBase import ShowBase
from panda3d.core import TextNode

from sim.app.hud.texts import refusal
from sim.app.hud.widgets import (
    BACKDROP,
    DIM,
    GOLD,
    NOTICE,
    PANEL,
    WHITE,
    button,
    entry,
    fit_width,
    label,
)
from sim.play.drillrun import DrillRun
from sim.play.game import GameError
from sim.play.table.controller import TableController
from sim.store.autosave import Autosave

VEIL = (0.0, 0.0, 0.0, 0.35)
HALF_WIDTH = 0.6
TOP, FIRST, GAP = 0.55, 0.25, 0.13  # the panel's top, the first button's row, row to row
BUTTON_HALF = 0.06  # a button's half height (scale 0.055, pad 0.4) and a margin
NOTE_TEXT = 0.04  # the line under the buttons: at most, a long one is drawn smaller
MENU_SORT = 10  # drawn (and clicked) above the HUD, even one rebuilt after a resize


class MenuHost(Protocol):
    """What the menu asks of the window (``PoolApp``)."""

    @property
    def base(self) -> ShowBase: ...
    @property
    def controller(self) -> TableController | None: ...
    @property
    def autosave(self) -> Autosave | None: ...

    @property
    def drill(self) -> DrillRun | None:
        """The drill on the table (None: none)."""

    def drill_again(self) -> None:
        """A new session of the drill on the table, its balls back."""

    def close_menu(self) -> None: ...
    def save_position(self) -> Path:
        """The table as a position file in the user's positions folder."""

    def show_start_screen(self) -> None: ...
    def say(self, text: str) -> None:
        """A line of the window's own on the HUD."""

    def quit(self) -> None:
        """End the program, the autosave finished and the physics stopped first."""


class GameMenu:
    def __init__(self, app: MenuHost) -> None:
        self.app = app
        # A veil over the whole window, above the HUD: the game is paused, and the HUD's
        # buttons (Shoot, the choices) under it take no clicks, as the keys take none.
        self.veil = DirectFrame(
            parent=app.base.aspect2d,
            frameColor=VEIL,
            frameSize=BACKDROP,
            state=DGG.NORMAL,
            sortOrder=MENU_SORT,
        )
        self.frame = DirectFrame(parent=self.veil, frameColor=PANEL)
        label(self.frame, "Menu", (0, 0.42), 0.07, GOLD, TextNode.ACenter)
        entries = [
            ("Resume (Esc)", self.close),
            ("Save a copy...", self.save_copy),
            ("New game", self.new_game),
            ("Quit", self.quit),
        ]
        controller = app.controller
        if controller is not None and controller.practice:  # the table as a position file
            entries.insert(2, ("Save position", self.save_position))
        if app.drill is not None:  # a new session of the drill on the table
            entries.insert(1, ("Try the drill again", self.drill_again))
        if controller is not None and controller.stalemate.may_offer:  # GEN-16
            entries.insert(1, ("Offer a stalemate (O)", self.offer_stalemate))
        self.buttons = [
            button(self.frame, text, (0, FIRST - i * GAP), command, scale=0.055, pad=(0.8, 0.4))
            for i, (text, command) in enumerate(entries)
        ]
        # The panel as tall as its buttons; Save a copy's field and the note (two lines at
        # most) come under the last one, the panel grown down to hold them when they show.
        last = FIRST - (len(entries) - 1) * GAP
        self.field_y = last - 0.14
        self.note = label(
            self.frame, "", (0, self.field_y - 0.11), NOTE_TEXT, DIM, TextNode.ACenter
        )
        self._bottom(last - BUTTON_HALF - 0.04)
        self.path: DirectEntry | None = None

    def _bottom(self, y: float) -> None:
        self.frame["frameSize"] = (-HALF_WIDTH, HALF_WIDTH, y, TOP)

    def close(self) -> None:
        self.app.close_menu()

    def drill_again(self) -> None:
        self.close()
        self.app.drill_again()

    def offer_stalemate(self) -> None:
        """Back to the table, where the other player is asked (or the computer answers)."""
        controller = self.app.controller
        self.close()
        if controller is not None:
            try:
                controller.stalemate.make_offer()
            except GameError as error:  # the table changed under the menu
                self.app.say(refusal(error))

    def save_copy(self) -> None:
        """First ask for the file's path (a text field); Enter or the button saves."""
        from sim.store.gamefile import SUFFIX, save
        from sim.store.savedgames import copy_name

        controller = self.app.controller
        if controller is None:
            return
        # Into the saved-games folder by default, where "Open saved game" lists it: the
        # field holds the file's name, whole, and the note says the folder (a path typed
        # in the field goes where it says).
        autosave = self.app.autosave
        folder = Path.home() if autosave is None else autosave.saved_dir
        if self.path is None:
            default = copy_name(controller.game.setup.players, dt.datetime.now())
            self.path = entry(
                self.frame,
                default,
                (-0.55, self.field_y),
                31,
                0.035,
                True,
                lambda _: self.save_copy(),
            )
            self._say(f"the file's name (in {folder}), then Enter", DIM)
            return
        try:
            target = folder / Path(self.path.get().strip()).expanduser()
            if target.suffix != SUFFIX:
                target = target.with_suffix(SUFFIX)
            target.parent.mkdir(parents=True, exist_ok=True)
            snapshot = controller.game.snapshot()
            save(snapshot, target)
        # ValueError: a path no system accepts; RuntimeError: ~someone who is no user here.
        except (OSError, ValueError, RuntimeError) as error:
            self._say(f"cannot save there: {getattr(error, 'strerror', None) or error}", NOTICE)
            return
        if self.app.autosave is not None:  # the new game's archive need not copy it again
            self.app.autosave.copied_to(target, snapshot)
        self._saved(target)

    def _saved(self, path: Path) -> None:
        self._say(f"saved {path.name}\nin {path.parent}", WHITE)

    def _say(self, text: str, colour: tuple[float, ...]) -> None:
        """The line under the buttons, inside the menu whatever its length (a folder's
        path can be longer than the menu is wide)."""
        self.note.setFg(colour)
        self.note.setText(text)
        fit_width(self.note, 2 * HALF_WIDTH - 0.08, NOTE_TEXT)
        self._bottom(self.field_y - 0.11 - 2 * NOTE_TEXT - 0.05)  # room for the field and note

    def save_position(self) -> None:
        from sim.play.game import GameError

        try:
            path = self.app.save_position()
        except GameError as error:
            self._say(str(error), NOTICE)
            return
        self._saved(path)

    def new_game(self) -> None:
        self.close()
        self.app.show_start_screen()

    def quit(self) -> None:
        self.app.quit()

    def destroy(self) -> None:
        self.veil.destroy()
