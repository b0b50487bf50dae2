"""``poolsim bench``: the performance figures, measured side by side in one run."""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rules import GAMES, TenBall
from rules.facts import CUE
from rules.geometry import TableGeometry


def run_bench(repeats: int = 9, match_racks: int = 10, render: bool = False) -> dict[str, Any]:
    """Figures of this machine, this run. Breaks use seeds 1..repeats."""
    started = time.perf_counter()
    already = "sim.physics.simulate" in sys.modules
    physics = importlib.import_module("sim.physics.simulate")
    import_seconds = None if already else time.perf_counter() - started

    from sim.physics.racks import opening_position
    from sim.physics.table import table_spec
    from sim.physics.timeline_bench import bench_timeline

    spec = table_spec()
    geometry = TableGeometry()

    def break_shot(game: str, seed: int) -> Any:
        """A break of the seed's rack from a seeded spot in the kitchen, at 7-9 m/s, at
        the 1 give or take half a degree: ids alone do not change the physics."""
        rng = random.Random(seed)
        balls = opening_position(game, geometry, seed)
        cue = (geometry.width / 2 + rng.uniform(-0.3, 0.3), rng.uniform(0.2, 0.55))
        balls[CUE] = cue
        aim = physics.aim_towards(cue, balls["1"]) + rng.uniform(-0.5, 0.5)
        return physics.simulate_shot(spec, balls, physics.CueAction(rng.uniform(7, 9), aim))

    first = time.perf_counter()
    break_shot(TenBall.game, 0)
    first_shot_seconds = time.perf_counter() - first

    report: dict[str, Any] = {
        "repeats": repeats,
        "import_seconds": import_seconds,
        "first_shot_seconds": first_shot_seconds,
    }
    ratios = []
    for game in GAMES:
        shots = [break_shot(game, seed) for seed in range(1, repeats + 1)]
        physics_times = [shot.physics_seconds for shot in shots]
        ratios += [shot.facts_seconds / shot.physics_seconds for shot in shots]
        report[f"{game}_break"] = {
            "physics_seconds_median": statistics.median(physics_times),
            "physics_seconds_min": min(physics_times),
            "physics_seconds_max": max(physics_times),
            "events_median": statistics.median(len(shot.system.events) for shot in shots),
            "facts_median": statistics.median(len(shot.facts) for shot in shots),
        }
    report["facts_to_physics_ratio_median"] = statistics.median(ratios)
    for game in GAMES:
        report[f"{game}_selfplay"] = selfplay_split(game, racks=2, seed=1)
    match = self_played(match_racks, seed=1)
    report["game_file"] = game_file_times(match)
    report["take_back"] = take_back_times(match)
    report["timeline"] = bench_timeline()
    report["stroke_latency"] = stroke_latency(repeats)
    if render:
        report["frame_times"] = {preset: frame_times(preset) for preset in ("fast", "quality")}
    return report


def stroke_latency(repeats: int) -> dict[str, float]:
    """From the stroke to the shot ready to play on screen, through the physics worker
    process: a break struck cold, and the same break when the resting aim was simulated
    ahead (the window does this once the aim rests)."""
    from sim.physics.racks import opening_position
    from sim.physics.simulate import CueAction, aim_towards
    from sim.physics.simulator import ShotRequest
    from sim.physics.worker import PhysicsWorker

    geometry = TableGeometry()
    worker = PhysicsWorker(warm_up=False).start()
    try:
        cold, previewed = [], []
        for seed in range(repeats + 1):
            balls = opening_position(TenBall.game, geometry, seed)
            balls[CUE] = (geometry.width / 2 - 0.1 + 0.02 * seed, 0.45)
            action = CueAction(8.0, aim_towards(balls[CUE], balls["1"]))
            request = ShotRequest.of("9ft", balls, action)
            started = time.perf_counter()
            worker.wait(worker.shoot(request))
            if seed:  # the first also pays the worker's first-use costs
                cold.append(time.perf_counter() - started)
            worker.preview(request)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not any(worker.poll()):
                time.sleep(0.002)
            started = time.perf_counter()
            worker.wait(worker.shoot(request))
            previewed.append(time.perf_counter() - started)
    finally:
        worker.close()
    return {
        "cold_ms_median": statistics.median(cold) * 1e3,
        "previewed_ms_median": statistics.median(previewed) * 1e3,
    }


def frame_times(preset: str, size: str = "1280x800") -> dict[str, float]:
    """The desktop table's frame time in a process of its own (see sim.app.frametimes)."""
    import json
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "sim.app.frametimes", preset, size],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    figures: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def selfplay_split(game: str, racks: int, seed: int) -> dict[str, float]:
    """Whole-rack self-play, per shot: wall time, and its share in pooltool's physics,
    turning events into facts, the referee (``rule`` + ``apply``), and the rest (the shot
    picker and the game loop's bookkeeping)."""
    from rules import Shot
    from sim.play.game import Game, GameSetup, ShotRecord
    from sim.play.selfplay import play_racks

    match = Game(GameSetup(game=game, race_to=racks, seed=seed))
    walls: list[float] = []
    last = time.perf_counter()

    def lap(_played: Game, record: object) -> None:
        """Each turn's wall time: from the end of the turn before to this record."""
        nonlocal last
        now = time.perf_counter()
        if isinstance(record, ShotRecord):
            walls.append(now - last)
        last = now

    play_racks(match, racks, random.Random(seed), on_record=lap)
    # The referee's share: rule each shot again on the state it was played from.
    replay = Game(match.setup)
    referee = []
    for record in match.records:
        if isinstance(record, ShotRecord):
            state = replay.rack
            assert state is not None
            shot = Shot(
                facts=record.simulated.facts,
                placement=record.stroke.placement,
                call=record.stroke.call,
                declaration=record.stroke.declaration,
                resting=None,
            )
            started = time.perf_counter()
            state.apply(state.rule(shot))
            referee.append(time.perf_counter() - started)
        replay.redo(record)
    shots = match.shots
    count = len(shots)
    wall = sum(walls)
    physics = sum(r.simulated.physics_seconds for r in shots)
    facts = sum(r.simulated.facts_seconds for r in shots)
    rules = sum(referee)
    return {
        "shots": count,
        "wall_ms_per_shot": wall / count * 1e3,
        "physics_ms_per_shot": physics / count * 1e3,
        "facts_ms_per_shot": facts / count * 1e3,
        "rules_ms_per_shot": rules / count * 1e3,
        "other_ms_per_shot": (wall - physics - facts - rules) / count * 1e3,
    }


def self_played(racks: int, seed: int) -> Any:
    """A ten-ball match of ``racks`` racks played by the built-in player."""
    from sim.play.game import Game, GameSetup
    from sim.play.selfplay import play_racks

    match = Game(GameSetup(game=TenBall.game, race_to=racks, seed=seed))
    return play_racks(match, racks, random.Random(seed))


def game_file_times(match: Any) -> dict[str, float]:
    """Save and load of a self-played match (load re-rules every shot and re-reads every
    simulated system)."""
    from sim.store.gamefile import load, save

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.poolsim"
        started = time.perf_counter()
        save(match, path)
        saved = time.perf_counter()
        load(path)
        loaded = time.perf_counter()
        size = path.stat().st_size
    return {
        "racks": float(len({shot.rack for shot in match.shots})),
        "shots": float(len(match.shots)),
        "save_seconds": saved - started,
        "load_seconds": loaded - saved,
        "megabytes": size / 1e6,
    }


class _Discarded:
    """An autosaver that keeps nothing: the table's own work is timed (the snapshot of
    the game handed to it included), not a disk's."""

    def archive(self) -> None:
        return None

    def save(self, game: Any) -> None:
        del game


def take_back_times(match: Any, repeats: int = 15) -> dict[str, float]:
    """At the table (the controller, as the window drives it) on a self-played match:
    take it again (the last shot back, its stroke loaded), one shot after another; and
    open a branch at shots spread over the match ("play from here": the table at the
    position before the shot, the match of that moment, the stroke loaded)."""
    from sim.physics.inprocess import InProcessSimulator
    from sim.play.controller import TableController
    from sim.play.game import ShotRecord

    game = match.snapshot()
    controller = TableController(game, InProcessSimulator(), _Discarded())
    shots = [node for node in game.current.path() if isinstance(node.record, ShotRecord)]
    end = game.current
    taken = []
    for _ in range(min(repeats, len(shots))):
        started = time.perf_counter()
        controller.take_back()
        taken.append(time.perf_counter() - started)
    controller.continue_from(end)
    opened = []
    for node in shots[:: max(1, len(shots) // repeats)]:
        started = time.perf_counter()
        controller.play_from(node)
        opened.append(time.perf_counter() - started)
    controller.close()
    return {
        "shots": float(len(shots)),
        "take_back_ms_median": statistics.median(taken) * 1e3,
        "take_back_ms_max": max(taken) * 1e3,
        "branch_ms_median": statistics.median(opened) * 1e3,
        "branch_ms_max": max(opened) * 1e3,
    }


def format_report(report: dict[str, Any]) -> list[str]:
    """The report as lines for people."""
    lines = []
    if report["import_seconds"] is not None:
        lines.append(f"import pooltool and sim:          {report['import_seconds']:.2f} s")
    lines.append(f"first shot in this process:        {report['first_shot_seconds']:.2f} s")
    for game in GAMES:
        b = report[f"{game}_break"]
        lines.append(
            f"{game + ' break':<18} (warm, n={report['repeats']}): "
            f"median {b['physics_seconds_median'] * 1e3:.0f} ms "
            f"(min {b['physics_seconds_min'] * 1e3:.0f}, "
            f"max {b['physics_seconds_max'] * 1e3:.0f}), "
            f"{b['events_median']:.0f} events, {b['facts_median']:.0f} facts per shot"
        )
    lines.append(
        "facts extraction / physics time:   "
        f"{report['facts_to_physics_ratio_median'] * 100:.1f} % (median)"
    )
    for game in GAMES:
        s = report[f"{game}_selfplay"]
        lines.append(
            f"{game + ' self-play':<22} ({s['shots']} shots): "
            f"{s['wall_ms_per_shot']:.1f} ms/shot = physics {s['physics_ms_per_shot']:.1f} "
            f"+ facts {s['facts_ms_per_shot']:.2f} + rules {s['rules_ms_per_shot']:.2f} "
            f"+ picker and bookkeeping {s['other_ms_per_shot']:.1f}"
        )
    g = report["game_file"]
    lines.append(
        f"game file, {g['racks']:.0f}-rack match "
        f"({g['shots']:.0f} shots, {g['megabytes']:.1f} MB): "
        f"save {g['save_seconds'] * 1e3:.0f} ms, load {g['load_seconds'] * 1e3:.0f} ms"
    )
    b = report["take_back"]
    lines.append(
        f"take it again, {g['racks']:.0f}-rack match ({b['shots']:.0f} shots, at the table): "
        f"take back median {b['take_back_ms_median']:.1f} ms (max {b['take_back_ms_max']:.1f}; "
        f"target one frame, 16.7 ms), open a branch median {b['branch_ms_median']:.1f} ms "
        f"(max {b['branch_ms_max']:.1f}; target 100 ms)"
    )
    latency = report["stroke_latency"]
    lines.append(
        f"stroke to motion (break, worker process): {latency['cold_ms_median']:.0f} ms cold, "
        f"{latency['previewed_ms_median']:.1f} ms when the resting aim was simulated ahead"
    )
    for preset, f in report.get("frame_times", {}).items():
        lines.append(
            f"desktop frame, {preset} preset, {f['width']:.0f}x{f['height']:.0f}: "
            f"{f['wall_ms_median']:.0f} ms ({f['fps']:.0f} fps), CPU {f['cpu_ms_median']:.0f} ms"
        )
    t = report["timeline"]
    lines.append(
        f"timeline query ({t['balls']:.0f} balls, any t): median {t['query_us_median']:.0f} us "
        f"(pooltool interpolate {t['interpolate_us_median']:.0f} us), build {t['build_ms']:.0f} ms"
    )
    return lines
