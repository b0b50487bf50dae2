"""Frame times of the desktop table, offscreen: ``python -m sim.app.frametimes fast 1280x800``
prints one JSON object. Run in a process of its own (one ShowBase per process, and
simplepbr cannot be switched off once on); ``poolsim bench --render`` runs it per preset
and for ``plain``: the yardstick, a Panda3D scene of pooltool's own table and six of its
balls with no shader (as ``render_example.py --no-pbr`` of the shared docs draws it),
timed the same way in the same run.

Each frame is read back from the GPU (as a screenshot would): on software GL a frame
nobody reads can be skipped by the next one, which would time nothing.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

from sim.sizes import parse_size

PRESETS = ("fast", "quality", "plain")
# The plain scene's balls (x, y on pooltool's 7-ft table) and camera, as the example's.
PLAIN_BALLS = {
    "cue": (0.495, 0.50),
    "1": (0.495, 1.50),
    "2": (0.466, 1.55),
    "3": (0.524, 1.55),
    "8": (0.495, 1.60),
    "9": (0.300, 1.00),
}


def _timed(base: Any, frames: int, settle: float) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``frames`` frames, each read back, after ``settle`` seconds
    of frames (shaders compiled, textures uploaded)."""
    from sim.app.headless import grab_rgb

    until = time.monotonic() + settle
    while time.monotonic() < until:
        base.taskMgr.step()
        grab_rgb(base)
    walls, cpus = [], []
    for _ in range(frames):
        wall, cpu = time.perf_counter(), time.process_time()
        base.taskMgr.step()
        grab_rgb(base)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def _plain_scene(base: Any) -> None:
    """pooltool's table and six balls, fixed-function lights, the camera straight down."""
    from panda3d.core import AmbientLight, DirectionalLight, Filename, Vec4

    from sim.physics.models import ball_model_paths, table_model_path

    base.setBackgroundColor(0.05, 0.05, 0.05, 1)
    table = base.loader.loadModel(Filename.fromOsSpecific(str(table_model_path())))
    table.reparentTo(base.render)
    for ball, path in ball_model_paths("pooltool_pocket", PLAIN_BALLS).items():
        model = base.loader.loadModel(path)
        model.reparentTo(base.render)
        model.setPos(*PLAIN_BALLS[ball], 0.028575)
    sun = base.render.attachNewNode(DirectionalLight("sun"))
    sun.node().setColor(Vec4(3, 3, 3, 1))
    sun.setHpr(30, -60, 0)
    ambient = base.render.attachNewNode(AmbientLight("ambient"))
    ambient.node().setColor(Vec4(0.3, 0.3, 0.3, 1))
    base.render.setLight(sun)
    base.render.setLight(ambient)
    base.disableMouse()
    base.camera.setPos(0.495, 0.99, 2.6)
    base.camera.setHpr(90, -90, 0)
    base.camLens.setFov(60)


def measure(preset: str, width: int, height: int, frames: int = 30) -> dict[str, float]:
    from sim.app.headless import configure_offscreen

    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(PRESETS)}, got {preset!r}")
    configure_offscreen(width, height)
    from direct.showbase.ShowBase import ShowBase

    base = ShowBase()
    if preset == "plain":
        _plain_scene(base)
        walls, cpus = _timed(base, frames, settle=1.0)
    else:
        walls, cpus = _table(base, preset, frames)
    return {
        "width": width,
        "height": height,
        "frames": frames,
        "wall_ms_median": statistics.median(walls) * 1e3,
        "cpu_ms_median": statistics.median(cpus) * 1e3,
        "fps": 1.0 / statistics.median(walls),
    }


def _table(base: Any, preset: str, frames: int) -> tuple[list[float], list[float]]:
    """The desktop table of a rotation rack, aiming from behind the cue ball."""
    from rules import Player, Rotation
    from sim.app.main import PoolApp
    from sim.physics.worker import PhysicsWorker
    from sim.play.game import Game, GameSetup

    game = Game(GameSetup(game=Rotation.game, seed=1))
    game.start(Player.A)
    # Only the drawing is timed: a worker that is up and idle. (A worker that is not
    # running would be restarted by the table, with a warm-up, and share the CPU.)
    worker = PhysicsWorker(warm_up=False).start()
    deadline = time.monotonic() + 120
    while not worker.ready and time.monotonic() < deadline:
        worker.poll()
        time.sleep(0.05)
    # Offscreen, not realtime: a window at rest would stop drawing, which would time nothing.
    app = PoolApp(
        base,
        game,
        quality="quality" if preset == "quality" else "fast",
        worker=worker,
        realtime=False,
    )
    assert app.controller is not None
    app.controller.confirm_placement()  # aiming: the cue stick and the aiming aid drawn
    app.show_view("behind")
    # 2 s: the resting aim's preview simulated and back, too.
    try:
        return _timed(base, frames, settle=2.0)
    finally:
        worker.close()


if __name__ == "__main__":
    preset, size = sys.argv[1], sys.argv[2]
    w, h = parse_size(size)
    print(json.dumps(measure(preset, w, h)))
