"""The window's input: every key any mode answers, listened for once and handed to the
mode that is up; the mouse's presses, releases (a click is a press and release in one
place) and the wheel likewise; M toggles the sound whatever is up."""

from __future__ import annotations

from typing import Any, Protocol

from direct.showbase.DirectObject import DirectObject
from direct.showbase.ShowBase import ShowBase

from sim.app.hud.widgets import typing
from sim.app.modes.manager import ModeManager
from sim.app.modes.pointer import Pointer
from sim.app.modes.window import Mouse
from sim.app.scene.sound import SoundBoard
from sim.app.screens.preferences import Preferences
from sim.play.table.controller import TableController


class InputWindow(Protocol):
    """What the input asks of the window (``PoolApp``)."""

    @property
    def base(self) -> ShowBase: ...
    @property
    def modes(self) -> ModeManager: ...
    @property
    def pointer(self) -> Pointer: ...
    @property
    def controller(self) -> TableController | None: ...
    @property
    def sounds(self) -> SoundBoard: ...
    @property
    def preferences(self) -> Preferences | None: ...
    def mouse(self) -> Mouse | None: ...
    def window_changed(self, window: Any) -> None: ...


class WindowInput(DirectObject):  # type: ignore[misc]
    """Bound once, for the window's life; :meth:`ignoreAll` unbinds it."""

    def __init__(self, window: InputWindow) -> None:
        super().__init__()
        self.app = window
        for button in ("mouse1", "mouse2", "mouse3"):
            self.accept(button, self.press, [button])
            self.accept(f"shift-{button}", self.press, [button])
            self.accept(f"{button}-up", self.release, [button])
        self.accept("wheel_up", self.wheel, [1])
        self.accept("wheel_down", self.wheel, [-1])
        modes = window.modes
        for key in sorted(modes.key_names()):
            self.accept(key, modes.key, [key])
        self.accept("m", self.sound_key)  # whatever mode is up
        self.accept("window-event", window.window_changed)

    def press(self, button: str) -> None:
        mouse = self.app.mouse()
        if mouse is not None:
            self.app.modes.active.press(button, mouse)

    def release(self, button: str) -> None:
        """The end of a press, whatever mode is up; a left click goes to the mode up."""
        app = self.app
        mouse = app.mouse()
        size = (app.base.win.getXSize(), app.base.win.getYSize())
        releasing = app.modes.active
        app.modes.answer(lambda: releasing.release(button, mouse))
        if app.pointer.released(button, mouse, size) and app.controller is not None:
            assert mouse is not None
            mode = app.modes.active
            app.modes.answer(lambda: mode.click(mouse))

    def wheel(self, step: int) -> None:
        self.app.modes.active.wheel(step, self.app.mouse())

    def sound_key(self) -> None:
        if not typing():  # an M typed into a name or a path is a letter
            self.toggle_sound()

    def toggle_sound(self) -> None:
        """Sound on or off (M), remembered; the HUD says which (or that there is none)."""
        app = self.app
        if not app.sounds.available:
            message = "no sound: poolsim found no audio device"
        else:
            enabled = app.sounds.toggle()
            message = "sound on" if enabled else "sound off (M turns it on)"
            if app.preferences is not None:
                app.preferences.update(sound=enabled)
        app.modes.say(message)
