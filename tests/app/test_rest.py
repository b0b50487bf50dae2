"""A window at rest draws nothing, and wakes at once (sim.app.rest)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from direct.showbase.ShowBase import ShowBase
from panda3d.core import ClockObject

from sim.app.rest import DRAWN_BEFORE_REST, POLL_HZ, REST_AFTER, RestingWindow


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def resting(app_base: ShowBase) -> Iterator[tuple[RestingWindow, Clock]]:
    clock = Clock()
    window = RestingWindow(app_base, clock=clock)
    yield window, clock
    window.ignoreAll()
    app_base.win.setActive(True)
    frames = ClockObject.getGlobalClock()  # the test session's fixed 60 fps clock
    frames.setMode(ClockObject.MNonRealTime)
    frames.setFrameRate(60)


def test_the_first_frames_are_drawn_however_long_they_take(
    resting: tuple[RestingWindow, Clock], app_base: ShowBase
) -> None:
    """A window whose first frames come late (fonts, shaders, a busy machine) is drawn
    before it rests: it would show black until the first input otherwise."""
    window, clock = resting
    clock.now += REST_AFTER * 5
    for _ in range(DRAWN_BEFORE_REST):
        window.frame(busy=False, mouse=None, words=())
        assert not window.resting and app_base.win.isActive()
    window.frame(busy=False, mouse=None, words=())
    assert window.resting


def test_nothing_moving_for_a_while_stops_drawing(
    resting: tuple[RestingWindow, Clock], app_base: ShowBase
) -> None:
    window, clock = resting
    for _ in range(DRAWN_BEFORE_REST):
        window.frame(busy=False, mouse=(0.1, 0.2), words=("",))
    clock.now += REST_AFTER * 0.9
    window.frame(busy=False, mouse=(0.1, 0.2), words=("",))
    assert not window.resting and app_base.win.isActive()
    clock.now += REST_AFTER * 0.2
    window.frame(busy=False, mouse=(0.1, 0.2), words=("",))
    assert window.resting and not app_base.win.isActive()
    assert ClockObject.getGlobalClock().getMode() == ClockObject.MLimited
    assert POLL_HZ <= 15  # polls, not draws: input is still seen


def test_new_words_draw_a_frame_shown_and_stay_at_rest(
    resting: tuple[RestingWindow, Clock], app_base: ShowBase
) -> None:
    window, clock = resting
    for _ in range(DRAWN_BEFORE_REST):
        window.frame(busy=False, mouse=None, words=("0:01",))
    clock.now += REST_AFTER + 0.1
    window.frame(busy=False, mouse=None, words=("0:01",))
    assert window.resting
    window.frame(busy=False, mouse=None, words=("0:02",))  # the warm-up counts a second
    assert window.resting and app_base.win.isActive()
    # The next frame too: Panda3D shows the frame drawn with the new words when it flips
    # it, as it renders the next one, and only in an active window.
    window.frame(busy=False, mouse=None, words=("0:02",))
    assert window.resting and app_base.win.isActive()
    window.frame(busy=False, mouse=None, words=("0:02",))
    assert not app_base.win.isActive()


def test_movement_input_or_a_shot_wakes_it(
    resting: tuple[RestingWindow, Clock], app_base: ShowBase
) -> None:
    window, clock = resting
    for wake in ("mouse", "busy", "key"):
        for _ in range(DRAWN_BEFORE_REST):
            window.frame(busy=False, mouse=(0.0, 0.0), words=())
        clock.now += REST_AFTER + 0.1
        window.frame(busy=False, mouse=(0.0, 0.0), words=())
        assert window.resting, wake
        if wake == "mouse":
            window.frame(busy=False, mouse=(0.01, 0.0), words=())
        elif wake == "busy":
            window.frame(busy=True, mouse=(0.0, 0.0), words=())
        else:
            window.wake()  # what a key or button event calls
        assert not window.resting and app_base.win.isActive(), wake
        assert ClockObject.getGlobalClock().getMode() == ClockObject.MNonRealTime, wake
