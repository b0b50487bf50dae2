"""Starting the desktop table from the command line: window or offscreen, the game to
put on it, screenshots and scripts."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from sim.app.scene.scene import Quality
from sim.play.game import Game

if TYPE_CHECKING:
    from sim.physics.simulators.worker import PhysicsWorker
    from sim.store.drillfile import ShippedDrill


@attrs.frozen(kw_only=True)
class Launch:
    game: Game | None = None  # None: the start screen
    quality: Quality = "fast"
    size: tuple[int, int] = (1280, 800)
    screenshot: Path | None = None
    frames: int = 30
    script: Path | None = None
    offscreen: bool = False  # no display, or a screenshot asked for without one
    resumed: bool = False  # the game is the autosaved one
    replay: int | None = None  # open the replay viewer at this shot of the game
    shots: tuple[Any, ...] = ()  # or replay these shots (ReplayItem) on their own
    shots_spec: Any = None  # ... on this table
    quit_when_ready: bool = False  # say when the window and the physics were ready, and quit
    drill: ShippedDrill | None = None  # open this drill on a practice table
    player: str = "Player 1"  # whose drill history it is
    computers: tuple[tuple[str, str], ...] = ()  # (seat, level): the seats the computer plays


def has_display() -> bool:
    """A desktop to open a window on (Windows and macOS always have one)."""
    return sys.platform in ("win32", "darwin") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )


def _wait_for_physics(app: Any, seconds: float = 180.0) -> None:
    """Scripted runs wait (in real time) for the worker's warm-up, so what they show
    does not depend on how fast the machine compiles."""
    import time

    deadline = time.monotonic() + seconds
    while not app.worker.ready and app.worker.alive and time.monotonic() < deadline:
        if app.controller is None:  # no table polling the worker (start screen, replay)
            app.worker.poll()
        app.step()
        time.sleep(0.01)


def _quit_when_ready(app: Any) -> None:
    """Print when the window was first ready for the player and when the physics was
    (wall-clock seconds, as one JSON line), then quit: ``poolsim bench --startup`` times a
    launch by them. Ready for the player: the start screen, or a table where the player is
    to act (not a shot under way), on screen (a frame shows as the next one is drawn).
    The physics: the worker warmed up and pooltool loaded here, so a shot plays at once.
    ``shown_cpu``: this process's CPU seconds until then (the worker's not counted), which
    a busy machine does not stretch as it does the wall clock."""
    import json
    import time

    from direct.task.Task import Task

    from sim.physics.pooltool_setup import pooltool_loaded
    from sim.play.table.turn import Stage

    seen: dict[str, float] = {}
    drawn = [0]  # frames drawn while the window is ready for the player

    def watch(task: Any) -> int:
        controller = app.controller
        acting = controller is not None and controller.stage not in (Stage.SIMULATING, Stage.WATCH)
        if app.start_screen is not None or (acting and app.modes.covering is None):
            drawn[0] += 1
        if drawn[0] == 2:
            seen.setdefault("shown", time.time())
            seen.setdefault("shown_cpu", time.process_time())
        if app.worker.ready and pooltool_loaded():
            seen.setdefault("physics", time.time())
        if len(seen) < 3:
            return int(Task.cont)
        print(json.dumps(seen), flush=True)
        app.base.userExit()
        return int(Task.done)

    app.base.taskMgr.add(watch, "poolsim-quit-when-ready", sort=60)  # after the drawing (50)


def _save_screenshot(app: Any, path: Path) -> str | None:
    """Write the screenshot whole or not at all (into a temporary file beside ``path``,
    renamed onto it when written), and check it was: Panda3D's writer fails without a
    word. Returns what went wrong, or None."""
    from sim.files import replacing

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path, keep_suffix=True) as temporary:  # Panda3D picks the format by it
            app.screenshot(temporary)
            if temporary.stat().st_size == 0:
                raise _NotWritten
    except _NotWritten:
        return f"the screenshot could not be written to {path} (is {path.suffix!r} an image type?)"
    except OSError as error:
        return f"cannot write the screenshot {path}: {error.strerror or error}"
    return None


class _NotWritten(Exception):
    """Panda3D wrote nothing."""


def run(launch: Launch) -> int:
    """Open the window (or an offscreen buffer), play, and return the exit status.

    What takes the seconds of a start is pooltool's import (about 2 s of CPU, in the window
    and in the physics worker alike) and the worker's loading of the compiled physics. The
    start screen needs no pooltool: the worker starts first and the start screen shows
    while it works (pooltool loads in the window in the background meanwhile). A table
    needs pooltool before its first frame: the window imports it first, before it opens
    (not frozen in it), then starts the worker, whose import would otherwise take half the
    CPU from the window's on a busy machine; its seconds run beside the window's own."""
    from sim.app.script import ScriptError, load_script

    try:  # a script that cannot be read is said before any window opens
        steps = load_script(launch.script) if launch.script is not None else []
    except ScriptError as error:
        print(f"poolsim play: error: {error}", file=sys.stderr)
        return 2
    from sim.app.headless import configure_offscreen, configure_window
    from sim.physics.pooltool_setup import load_pooltool
    from sim.physics.simulators.worker import PhysicsWorker

    width, height = launch.size
    if launch.offscreen:
        configure_offscreen(width, height)
    else:
        configure_window(width, height, "poolsim")
    if launch.game is not None or launch.shots or launch.drill is not None:
        load_pooltool()
    worker = PhysicsWorker().start()
    try:
        return _run(launch, steps, worker)
    finally:
        worker.close()  # also when the window never opened (closing twice does no harm)


def _run(launch: Launch, steps: list[dict[str, Any]], worker: PhysicsWorker) -> int:
    from panda3d.core import ClockObject

    from rules import Player
    from sim.app.main import PoolApp
    from sim.app.screens.preferences import Preferences
    from sim.app.script import ScriptError, run_script
    from sim.store.autosave import Autosave
    from sim.store.stats.database import index_quietly

    scripted = launch.screenshot is not None or launch.script is not None
    if scripted:
        # Fixed frame steps: N frames are N/60 s of play, whatever the machine's speed.
        clock = ClockObject.getGlobalClock()
        clock.setMode(ClockObject.MNonRealTime)
        clock.setFrameRate(60)
    from direct.showbase.ShowBase import ShowBase

    base = ShowBase()
    if launch.offscreen and not scripted:  # played offscreen (--quit-when-ready): the
        from sim.app.headless import attach_virtual_mouse  # input a window would have

        base.virtual_mouse = attach_virtual_mouse(base)
    watch = launch.replay is not None  # a game opened to be replayed is saved only if played on
    app = PoolApp(
        base,
        None if watch else launch.game,
        quality=launch.quality,
        autosave=None if scripted else Autosave(on_saved=index_quietly),
        preferences=None if scripted else Preferences(),
        realtime=not scripted,
        resumed=launch.resumed,
        worker=worker,
        computers={Player(seat): level for seat, level in launch.computers} or None,
    )
    app.drills.keep_history = not scripted  # a script leaves the player's files alone
    if launch.shots:
        app.view_shots(list(launch.shots), launch.shots_spec)
    elif launch.drill is not None:
        app.drills.open(launch.drill, launch.player)
    elif launch.game is None:
        app.show_start_screen()
    elif watch:
        app.play(launch.game, save=False)
        app.open_replay(launch.replay)
    if not scripted:
        if launch.quit_when_ready:
            _quit_when_ready(app)
        try:
            base.run()
        finally:
            app.stop()
        return 0
    try:
        app.step(2)
        _wait_for_physics(app)
        if app.replay is not None:  # it played on while the physics warmed up: the
            app.replay.select(app.replay.index)  # script's frames count from the stroke
        if steps:
            run_script(app, steps)
        app.step(launch.frames)
        if launch.screenshot is not None and (problem := _save_screenshot(app, launch.screenshot)):
            print(f"poolsim: error: {problem}", file=sys.stderr)
            return 2
    except ScriptError as error:
        print(f"poolsim play: error: {error}", file=sys.stderr)
        return 2
    finally:
        app.stop()
    return 0
