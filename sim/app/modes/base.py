"""A mode: what the player is doing, and the input it answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from sim.app.modes.window import Mouse, Window

# The task that opens a table from the start screen once pooltool is loaded and the
# frame saying so is on screen (screens.start.opening): the keys pressed meanwhile are
# for the table on its way, and kept for it (ModeManager.key).
OPENING_TASK = "start-screen-opening"

ZOOM = 0.9  # a wheel step in brings the camera this much closer


class Mode:
    """One thing the player is doing: the keys it answers (``keys``, Panda3D event
    names), what a mouse press, a click and the wheel do, and its work every frame.
    By default a mode answers nothing."""

    name: ClassVar[str]
    # The table goes on under the mode, frame by frame (the shot in flight lands and
    # plays out): the table's own modes, and the menu over them.
    table_underneath: ClassVar[bool] = False
    # A screen over a game (the menu, the replay viewer, the set-up), closed with it.
    over_table: ClassVar[bool] = False
    # A screen that leaves the keys and clicks to the table's mode under it (the match
    # summary), and makes way for any other screen opened over it.
    yields: ClassVar[bool] = False

    def __init__(self, window: Window) -> None:
        self.window = window
        self.keys: Mapping[str, Callable[[], None]] = self.key_map()

    def key_map(self) -> dict[str, Callable[[], None]]:
        return {}

    def enter(self) -> None:
        """The mode comes up."""

    def exit(self) -> None:
        """The mode goes (a screen's widgets are destroyed here)."""

    def press(self, button: str, mouse: Mouse) -> None:
        """A mouse button went down over the window."""

    def click(self, mouse: Mouse) -> None:
        """A left click (a press and release in one place) that no widget took."""

    def release(self, button: str, mouse: Mouse | None) -> None:
        """A mouse button came up (before any click it makes is answered)."""

    def wheel(self, step: int, mouse: Mouse | None) -> None:
        """The wheel turned a step in (1) or out (-1)."""

    def frame(self, dt: float) -> None:
        """Every frame while the mode is up."""

    def resized(self) -> None:
        """The window changed shape."""

    def say(self, text: str) -> None:
        """The window's own line on the HUD (nowhere with no table)."""
        if self.window.hud is not None:
            self.window.hud.say(text)

    def zoom(self, step: int) -> None:
        rig = self.window.rig
        if rig is not None:
            rig.zoom(ZOOM if step > 0 else 1.0 / ZOOM)


class IdleMode(Mode):
    """Nothing on the table and no screen up (a window made with no game, or the shots
    of a file once their viewer closed): the wheel still zooms a camera left there."""

    name = "idle"

    def wheel(self, step: int, mouse: Mouse | None) -> None:
        self.zoom(step)
