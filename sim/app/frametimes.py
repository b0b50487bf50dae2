"""Frame times of the desktop table, offscreen: ``python -m sim.app.frametimes fast 1280x800``
prints one JSON object. Run in a process of its own (one ShowBase per process, and
each preset timed from a fresh start); ``poolsim bench --render`` runs it per preset
and for ``plain``: the yardstick, a Panda3D scene of pooltool's own table and six of its
balls with no shader (as ``render_example.py --no-pbr`` of the shared docs draws it),
timed the same way in the same run.

Each frame is read back from the GPU (as a screenshot would): on software GL a frame
nobody reads can be skipped by the next one, which would time nothing.

``python -m sim.app.frametimes fast 1280x800 thinking rotation 2 40`` times the computer
thinking at a game through two whole racks (at most 40 decisions: a game of points has
no racks) while the table draws (:func:`thinking`); ``... thinking rotation 2 40 0``
with no helper processes beside its thinker (one process, as before they shared its
simulations).

``python -m sim.app.frametimes fast 1280x800 hints nine-ball 9`` times the hint as a person
waits for it at the table (:func:`hints`).

``python -m sim.app.frametimes fast 1280x800 tracking`` times the tracking lines instead:
the same table aiming, frames with the lines drawn and with them off taken in turns in
the same run, and the seconds from the aim coming to rest to its lines on the cloth.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sim.sizes import parse_size

if TYPE_CHECKING:
    from rules import Player
    from sim.app.main import PoolApp
    from sim.app.scene.scene import Quality
    from sim.physics.simulators.simulator import Simulator
    from sim.play.game import Game
    from sim.play.opponent.thinker_process import Thinking

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
        model = base.loader.loadModel(Filename.fromOsSpecific(str(path)))
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


def tracking(
    preset: str, width: int, height: int, frames: int = 30, rounds: int = 3
) -> dict[str, Any]:
    """Tracking lines side by side (see the module): the median frame (wall ms) with the
    lines drawn and off, aiming, in turns; and the seconds from each resting aim (the
    aim turned a little, ``rounds * 3`` times) to its lines drawn, frame by frame as a
    player sees them."""
    from sim.app.headless import configure_offscreen

    configure_offscreen(width, height)
    from direct.showbase.ShowBase import ShowBase

    base = ShowBase()
    app, worker = _aiming_table(base, preset)
    controller = app.controller
    assert controller is not None
    controller.set_power(0.45)  # a stroke into the rack, not a break: about 3 m/s
    walls: dict[str, list[float]] = {"on": [], "off": []}
    cpus: dict[str, list[float]] = {"on": [], "off": []}
    try:
        for _ in range(rounds):
            for side in ("off", "on"):
                controller.tracking = side == "on"
                _until(base, lambda: controller.worker.preview_result() is not None)
                _until(base, lambda: (controller.preview.lines is not None) == controller.tracking)
                wall, cpu = _timed(base, frames, settle=0.2)
                walls[side] += wall
                cpus[side] += cpu
        controller.tracking = True
        controller.preview.latencies.clear()
        physics = []  # of each preview: the worker's seconds simulating and packing it
        for i in range(rounds * 3):
            controller.turn(0.2 if i % 2 else -0.2)
            _until(base, lambda: controller.preview.lines is not None)
            preview = controller.worker.preview_result()
            assert preview is not None
            physics.append(preview.seconds)
    finally:
        worker.close()
    latencies = controller.preview.latencies
    return {
        "preset": preset,
        "width": width,
        "height": height,
        "frames_each": frames * rounds,
        "wall_ms_median_lines_on": statistics.median(walls["on"]) * 1e3,
        "wall_ms_median_lines_off": statistics.median(walls["off"]) * 1e3,
        "cpu_ms_median_lines_on": statistics.median(cpus["on"]) * 1e3,
        "cpu_ms_median_lines_off": statistics.median(cpus["off"]) * 1e3,
        "rest_to_lines_s_median": statistics.median(latencies),
        "rest_to_lines_s_max": max(latencies),
        "preview_physics_s_median": statistics.median(physics),
        "rest_to_lines_s": [round(s, 3) for s in latencies],
        "load_average": os.getloadavg()[0],
    }


def _until(base: Any, done: Callable[[], bool], timeout: float = 60.0) -> None:
    """Frames until ``done`` (the physics answers in its own time)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the table did not get there")
        base.taskMgr.step()


def _table(base: Any, preset: str, frames: int) -> tuple[list[float], list[float]]:
    """The desktop table of the fullest rack (:func:`rules.fullest_rack`), aiming from
    behind the cue ball."""
    _app, worker = _aiming_table(base, preset)  # the table lives while it is timed
    # 2 s: the resting aim's preview simulated and back, too.
    try:
        return _timed(base, frames, settle=2.0)
    finally:
        worker.close()


def _offscreen_table(
    base: Any,
    preset: str,
    game: Game,
    worker: Simulator,
    computers: Mapping[Player, str] | None = None,
    thinker: Thinking | None = None,
) -> PoolApp:
    """The desktop table of ``game`` in ``preset``, its computers seated (thinking in
    ``thinker``, else the table's own). Offscreen, not realtime: a window at rest would
    stop drawing, which would time nothing."""
    from sim.app.main import PoolApp

    quality: Quality = "quality" if preset == "quality" else "fast"
    return PoolApp(
        base,
        game,
        quality=quality,
        worker=worker,
        realtime=False,
        computers=computers,
        thinker=thinker,
    )


def _aiming_table(base: Any, preset: str) -> tuple[Any, Any]:
    """The desktop table of the fullest rack, aiming from behind the cue ball, and its
    physics worker (up and idle; the caller closes it)."""
    from rules import Player, fullest_rack
    from sim.physics.simulators.worker import PhysicsWorker
    from sim.play.game import Game, GameSetup

    game = Game(GameSetup(game=fullest_rack().game, seed=1))
    game.start(Player.A)
    # Only the drawing is timed: a worker that is up and idle. (A worker that is not
    # running would be restarted by the table, with a warm-up, and share the CPU.)
    worker = PhysicsWorker(warm_up=False).start()
    deadline = time.monotonic() + 120
    while not worker.ready and time.monotonic() < deadline:
        worker.poll()
        time.sleep(0.05)
    app = _offscreen_table(base, preset, game, worker)
    assert app.controller is not None
    app.controller.confirm_placement()  # aiming: the cue stick and the aiming aid drawn
    app.show_view("behind")
    return app, worker


def thinking(
    preset: str,
    width: int,
    height: int,
    game_name: str,
    racks: int = 1,
    most: int = 40,
    level: str = "5",
    seed: int = 1,
    helpers: int | None = None,
) -> dict[str, Any]:
    """The computer thinking as a person waits for it: two computers of ``level`` play a
    match of ``game_name`` (seed ``seed``, the longest race) on the desktop table, its
    thinker a process of its own as at the table, every frame drawn and read back
    meanwhile; the wall seconds of each decision that searched (from asked to answered;
    a break practised, a choice or a stalemate is not searched and left out; a break
    chosen among noisy strikes, in a game without a practised break, counted) in the
    match's first ``racks`` racks, whole (a person waits through the open table after
    the break and the last balls alike: the first decisions alone are the crowded
    table's, the slowest), or its first ``most`` such decisions if fewer (a game of
    points, 14.1, has no racks to count); with the frames drawn while it thought.
    ``helpers``: the processes beside the thinker that share its simulations (None: as
    many as the table starts on this machine)."""
    from rules import Player
    from sim.app.headless import configure_offscreen
    from sim.physics.simulators.worker import PhysicsWorker
    from sim.play.game import MAX_RACE, Game, GameSetup

    configure_offscreen(width, height)
    from direct.showbase.ShowBase import ShowBase

    from sim.app.headless import grab_rgb
    from sim.physics.simulators.shared import helpers_wanted
    from sim.play.duel import nearest_rank
    from sim.play.opponent.thinker_process import ThinkerProcess

    base = ShowBase()
    # A long race: a match of one rack would end, and its table wait, before the
    # decisions are in.
    game = Game(GameSetup(game=game_name, seed=seed, race_to=MAX_RACE))
    game.start(Player.A)
    worker = PhysicsWorker(warm_up=False).start()
    thinker = None if helpers is None else ThinkerProcess(helpers).start()
    computers = {Player.A: level, Player.B: level}
    app = _offscreen_table(base, preset, game, worker, computers, thinker)
    controller = app.controller
    assert controller is not None
    seat = controller.seat
    played: list[tuple[float, bool]] = []  # (seconds, searched) of each move played
    frames: list[float] = []
    asked_at: list[float] = []
    play = seat.play

    def timed_play(move: Any, asked: Any) -> None:
        played.append((time.perf_counter() - asked_at[-1], move.simulations > 0))
        play(move, asked)

    seat.play = timed_play  # type: ignore[method-assign]
    deadline = time.monotonic() + 90 * most + 420  # inside the bench's own timeout

    def racks_played() -> int:
        shots = game.shots
        return shots[-1].rack - shots[0].rack if shots else 0

    try:
        while racks_played() < racks and sum(searched for _s, searched in played) < most:
            if time.monotonic() > deadline:
                stage = controller.stage
                raise TimeoutError(f"the computers did not play on (stage {stage}, {played})")
            thinking_before = seat.thinking
            started = time.perf_counter()
            base.taskMgr.step()
            grab_rgb(base)
            if seat.thinking is not None:
                frames.append(time.perf_counter() - started)
                if thinking_before is None:
                    asked_at.append(started)
    finally:
        worker.close()
    timed = sorted(seconds for seconds, searched in played if searched)
    return {
        "game": game_name,
        "level": level,
        "helpers": helpers_wanted() if helpers is None else helpers,
        "racks": racks_played(),
        "decisions": len(timed),
        "think_seconds_median": statistics.median(timed),
        "think_seconds_p95": nearest_rank(timed, 0.95),
        "think_seconds_max": timed[-1],
        "frames_while_thinking": len(frames),
        "frame_ms_median_while_thinking": statistics.median(frames) * 1e3 if frames else 0.0,
        "load_average": os.getloadavg()[0],
    }


def hints(
    preset: str, width: int, height: int, game_name: str, hints_wanted: int = 9, seed: int = 1
) -> dict[str, Any]:
    """The hint as a person waits for it: two people play a match of ``game_name`` (seed
    ``seed``, the longest race) on the desktop table, each stroke the hint's (asked as
    the / key asks it, of the thinker in a process of its own, every frame drawn and read
    back meanwhile, then struck as loaded); the wall seconds from the key to the stroke
    loaded, for ``hints_wanted`` hints (the breaks' left out: a break is not searched),
    and whether the words "Hint: the computer is thinking" were there in the key's frame.
    A choice the rule offers is answered with the first the referee lists; a shot's
    playing out is skipped (only the hint is timed)."""
    import attrs
    import numpy as np

    from rules import Phase, Player
    from sim.app.headless import configure_offscreen
    from sim.physics.simulators.worker import PhysicsWorker
    from sim.play.game import MAX_RACE, Game, GameSetup
    from sim.play.opponent import level_named
    from sim.play.table.turn import STROKE_STAGES, Stage

    configure_offscreen(width, height)
    from direct.showbase.ShowBase import ShowBase

    from sim.app.headless import grab_rgb
    from sim.play.duel import nearest_rank

    base = ShowBase()
    game = Game(GameSetup(game=game_name, seed=seed, race_to=MAX_RACE))
    game.start(Player.A)
    worker = PhysicsWorker(warm_up=False).start()
    app = _offscreen_table(base, preset, game, worker)
    controller = app.controller
    assert controller is not None
    seat = controller.seat
    seat.start()  # the thinker loads its physics as at a table (the first hint waits less)
    timed: list[float] = []
    words_at_once = True
    deadline = time.monotonic() + 90 * hints_wanted + 180
    # The hint's break is the game's practised break, which struck exactly the same on
    # every rack wins every 9-ball rack on the break (no shot after it to time): the
    # probe strikes a break with level 5's noise, as a player would.
    breaking_noise = level_named("5").noise
    strikes = np.random.default_rng(seed)

    def step() -> None:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the hints did not come (stage {controller.stage}, {timed})")
        base.taskMgr.step()
        grab_rgb(base)

    try:
        while len(timed) < hints_wanted:
            stage = controller.stage
            if stage in (Stage.OVER, Stage.OFFER):
                break
            if stage is Stage.WATCH:
                controller.finish_watching()
            elif stage is Stage.CHOOSE:
                state = controller.state
                assert state is not None
                controller.choose(sorted(state.legal_choices, key=str)[0])
            elif stage in STROKE_STAGES and not controller.shot_in_play:
                state = controller.state
                assert state is not None
                breaking = state.phase is Phase.BREAK
                started = time.perf_counter()
                seat.ask_hint()
                words = seat.words() or ""
                words_at_once = words_at_once and words.startswith("Hint")
                while seat.thinking is not None:
                    step()
                if not breaking:
                    timed.append(time.perf_counter() - started)
                stroke = controller.stroke()
                if breaking:  # struck as a player strikes it: exactly, 9-ball's wins every rack
                    action = breaking_noise.perturb(stroke.action, strikes)
                    stroke = attrs.evolve(stroke, action=action)
                controller.strike_stroke(stroke)
            step()
    finally:
        worker.close()
    timed.sort()
    return {
        "game": game_name,
        "hints": len(timed),
        "hint_seconds_median": statistics.median(timed),
        "hint_seconds_p95": nearest_rank(timed, 0.95),
        "words_in_the_key_frame": words_at_once,
        "load_average": os.getloadavg()[0],
    }


if __name__ == "__main__":
    preset, size = sys.argv[1], sys.argv[2]
    w, h = parse_size(size)
    if sys.argv[3:] == ["tracking"]:
        print(json.dumps(tracking(preset, w, h)))
    elif sys.argv[3:4] == ["thinking"]:
        helpers = int(sys.argv[7]) if len(sys.argv) > 7 else None
        racks, most = int(sys.argv[5]), int(sys.argv[6])
        figures = thinking(preset, w, h, sys.argv[4], racks, most, helpers=helpers)
        print(json.dumps(figures))
    elif sys.argv[3:4] == ["hints"]:
        print(json.dumps(hints(preset, w, h, sys.argv[4], hints_wanted=int(sys.argv[5]))))
    else:
        print(json.dumps(measure(preset, w, h)))
