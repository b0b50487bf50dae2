"""Panda3D set-up for an offscreen (EGL, no X, no GPU) or an onscreen window, plus the
helpers tests use to look at frames and drive input.

Both ``configure_*`` functions must run before ``ShowBase()``. Importing pooltool loads
its own PRC (win-size, frame-rate meter, ``gl-version 3 2``) and a later ``loadPrcFileData``
wins, so ours is loaded again right after pooltool's whenever pooltool is imported, before
the window or after it (:func:`~sim.physics.pooltool_setup.redo_after_pooltool`).
Offscreen needs EGL and Mesa's software GL (Debian: libegl1, libegl-mesa0,
libgl1-mesa-dri), as ``.ci/run`` installs them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from panda3d.core import (
    ButtonThrower,
    KeyboardButton,
    ModifierButtons,
    MouseWatcher,
    PGMouseWatcherBackground,
    Point2,
    Point3,
    VirtualMouse,
    loadPrcFileData,
)

from sim.paths import cache_dir
from sim.physics.pooltool_setup import redo_after_pooltool

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

# Settings both kinds of output share. ``gl-version`` is cleared because pooltool asks for
# 3.2, which can give a core profile without fixed-function lighting (the "fast" preset).
_COMMON_PRC = """
show-frame-rate-meter #f
gl-version
sync-video #f
notify-level-device fatal
print-pipe-types #f
textures-power-2 none
"""


def _common_prc() -> str:
    """The shared settings, and Panda3D's model cache (glTF -> bam, seconds per model when
    cold) with poolsim's other caches."""
    return _COMMON_PRC + f"model-cache-dir {(cache_dir() / 'panda3d').as_posix()}\n"


def _load_prc(name: str, settings: str) -> None:
    """Load ``settings`` now, and again right after pooltool's own whenever pooltool is
    imported, so that ours win."""
    loadPrcFileData(name, settings)
    redo_after_pooltool(lambda: loadPrcFileData(name, settings))


def configure_offscreen(width: int, height: int) -> None:
    """Render into an EGL offscreen buffer of ``width`` x ``height`` (no X server).

    The size is fixed for the life of the ShowBase: a GLX buffer cannot be resized and
    simplepbr's filter buffers would keep the old size. No audio: offscreen renders are
    tests, screenshots and exports.
    """
    _load_prc(
        "poolsim-offscreen",
        _common_prc()
        + f"""
window-type offscreen
load-display p3headlessgl
aux-display
egl-device-index 0
win-size {int(width)} {int(height)}
audio-library-name null
framebuffer-multisample #f
multisamples 0
""",
    )


def configure_window(width: int, height: int, title: str, multisamples: int = 0) -> None:
    """Open an ordinary desktop window. ``multisamples`` > 0 asks for MSAA, which real
    GPUs do nearly for free and software GL pays about 3x per frame for. Audio is
    OpenAL's, except on a machine with nowhere to play sound (the M key says so)."""
    msaa = f"framebuffer-multisample #t\nmultisamples {multisamples}" if multisamples else ""
    # With no sound device OpenAL and ALSA print dozens of error lines; go silent at
    # once instead (the M key tells the player there is no sound).
    audio = "" if audio_device_present() else "audio-library-name null"
    os.environ.setdefault("ALSOFT_LOGLEVEL", "0")
    _load_prc(
        "poolsim-window",
        _common_prc()
        + f"""
window-type onscreen
win-size {int(width)} {int(height)}
window-title {title}
fullscreen #f
{msaa}
{audio}
""",
    )


def audio_device_present(
    platform: str = sys.platform, environ: Mapping[str, str] = os.environ, root: Path = Path("/")
) -> bool:
    """Whether this machine has somewhere to play sound. On Linux: a sound card in
    /proc/asound, or a PulseAudio or PipeWire server; elsewhere assumed (OpenAL falls
    back to silence by itself there, quietly)."""
    if not platform.startswith("linux"):
        return True
    try:
        cards = (root / "proc/asound/cards").read_text()
    except OSError:
        cards = ""
    if cards.strip() and "no soundcards" not in cards:
        return True
    if environ.get("PULSE_SERVER"):
        return True
    runtime = environ.get("XDG_RUNTIME_DIR")
    if not runtime:
        return False
    folder = root / Path(runtime).relative_to(Path(runtime).anchor)
    return any((folder / name).exists() for name in ("pulse/native", "pipewire-0"))


def grab_rgb(base: ShowBase) -> NDArray[np.uint8]:
    """The frame last rendered into ``base.win`` as (H, W, 3) uint8, row 0 at the top.
    Render first with ``base.taskMgr.step()`` (simplepbr updates itself in a task)."""
    tex = base.win.getScreenshot()
    data = np.frombuffer(tex.getRamImageAs("RGB"), np.uint8)
    image: NDArray[np.uint8] = data.reshape(tex.getYSize(), tex.getXSize(), 3)[::-1]
    return image


def world_to_pixel(
    base: ShowBase, point: tuple[float, float, float] | Any
) -> tuple[int, int] | None:
    """Window pixel (x right, y down, origin top-left) where ``point`` (in ``render``
    coordinates) is drawn by the default camera, or None when it is off screen or
    behind the camera."""
    x, y, z = (float(v) for v in point)
    in_camera = base.cam.getRelativePoint(base.render, Point3(x, y, z))
    projected = Point2()
    if not base.camLens.project(in_camera, projected):
        return None
    width, height = base.win.getXSize(), base.win.getYSize()
    return int((projected.x + 1) / 2 * width), int((1 - projected.y) / 2 * height)


def attach_virtual_mouse(base: ShowBase) -> VirtualMouse:
    """Give an offscreen ShowBase the mouse/keyboard data graph a window would have, fed
    by a :class:`VirtualMouse`: ``setMousePos``, ``pressButton``/``releaseButton`` then
    produce the usual events (``mouse1``, ``shift-mouse1``, ``space``...), MouseWatcher
    regions and DirectGUI clicks work. ShowBase only builds this for a real window."""
    vmouse = VirtualMouse("vmouse")
    vmouse.setWindowSize(base.win.getXSize(), base.win.getYSize())
    watcher = base.dataRoot.attachNewNode(vmouse).attachNewNode(MouseWatcher("vwatcher"))
    modifiers = ModifierButtons()
    for button in (
        KeyboardButton.shift(),
        KeyboardButton.control(),
        KeyboardButton.alt(),
        KeyboardButton.meta(),
    ):
        modifiers.addButton(button)
    watcher.node().setModifierButtons(ModifierButtons(modifiers))
    thrower = watcher.attachNewNode(ButtonThrower("vbuttons"))
    thrower.node().setModifierButtons(ModifierButtons(modifiers))
    base.mouseWatcher = watcher
    base.mouseWatcherNode = watcher.node()
    base.buttonThrowers = [thrower]
    base.aspect2d.node().setMouseWatcher(watcher.node())
    base.pixel2d.node().setMouseWatcher(watcher.node())
    watcher.node().addRegion(PGMouseWatcherBackground())  # as ShowBase.setupMouse does
    vmouse.setMouseOn(True)
    return vmouse


__all__ = [
    "attach_virtual_mouse",
    "configure_offscreen",
    "configure_window",
    "grab_rgb",
    "world_to_pixel",
]
