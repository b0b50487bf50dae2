"""App tests: Panda3D rendering offscreen (EGL, Mesa's software GL; no X, no GPU).

One ShowBase per process (Panda3D refuses a second one), so the ``app_base`` fixture is
session-scoped: every app test shares it and must leave ``base.render`` as it found it
(remove its nodes and lights). A test that needs a fresh app runs a subprocess.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase
    from panda3d.core import VirtualMouse

    from sim.app.main import PoolApp
    from sim.physics.simulators.worker import PhysicsWorker

APP_SIZE = (640, 400)


@pytest.fixture(scope="session")
def app_base() -> Iterator[ShowBase]:
    """The process's ShowBase: an offscreen buffer of APP_SIZE, a fixed 60 fps clock,
    and a VirtualMouse (``virtual_mouse``) feeding mouse and keyboard events."""
    from sim.app import headless
    from sim.physics.pooltool_setup import load_pooltool

    # Loaded up front, as the window has it before a table: no test waits on the start
    # screen's loading it in the background.
    load_pooltool()
    headless.configure_offscreen(*APP_SIZE)
    from direct.showbase.ShowBase import ShowBase
    from panda3d.core import ClockObject

    base = ShowBase()
    clock = ClockObject.getGlobalClock()
    clock.setMode(ClockObject.MNonRealTime)
    clock.setFrameRate(60)
    base.virtual_mouse = headless.attach_virtual_mouse(base)
    yield base
    base.destroy()


@pytest.fixture(scope="session")
def virtual_mouse(app_base: ShowBase) -> VirtualMouse:
    """Drives ``app_base`` like a real mouse and keyboard: ``setMousePos(x, y)`` (window
    pixels), ``pressButton``/``releaseButton`` (MouseButton/KeyboardButton), then step."""
    mouse: VirtualMouse = app_base.virtual_mouse
    return mouse


def step(base: ShowBase, frames: int = 1) -> None:
    """Run whole frames: input, tasks (simplepbr's too) and rendering."""
    for _ in range(frames):
        base.taskMgr.step()


@pytest.fixture(scope="module")
def worker() -> Iterator[PhysicsWorker]:
    """A physics worker process (no warm-up: earlier tests compiled the physics)."""
    from sim.physics.simulators.worker import PhysicsWorker

    physics = PhysicsWorker(warm_up=False).start()
    yield physics
    physics.close()


@pytest.fixture
def table(app_base: ShowBase, worker: PhysicsWorker) -> Iterator[PoolApp]:
    """A fresh desktop table on the session's ShowBase, on its fixed 1/60 s clock."""
    from sim.app.main import PoolApp

    app = PoolApp(app_base, None, worker=worker, realtime=False)
    yield app
    app.destroy()
