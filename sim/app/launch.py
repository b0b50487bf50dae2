"""Starting the desktop table from the command line: window or offscreen, the game to
put on it, screenshots and scripts."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
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
    game_file: Path | None = None  # where the game was read from (its review beside it)
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
    does not depend on how fast the machine compiles. A frame some ten times a second
    meanwhile: software GL takes a core to draw frames back to back, which the worker's
    loading needs on a 2-core machine."""
    import time

    deadline = time.monotonic() + seconds
    while not app.worker.ready and app.worker.alive and time.monotonic() < deadline:
        if app.controller is None:  # no table polling the worker (start screen, replay)
            app.worker.poll()
        app.step()
        time.sleep(0.1)


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

    What takes the seconds of a start is pooltool's import (about 1.2 s of CPU, in the
    window and in the physics worker alike) and the worker's loading of the compiled
    physics. So the worker starts first, before the window imports anything heavy: its
    import and loading run on the other core meanwhile. The window opens next and draws
    what it is doing (:class:`OpeningLine`) before its own imports. A table is drawn from
    its plan (:meth:`~sim.physics.table.TableSpec.plan`, no pooltool) and pooltool loads in
    a thread once it is on screen; a replay or a drill needs pooltool (its shots, the
    physics placing its balls), which loads in a thread while the window keeps drawing the
    line, and it is laid out once it is there.
    The start screen needs no pooltool either: it shows at once (and loads pooltool in the
    background while the player looks)."""
    from sim.app.script import ScriptError, load_script

    try:  # a script that cannot be read is said before any window opens
        steps = load_script(launch.script) if launch.script is not None else []
    except ScriptError as error:
        print(f"poolsim play: error: {error}", file=sys.stderr)
        return 2
    from sim.physics.simulators.worker import PhysicsWorker

    worker = PhysicsWorker().start()
    try:
        from sim.app.headless import configure_offscreen, configure_window

        width, height = launch.size
        if launch.offscreen:
            configure_offscreen(width, height)
        else:
            configure_window(width, height, "poolsim")
        return _run(launch, steps, worker)
    finally:
        worker.close()  # also when the window never opened (closing twice does no harm)


class OpeningLine:
    """The line a window opened onto a table shows from its first frame until the table
    is laid out: what it waits for (the window's own imports; for a replay or a drill,
    pooltool, loading in a thread meanwhile) and the physics' own line, its
    seconds counted as the HUD counts them."""

    PREFIX = "setting up the table"

    def __init__(self, base: Any) -> None:
        from direct.gui.OnscreenText import OnscreenText
        from panda3d.core import TextNode

        from sim.paths import assets_dir

        base.setBackgroundColor(0.03, 0.035, 0.04, 1)  # the table window's own
        font = base.loader.loadFont(str(assets_dir() / "fonts" / "DejaVuSans.ttf"))
        self.text = OnscreenText(
            text=f"{self.PREFIX} · loading the physics",
            pos=(0, 0),
            scale=0.05,
            fg=(0.85, 0.87, 0.9, 1),
            align=TextNode.ACenter,
            font=font,
            mayChange=True,
        )

    def show(self, physics: str) -> bool:
        """The physics' line (``sim.app.hud.texts.physics_status``; "" once it is ready).
        Whether the words changed."""
        words = f"{self.PREFIX} · {physics}" if physics else self.PREFIX
        if self.text.getText() == words:
            return False
        self.text.setText(words)
        return True

    def destroy(self) -> None:
        self.text.destroy()


def _open_when_loaded(app: Any, line: OpeningLine, open_table: Callable[[], None]) -> None:
    """Lay the table out (``open_table()``) once pooltool is imported, the window showing
    ``line`` meanwhile (the seconds in it are among the words a window at rest draws
    again for: :func:`sim.app.main.moving_words`, and the only frames drawn meanwhile).
    Started once the window's own imports are done, and each frame in between waits for
    the import for a quarter of a second (the table follows as soon as it ends): the
    import needs the interpreter, and two threads taking it in turns on a busy machine
    each wait for the other to be scheduled."""
    import time

    from direct.task.Task import Task

    from sim.app.hud.texts import physics_status
    from sim.app.rest import FRAMES_FOR_NEW_WORDS
    from sim.physics.pooltool_setup import load_pooltool_in_background, pooltool_loaded

    load_pooltool_in_background()
    to_draw = [FRAMES_FOR_NEW_WORDS]  # the line's first words are on screen already

    def wait(task: Any) -> int:
        if not pooltool_loaded(wait=0.25):  # the import has the interpreter meanwhile
            if line.show(physics_status(app.worker, time.monotonic())):
                to_draw[0] = FRAMES_FOR_NEW_WORDS
            # Drawn when its words change, else not: software GL's frame takes CPU
            # from the import and the worker (a window at rest does the same).
            app.base.win.setActive(to_draw[0] > 0)
            to_draw[0] = max(0, to_draw[0] - 1)
            app.worker.poll()  # no table yet to poll it
            return int(Task.cont)
        app.base.win.setActive(True)
        line.destroy()
        open_table()
        return int(Task.DS_done)

    app.base.taskMgr.add(wait, "poolsim-opening", sort=-10)


def _open_at_once(app: Any, line: OpeningLine, open_table: Callable[[], None]) -> None:
    """Lay the table out now, drawn from its plan (:meth:`~sim.physics.table.TableSpec.plan`,
    no pooltool), and import pooltool once the table is on screen: the import would take
    the interpreter in turns with the table's own laying out (each slowing the other),
    and the physics worker, loading in its process meanwhile, is ready later anyway."""
    from direct.task.Task import Task

    from sim.physics.pooltool_setup import load_pooltool_in_background

    line.destroy()
    open_table()

    def load(task: Any) -> int:
        if task.frame < 2:  # a frame shows as the next one is drawn
            return int(Task.cont)
        load_pooltool_in_background()
        return int(Task.DS_done)

    app.base.taskMgr.add(load, "poolsim-load-pooltool")


def _run(launch: Launch, steps: list[dict[str, Any]], worker: PhysicsWorker) -> int:
    import time

    from panda3d.core import ClockObject

    scripted = launch.screenshot is not None or launch.script is not None
    if scripted:
        # Fixed frame steps: N frames are N/60 s of play, whatever the machine's speed.
        clock = ClockObject.getGlobalClock()
        clock.setMode(ClockObject.MNonRealTime)
        clock.setFrameRate(60)
    from direct.showbase.ShowBase import ShowBase

    base = ShowBase()
    table = launch.game is not None or bool(launch.shots) or launch.drill is not None
    line = OpeningLine(base) if table else None
    if line is not None:  # on screen before the window's own imports
        for _ in range(2):  # a frame shows as the next one is drawn
            base.graphicsEngine.renderFrame()
    from rules import Player
    from sim.app.main import PoolApp
    from sim.app.screens.preferences import Preferences
    from sim.app.script import ScriptError, run_script
    from sim.store.autosave import Autosave
    from sim.store.stats.database import index_quietly

    if launch.offscreen and not scripted:  # played offscreen (--quit-when-ready): the
        from sim.app.headless import attach_virtual_mouse  # input a window would have

        base.virtual_mouse = attach_virtual_mouse(base)
    watch = launch.replay is not None  # a game opened to be replayed is saved only if played on
    app = PoolApp(
        base,
        quality=launch.quality,
        autosave=None if scripted else Autosave(on_saved=index_quietly),
        preferences=None if scripted else Preferences(),
        realtime=not scripted,
        worker=worker,
    )
    app.drills.keep_history = not scripted  # a script leaves the player's files alone
    app.reviews.read_from = launch.game_file
    opened = [line is None]

    def open_table() -> None:
        if launch.shots:
            app.view_shots(list(launch.shots), launch.shots_spec)
        elif launch.drill is not None:
            app.drills.open(launch.drill, launch.player)
        elif watch:
            assert launch.game is not None
            app.play(launch.game, save=False)
            app.open_replay(launch.replay)
        elif launch.game is not None:
            computers = {Player(seat): level for seat, level in launch.computers} or None
            app.play(launch.game, resumed=launch.resumed, computers=computers)
        opened[0] = True

    if line is None:
        app.show_start_screen()
    elif launch.shots or watch or launch.drill is not None:
        # A replay plays pooltool's shots, and a drill settles its balls with the
        # physics: they wait for pooltool, the line saying so.
        _open_when_loaded(app, line, open_table)
    else:
        _open_at_once(app, line, open_table)
    if not scripted:
        if launch.quit_when_ready:
            _quit_when_ready(app)
        try:
            base.run()
        finally:
            app.stop()
        return 0
    try:
        while not opened[0]:  # the table laid out (pooltool loaded) before frames count
            app.step()
            time.sleep(0.01)
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
