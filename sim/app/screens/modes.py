"""The screens the player opens over the table and closes again: the start screen, the
menu (Esc) and the replay viewer. Each answers its own widgets' clicks and keys; here
is what the window's input does while it is up."""

from __future__ import annotations

from collections.abc import Callable

from sim.app.modes.base import Mode
from sim.app.modes.window import DrillWindow, Mouse, Window
from sim.app.screens.drills import DrillSummary
from sim.app.screens.menu import GameMenu
from sim.app.screens.replay import ReplayView
from sim.app.screens.start import StartScreen


class StartMode(Mode):
    """The start screen: its form takes the keys (names typed) and the clicks."""

    name = "start"

    def __init__(self, window: Window, screen: StartScreen) -> None:
        super().__init__(window)
        self.screen = screen

    def exit(self) -> None:
        self.screen.destroy()


class MenuMode(Mode):
    """The menu, over a veil that takes the clicks: the game is paused, and goes on
    under it only by itself (a shot in flight lands and plays out). Esc closes it."""

    name = "menu"
    table_underneath = True
    over_table = True

    def __init__(self, window: Window, menu: GameMenu) -> None:
        super().__init__(window)
        self.menu = menu

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {"escape": self.window.close_menu}

    def exit(self) -> None:
        self.menu.destroy()


class DrillSummaryMode(Mode):
    """The end of a drill session, over the table (which goes on under it): Try again
    or Close; Esc closes it."""

    name = "drill-summary"
    table_underneath = True
    over_table = True

    def __init__(self, window: DrillWindow, summary: DrillSummary) -> None:
        self.drill_window = window  # first: the keys are mapped as the mode is made
        super().__init__(window)
        self.summary = summary

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {"escape": self.drill_window.close_drill_summary}

    def exit(self) -> None:
        self.summary.destroy()


class ReplayMode(Mode):
    """The replay viewer: its keys and widgets are its own (it closes itself on Esc);
    the left button is its controls', the others and the wheel move the camera."""

    name = "replay"
    over_table = True

    def __init__(self, window: Window, view: ReplayView, drag: Callable[[], None]) -> None:
        super().__init__(window)
        self.view = view
        self.drag = drag

    def press(self, button: str, mouse: Mouse) -> None:
        pointer = self.window.pointer
        pointer.pressed(button, mouse)
        if button == "mouse3":
            pointer.target = "orbit"
        elif button == "mouse2":
            pointer.target = "pan"

    def wheel(self, step: int, mouse: Mouse | None) -> None:
        self.zoom(step)

    def frame(self, dt: float) -> None:
        """The viewer draws the balls; a game's controller goes on (its worker polled)."""
        rig = self.window.rig
        if rig is None:
            return
        if self.window.controller is not None:
            self.window.controller.update()
        rig.update(dt)
        self.drag()

    def resized(self) -> None:
        if abs(self.window.base.getAspectRatio() - self.view.aspect) >= 1e-3:
            self.view = self.view.rebuilt()

    def exit(self) -> None:
        self.view.destroy()
