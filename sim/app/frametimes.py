"""Frame times of the desktop table, offscreen: ``python -m sim.app.frametimes fast 1280x800``
prints one JSON object. Run in a process of its own (one ShowBase per process, and
simplepbr cannot be switched off once on); ``poolsim bench --render`` runs it per preset.

Each frame is read back from the GPU (as a screenshot would): on software GL a frame
nobody reads can be skipped by the next one, which would time nothing.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from sim.sizes import parse_size


def measure(quality: str, width: int, height: int, frames: int = 30) -> dict[str, float]:
    from sim.app.headless import configure_offscreen, grab_rgb

    configure_offscreen(width, height)
    from direct.showbase.ShowBase import ShowBase

    from rules import Player, Rotation
    from sim.app.main import PoolApp
    from sim.physics.worker import PhysicsWorker
    from sim.play.game import Game, GameSetup

    base = ShowBase()
    game = Game(GameSetup(game=Rotation.game, seed=1))
    game.start(Player.A)
    # Only the drawing is timed: a worker that is up and idle. (A worker that is not
    # running would be restarted by the table, with a warm-up, and share the CPU.)
    worker = PhysicsWorker(warm_up=False).start()
    deadline = time.monotonic() + 120
    while not worker.ready and time.monotonic() < deadline:
        worker.poll()
        time.sleep(0.05)
    app = PoolApp(base, game, quality="quality" if quality == "quality" else "fast", worker=worker)
    assert app.controller is not None
    app.controller.confirm_placement()  # aiming: the cue stick and the aiming aid drawn
    app.show_view("behind")
    settle = time.monotonic() + 2.0  # shaders compiled, textures uploaded, and the
    while time.monotonic() < settle:  # resting aim's preview simulated and back
        base.taskMgr.step()
        grab_rgb(base)
    walls, cpus = [], []
    for _ in range(frames):
        wall, cpu = time.perf_counter(), time.process_time()
        base.taskMgr.step()
        grab_rgb(base)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    worker.close()
    return {
        "width": width,
        "height": height,
        "frames": frames,
        "wall_ms_median": statistics.median(walls) * 1e3,
        "cpu_ms_median": statistics.median(cpus) * 1e3,
        "fps": 1.0 / statistics.median(walls),
    }


if __name__ == "__main__":
    preset, size = sys.argv[1], sys.argv[2]
    w, h = parse_size(size)
    print(json.dumps(measure(preset, w, h)))
