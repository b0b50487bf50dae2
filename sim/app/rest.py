"""A window at rest draws nothing.

Software GL takes 25-75 ms a frame here, so a window that draws non-stop while the player
thinks (or while the physics compiles on a first run, in another process) takes a whole
core from that work. Once nothing has moved for :data:`REST_AFTER` seconds (no key, no
button, no pointer movement, the camera still, no shot or replay playing), the window
stops drawing and the frame loop only polls, :data:`POLL_HZ` times a second, so input is
still answered within a poll: any input or movement draws again at full speed. At rest a
frame is drawn (and shown: two frames, the second flips the first) when a line that
changes on its own changes (the physics' warm-up
counting its seconds, the shot clock, a message): the caller hands over what those lines
say, and a window whose words stand still draws nothing at all.

Only a window on a screen rests: offscreen renders (tests, screenshots, exports, frame
timing) step frame by frame and draw every one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from direct.showbase.DirectObject import DirectObject
from panda3d.core import ClockObject

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

REST_AFTER = 2.0  # seconds without input or movement before the window rests
DRAWN_BEFORE_REST = 3  # frames drawn after the last activity, whatever the time they took
POLL_HZ = 10.0  # the frame loop's rate at rest: input and the physics are polled
# Frames a window at rest stays active for new words: Panda3D shows a drawn frame when it
# flips it, at the start of the next frame it renders, and not in a window turned off
# by then (one frame drew new words that never reached the screen).
FRAMES_FOR_NEW_WORDS = 2
ANY_BUTTON = "poolsim-any-button"  # the generic event of every key and mouse button


class RestingWindow(DirectObject):  # type: ignore[misc]
    """Watches for activity once a frame and turns drawing off and on (see the module)."""

    def __init__(self, base: ShowBase, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.base = base
        self.clock = clock
        self.resting = False
        self._last_activity = clock()
        self._drawn_since = 0  # frames drawn since the last activity (the first ones too)
        self._last_words: object = None
        self._frames_for_words = 0  # at rest: frames still to draw for new words
        self._mode = ClockObject.MNormal
        self._last_view = self._view()
        self._last_mouse: tuple[float, float] | None = None
        # Every key and button down or up says so (text typed into a field included),
        # beside the events the modes listen for.
        for thrower in base.buttonThrowers:
            node = thrower.node()
            for get, set_ in (
                (node.getButtonDownEvent, node.setButtonDownEvent),
                (node.getButtonUpEvent, node.setButtonUpEvent),
            ):
                if not get():
                    set_(ANY_BUTTON)
                self.accept(get(), self._input)
        self.accept("window-event", self._window_event)

    def _input(self, *_: object) -> None:
        self.wake()

    def _window_event(self, *_: object) -> None:
        self.wake()  # a resize or an uncovered window is drawn again

    def wake(self) -> None:
        """Something happened: draw at full speed again."""
        self._last_activity = self.clock()
        self._drawn_since = 0
        if self.resting:
            self._set_resting(False)

    def frame(self, busy: bool, mouse: tuple[float, float] | None, words: object) -> None:
        """Once a frame: ``busy`` if anything plays (a shot, a replay, the physics
        working on a struck shot); ``words``: what the lines that change on their own say
        now (any value that compares equal while they stand still). The pointer and the
        camera are looked at here."""
        now = self.clock()
        view = self._view()
        moved = mouse != self._last_mouse or view != self._last_view
        reworded = words != self._last_words
        self._last_mouse, self._last_view, self._last_words = mouse, view, words
        if busy or moved:
            self.wake()
        elif (
            not self.resting
            and self._drawn_since >= DRAWN_BEFORE_REST
            and now - self._last_activity >= REST_AFTER
        ):
            self._set_resting(True)
        if not self.resting:
            self._drawn_since += 1  # this frame is drawn
        if self.resting:
            if reworded:
                self._frames_for_words = FRAMES_FOR_NEW_WORDS
            self.base.win.setActive(self._frames_for_words > 0)  # new words drawn, else none
            self._frames_for_words = max(0, self._frames_for_words - 1)

    def _view(self) -> tuple[float, ...]:
        camera, render = self.base.camera, self.base.render
        return (*camera.getPos(render), *camera.getHpr(render))

    def _set_resting(self, resting: bool) -> None:
        self.resting = resting
        clock = ClockObject.getGlobalClock()
        if resting:
            self._mode = clock.getMode()  # the mode to go back to (normal, on a screen)
            clock.setMode(ClockObject.MLimited)
            clock.setFrameRate(POLL_HZ)
        else:
            clock.setMode(self._mode)
            self.base.win.setActive(True)
