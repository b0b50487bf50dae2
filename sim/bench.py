"""``poolsim bench``: the performance figures, measured side by side in one run."""

from __future__ import annotations

import importlib
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from rules import DEFAULT_GAME
from rules import PLAYABLE_GAMES as GAMES
from rules.facts import CUE
from rules.geometry import TableGeometry
from sim.numerics import here

if TYPE_CHECKING:
    from rules import GameState
    from sim.play.opponent import Move


def run_bench(
    repeats: int = 9, match_racks: int = 10, render: bool = False, startup: bool = False
) -> dict[str, Any]:
    """Figures of this machine, this run. Breaks use seeds 1..repeats."""
    from sim.physics.pooltool_setup import load_pooltool, pooltool_loaded

    started = time.perf_counter()
    already = pooltool_loaded()
    physics = importlib.import_module("sim.physics.simulate")
    load_pooltool()  # imported at its first use otherwise: timed here, not in the first shot
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
    break_shot(DEFAULT_GAME, 0)
    first_shot_seconds = time.perf_counter() - first

    report: dict[str, Any] = {
        "repeats": repeats,
        "arithmetic": here().words(),  # what the figures were simulated with
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
    report["practice_take_back"] = practice_take_back_times()
    report["timeline"] = bench_timeline()
    report["stroke_latency"] = stroke_latency(repeats)
    report["opponent_think"] = opponent_think(shots=repeats)
    report["forecast"] = forecast_rate(positions=repeats)
    report["review"] = review_speed(shots=repeats)
    report["speedups"] = speedups_times(shots=repeats)
    if render:
        report["frame_times"] = frame_times()
        report["tracking_lines"] = {
            preset: tracking_lines_times(preset) for preset in ("fast", "quality")
        }
        report["thinking_with_window"] = [thinking_with_window(game) for game in GAMES]
        # The same decisions in one process and with one helper beside it: what sharing
        # the simulations buys on this machine, at the game whose decisions took longest.
        longest = max(report["thinking_with_window"], key=lambda w: w["think_seconds_median"])
        report["thinking_helpers"] = [
            thinking_with_window(longest["game"], helpers=helpers) for helpers in (0, 1)
        ]
        report["hints_with_window"] = [hints_with_window(game, repeats) for game in GAMES]
    if startup:
        report["startup"] = startup_times()
    return report


# What ``poolsim bench --startup`` launches: a table straight away (what a person waits
# for), the start screen, and beside them Python importing pooltool and nothing else.
STARTUP_LAUNCHES = {
    "table": ("play", "--game", DEFAULT_GAME, "--seed", "5", "--players", "Ann,Bob"),
    "start_screen": ("play",),
}
IMPORT_POOLTOOL = ("-c", "import pooltool")


def startup_times(launches: int = 5) -> dict[str, Any]:
    """What a person waits for, each a whole process launched as a player starts poolsim
    (a new process; numba's compiled physics and Panda3D's models cached, as after a
    first run): from the launch of ``poolsim play --game`` (the default game) to (a) a table on
    which the first stroke can be played (drawn, its aim taking input) and (b) the
    physics ready (numba's functions loaded, a shot simulates at once); from ``poolsim
    play`` to the start screen; and ``python -c "import pooltool"`` launched in the same
    turns, the yardstick the others are divided by. Offscreen, with folders of its own
    for the autosave and the settings. Each figure's min and median over ``launches``
    turns, and the machine's load beside them: a busy machine stretches every wall-clock
    figure (the window process's CPU seconds to the table are given beside)."""
    import os

    report: dict[str, Any] = {"launches": launches, "load_before": _load()}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in STARTUP_LAUNCHES}
    imports: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
        env.pop("WAYLAND_DISPLAY", None)
        env |= {"POOLSIM_DATA_DIR": folder, "POOLSIM_CONFIG_DIR": folder}
        for _ in range(launches):  # in turns: a change of load touches every figure alike
            imports.append(_launch_import_pooltool(env | {"HOME": folder}))
            for name, args in STARTUP_LAUNCHES.items():
                runs[name].append(_launch_until_ready(args, env))
    report["import_pooltool_s"] = _spread(imports)
    for name, figures in runs.items():
        report[name] = {
            figure: _spread([run[figure] for run in figures])
            for figure in ("shown_s", "physics_s", "shown_cpu_s")
        }
    baseline = report["import_pooltool_s"]["median"]
    report["ratios"] = {
        "table_to_import": report["table"]["shown_s"]["median"] / baseline,
        "physics_to_import": report["table"]["physics_s"]["median"] / baseline,
    }
    report["load_after"] = _load()
    report["bytecode_cached"] = bytecode_cached()
    return report


def _spread(seconds: list[float]) -> dict[str, float]:
    return {"min": min(seconds), "median": statistics.median(seconds)}


def _launch_import_pooltool(env: dict[str, str]) -> float:
    """Seconds of one ``python -c "import pooltool"``, from launch to exit."""
    import subprocess

    started = time.perf_counter()
    subprocess.run([sys.executable, *IMPORT_POOLTOOL], check=True, timeout=600, env=env)
    return time.perf_counter() - started


def bytecode_cached(
    modules: tuple[str, ...] = ("pooltool", "numba", "scipy.interpolate", "sim.app.main"),
) -> bool:
    """Python's compiled bytecode of the heavy modules a launch imports, and of poolsim's
    own, is on disk (as pip leaves it, or Python on a first run). Without it
    (``PYTHONDONTWRITEBYTECODE`` and an install that did not compile, as ``uv`` by default,
    and always for a checkout's own modules) every launch compiles them again: some 1,300
    modules of its dependencies, about 1.6 s of CPU in the window and as much in the
    worker, and poolsim's 150, some 0.7 s in the window."""
    import importlib.util
    from pathlib import Path

    for name in modules:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            return False
        if not Path(importlib.util.cache_from_source(spec.origin)).is_file():
            return False
    return True


def _load() -> float | None:
    """The machine's load average over the last minute (None where there is none)."""
    import os

    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def _launch_until_ready(args: tuple[str, ...], env: dict[str, str]) -> dict[str, float]:
    """One launch of ``poolsim ARGS --quit-when-ready``: its seconds from the launch."""
    import json
    import subprocess

    command = [sys.executable, "-c", "from sim.cli import main; main()", *args]
    launched = time.time()  # the child's marks are wall-clock times too
    result = subprocess.run(
        [*command, "--quit-when-ready"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        env=env,
    )
    marks = json.loads(result.stdout.strip().splitlines()[-1])
    return {
        "shown_s": marks["shown"] - launched,
        "physics_s": marks["physics"] - launched,
        "shown_cpu_s": marks["shown_cpu"],
    }


def stroke_latency(repeats: int) -> dict[str, float]:
    """From the stroke to the shot ready to play on screen, through the physics worker
    process: a break struck cold, and the same break when the resting aim was simulated
    ahead (the window does this once the aim rests)."""
    from sim.physics.racks import opening_position
    from sim.physics.simulate import CueAction, aim_towards
    from sim.physics.simulators.simulator import ShotRequest
    from sim.physics.simulators.worker import PhysicsWorker

    geometry = TableGeometry()
    worker = PhysicsWorker(warm_up=False).start()
    try:
        cold, previewed = [], []
        for seed in range(repeats + 1):
            balls = opening_position(DEFAULT_GAME, geometry, seed)
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


def speedups_times(shots: int, rounds: int = 3) -> dict[str, float]:
    """pooltool's own hot spots against poolsim's copies (:mod:`sim.physics.patches.speedups`),
    taken in turns (``rounds`` rounds): ``shots`` shots of a 10-ball rack after its break
    (strokes of every pace and spin on the balls as the break left them: position play's
    kind of shot), the milliseconds a shot with each and their ratio, and whether every
    shot came out the same to the last bit."""
    from sim.physics.patches import speedups
    from sim.physics.racks import opening_position
    from sim.physics.simulate import CueAction, aim_towards, simulate_shot
    from sim.physics.systemcodec import system_to_bytes
    from sim.physics.table import table_spec

    spec = table_spec()
    balls = opening_position(DEFAULT_GAME, spec.geometry, seed=1)
    broken = simulate_shot(spec, balls, CueAction(8.5, aim_towards(balls[CUE], balls["1"])))
    after = broken.resting
    after.setdefault(CUE, (spec.width / 2, spec.length / 4))  # a scratch: in hand here
    draw = random.Random(3)
    strokes = [
        CueAction(
            speed=draw.uniform(1.0, 5.0),
            aim=draw.uniform(0.0, 360.0),
            a=draw.uniform(-0.3, 0.3),
            b=draw.uniform(-0.35, 0.35),
        )
        for _ in range(shots)
    ]

    def timed() -> tuple[float, list[bytes]]:
        started = time.perf_counter()
        systems = [system_to_bytes(simulate_shot(spec, after, s).system) for s in strokes]
        return (time.perf_counter() - started) / shots * 1e3, systems

    own, replaced, same = [], [], True
    try:
        for _ in range(rounds):
            speedups.uninstall()
            ms, theirs = timed()
            own.append(ms)
            speedups.install()
            ms, ours = timed()
            replaced.append(ms)
            same = same and theirs == ours
    finally:
        speedups.install()
    return {
        "shots": float(shots),
        "pooltool_ms_per_shot": statistics.median(own),
        "replaced_ms_per_shot": statistics.median(replaced),
        "ratio": statistics.median(r / o for r, o in zip(replaced, own, strict=True)),
        "identical": float(same),
    }


def opponent_think(shots: int, level: str = "5", seed: int = 1) -> dict[str, float]:
    """The computer player thinking, at ``level``: the first ``shots`` shots of a 10-ball
    duel rack against itself (seed ``seed``, the break apart: at 10-ball level 5 plays
    the break it practised, with no search), per shot: candidate strokes, simulations,
    seconds (median), and simulations a second over all of them; and the breaks'
    thinking (median)."""
    from sim.play.opponent import Kind

    moves: list[Move] = []
    breaks: list[Move] = []
    for _step, _state, move in _racks_played(level, seed):
        if move.stroke is not None:
            (breaks if move.kind is Kind.BREAK else moves).append(move)
        if len(moves) >= shots:
            break
    seconds = sum(move.seconds for move in moves)
    return {
        "level": float(level) if level.isdigit() else 0.0,
        "shots": float(len(moves)),
        "candidates_median": statistics.median(move.candidates for move in moves),
        "simulations_median": statistics.median(move.simulations for move in moves),
        "think_seconds_median": statistics.median(move.seconds for move in moves),
        "think_seconds_max": max(move.seconds for move in moves),
        "simulations_per_second": sum(move.simulations for move in moves) / seconds,
        "break_seconds_median": statistics.median(move.seconds for move in breaks),
    }


def _racks_played(level: str, seed: int) -> Iterator[tuple[int, GameState, Move]]:
    """10-ball racks played by ``level`` against itself, as a duel's racks but on the
    seeds ``seed`` + the step: each decision's step, the state it was made on and the
    move, played once the caller asks for the next (for ever: the caller stops)."""
    import numpy as np

    from rules import MatchPhase, Player
    from sim.play.game import Game, GameSetup
    from sim.play.opponent import Kind, decide, level_named

    player = level_named(level)
    game = Game(GameSetup(seed=seed))
    game.start(Player.A)
    step = 0
    while True:
        if game.phase is not MatchPhase.RACK:  # the rack is won: rack the next
            game = Game(GameSetup(seed=seed + step))
            game.start(Player.A)
        state = game.rack
        assert state is not None
        move = decide(state, game.setup.spec, player, np.random.default_rng([seed, step]))
        yield step, state, move
        step += 1
        if move.kind is Kind.CHOICE and move.choice is not None:
            game.choose(move.choice)
        elif move.kind is Kind.STALEMATE:
            game.declare_stalemate(agreed=True)
        elif move.stroke is not None:
            game.shoot(move.stroke)


def review_speed(shots: int, level: str = "5", seed: int = 1) -> dict[str, float]:
    """The review (``poolsim review``, :mod:`sim.play.review`) at ``level`` of ``shots``
    shots a computer of that level played (10-ball, seed ``seed``, its breaks apart: a
    practised break needs no search), recorded as a game file keeps them now (each
    with its plan, which the review reads rather than deciding it again); per shot
    reviewed the seconds (mean), beside the seconds the
    computer thought over the same shots, their ratio, and what a 150-shot match
    would take on 2 workers."""
    from rules import MatchPhase, Player
    from sim.play.game import ComputerPlayer, Game, GameSetup
    from sim.play.opponent import Kind, decide, level_named
    from sim.play.review import judge_step, review_jobs
    from sim.store.gamefile import game_digest

    player = level_named(level)
    game = Game(GameSetup(seed=seed, race_to=9))
    game.start(Player.A)
    thought: list[float] = []
    step = 0
    while len(thought) < shots and game.phase is MatchPhase.RACK:
        state = game.rack
        assert state is not None
        computer = ComputerPlayer(level, (seed, step))
        move = decide(state, game.setup.spec, player, computer.generator())
        step += 1
        if move.kind is Kind.CHOICE and move.choice is not None:
            game.choose(move.choice, by=computer)
        elif move.kind is Kind.STALEMATE:
            game.declare_stalemate(agreed=True)
        elif move.stroke is not None:
            game.shoot(move.played_by(computer))
            if move.kind is not Kind.BREAK:
                thought.append(move.seconds)
    jobs = [
        job
        for job in review_jobs(game, game_digest(game), level)
        if job.step.kind.value == "shot" and job.step.before.phase.value != "break"
    ]
    started = time.perf_counter()
    for job in jobs:
        judge_step(job)
    per_shot = (time.perf_counter() - started) / len(jobs)
    think = statistics.fmean(thought)
    return {
        "level": float(level) if level.isdigit() else 0.0,
        "shots": float(len(jobs)),
        "review_seconds_per_shot": per_shot,
        "think_seconds_per_shot": think,
        "ratio": per_shot / think,
        "match_150_shots_2_workers_minutes": 150 * per_shot / 2 / 60,
    }


def forecast_rate(positions: int, seed: int = 1) -> dict[str, float]:
    """The computer player's forecast (``sim.play.opponent.forecast``) against the full
    physics, on the same candidates: level 5's pot strokes from the first ``positions``
    positions of 10-ball racks played by level 1 (seed ``seed``; the break and the cue
    ball in hand left out), each judged both ways as the search judges it (foretold or
    simulated, then ruled on by the referee and valued by the judge). Candidates judged a
    second each way, their ratio, how often the two agree on whether the pot drops, and
    where the pot drops both ways and the forecast follows the cue ball to the end (no
    kiss), how far apart the two cue balls stop (median and 90th percentile)."""
    import numpy as np

    from rules import Phase
    from rules.facts import Pocketing
    from sim.physics.simulators.inprocess import InProcessSimulator
    from sim.play.duel import nearest_rank
    from sim.play.game import GameSetup
    from sim.play.opponent import level_named
    from sim.play.opponent.search import Thinker
    from sim.play.opponent.strokes import pot_candidates

    five = attrs.evolve(level_named("5"), search=attrs.evolve(level_named("5").search, foresee=1))
    spec = GameSetup().spec  # the racks' table
    foretold = simulated = 0.0
    judged = agreed = 0
    misses: list[float] = []  # metres between the two cue balls' stops
    for step, state, _move in _racks_played("1", seed):
        if judged >= positions * 10 or step >= positions * 20:
            break
        if state.pending is None and state.phase is Phase.PLAY and state.ball_in_hand is None:
            thinker = Thinker(state, spec, five, np.random.default_rng(step), InProcessSimulator())
            found = pot_candidates(
                state,
                spec,
                thinker.judge,
                five.search,
                state.balls[CUE],
                None,
                five.search.pots,
            )
            plain = [c for c in found if c.pot is not None and c.pot.first == c.pot.ball]
            started = time.perf_counter()
            forecasts = [thinker.foresee(c) for c in plain]
            for candidate, forecast in zip(plain, forecasts, strict=True):
                thinker.foreseen_value(candidate, forecast)
            foretold += time.perf_counter() - started
            started = time.perf_counter()
            shots = thinker.simulate([c.stroke for c in plain])
            for candidate, shot in zip(plain, shots, strict=True):
                thinker.value(candidate.stroke, shot)
            simulated += time.perf_counter() - started
            for candidate, forecast, shot in zip(plain, forecasts, shots, strict=True):
                if shot is not None:
                    drops = any(
                        isinstance(f, Pocketing)
                        and (f.ball, f.pocket) == (candidate.target, candidate.pocket)
                        for f in shot.facts
                    )
                    agreed += drops == forecast.drops
                    resting = shot.resting.get(CUE)
                    both = drops and forecast.drops and forecast.certain
                    if both and resting and forecast.scratch is None and forecast.cue:
                        misses.append(math.dist(resting, forecast.cue))
            judged += len(plain)
    return {
        "candidates": float(judged),
        "foretold_per_second": judged / foretold if foretold else 0.0,
        "simulated_per_second": judged / simulated if simulated else 0.0,
        "ratio": simulated / foretold if foretold else 0.0,
        "drops_agree_percent": 100.0 * agreed / judged if judged else 0.0,
        "cue_ball_off_m_median": statistics.median(misses) if misses else 0.0,
        "cue_ball_off_m_p90": nearest_rank(sorted(misses), 0.9) if misses else 0.0,
    }


FRAME_PRESETS = ("plain", "fast", "quality")  # plain: the yardstick (sim.app.frametimes)
FRAME_ROUNDS = 3


def frame_times(size: str = "1280x800", rounds: int = FRAME_ROUNDS) -> dict[str, dict[str, float]]:
    """Each preset's frame time beside the plain scene's (pooltool's table and balls, no
    shader), each in a process of its own (see sim.app.frametimes), taken in turns round
    after round so that a load that comes and goes on a shared machine falls on all alike.
    Per preset: the medians over the rounds, and its ratio to the plain scene of the same
    round (median over the rounds), by wall time and by CPU time."""
    runs: dict[str, list[dict[str, float]]] = {preset: [] for preset in FRAME_PRESETS}
    for _ in range(rounds):
        for preset in FRAME_PRESETS:
            runs[preset].append(frame_time(preset, size))
    report = {}
    for preset, figures in runs.items():
        rounds_with_plain = list(zip(figures, runs["plain"], strict=True))
        wall = statistics.median(f["wall_ms_median"] for f in figures)
        report[preset] = {
            "width": figures[0]["width"],
            "height": figures[0]["height"],
            "rounds": float(rounds),
            "wall_ms_median": wall,
            "cpu_ms_median": statistics.median(f["cpu_ms_median"] for f in figures),
            "fps": 1e3 / wall,
            "wall_to_plain": statistics.median(
                f["wall_ms_median"] / p["wall_ms_median"] for f, p in rounds_with_plain
            ),
            "cpu_to_plain": statistics.median(
                f["cpu_ms_median"] / p["cpu_ms_median"] for f, p in rounds_with_plain
            ),
        }
    return report


def frame_time(preset: str, size: str) -> dict[str, float]:
    """One preset's frame time in a process of its own (see sim.app.frametimes)."""
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
    """A match of the default game, ``racks`` racks played by the built-in player."""
    from sim.play.game import Game, GameSetup
    from sim.play.selfplay import play_racks

    match = Game(GameSetup(game=DEFAULT_GAME, race_to=racks, seed=seed))
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
    from sim.physics.simulators.inprocess import InProcessSimulator
    from sim.play.table.controller import TableController

    game = match.snapshot()
    controller = TableController(game, InProcessSimulator(), _Discarded())
    shots = game.shot_nodes()
    end = game.current
    taken = []
    for _ in range(min(repeats, len(shots))):
        started = time.perf_counter()
        controller.branches.take_back()
        taken.append(time.perf_counter() - started)
    controller.branches.continue_from(end)
    opened = []
    for node in shots[:: max(1, len(shots) // repeats)]:
        started = time.perf_counter()
        controller.branches.play_from(node)
        opened.append(time.perf_counter() - started)
    controller.close()
    return {
        "shots": float(len(shots)),
        "take_back_ms_median": statistics.median(taken) * 1e3,
        "take_back_ms_max": max(taken) * 1e3,
        "branch_ms_median": statistics.median(opened) * 1e3,
        "branch_ms_max": max(opened) * 1e3,
    }


def practice_take_back_times(repeats: int = 15) -> dict[str, float]:
    """On the practice table (the controller, as the window drives it): a position set
    up, then shot and taken again ``repeats`` times, each try kept as a branch; the
    time from take it again to the table ready to shoot (the stroke loaded)."""
    from rules import CUE, Player
    from sim.physics.simulators.inprocess import InProcessSimulator
    from sim.play.game import Game, GameSetup
    from sim.play.position import Position
    from sim.play.table.controller import TableController
    from sim.play.table.turn import Stage

    setup = GameSetup(game=DEFAULT_GAME, practice=True)
    session = Game(setup)
    balls = {CUE: (0.36, 1.82), "3": (0.18, 2.18), "9": (1.0, 0.5)}
    session.set_up(Position(game=setup.game, table=setup.table, balls=balls, turn=Player.A))
    controller = TableController(session, InProcessSimulator(), _Discarded())
    controller.aim_at(balls["3"])
    taken = []
    for _ in range(repeats):
        session.shoot(controller.stroke())
        started = time.perf_counter()
        controller.branches.take_back()
        taken.append(time.perf_counter() - started)
        assert controller.stage is Stage.AIM
    controller.close()
    return {
        "tries": float(repeats),
        "take_back_ms_median": statistics.median(taken) * 1e3,
        "take_back_ms_max": max(taken) * 1e3,
    }


def startup_line(startup: dict[str, Any]) -> str:
    """:func:`startup_times`'s figures in a line: medians, with the min and the ratio to
    ``import pooltool`` beside."""
    table, screen = startup["table"], startup["start_screen"]
    baseline, ratios = startup["import_pooltool_s"], startup["ratios"]
    before, after = startup["load_before"], startup["load_after"]
    load = "" if before is None else f"; load {before:.1f} before, {after:.1f} after"

    def figure(spread: dict[str, float]) -> str:
        return f"{spread['median']:.1f} s (min {spread['min']:.1f})"

    return (
        f"launch of poolsim play --game {DEFAULT_GAME} to a table to play on: "
        f"{figure(table['shown_s'])}"
        f", {ratios['table_to_import']:.1f}x import pooltool, window CPU "
        f"{table['shown_cpu_s']['median']:.1f} s; to the physics ready: "
        f"{figure(table['physics_s'])}, {ratios['physics_to_import']:.1f}x; "
        f"python -c 'import pooltool': {figure(baseline)}; poolsim play to the start "
        f"screen: {figure(screen['shown_s'])} (warm, offscreen, {startup['launches']} "
        f"launches of each in turns{load}"
        + ("" if startup["bytecode_cached"] else "; Python's bytecode not cached: each compiles")
        + ")"
    )


def format_report(report: dict[str, Any]) -> list[str]:
    """The report as lines for people."""
    lines = [f"arithmetic:                        {report['arithmetic']}"]
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
    p = report["practice_take_back"]
    lines.append(
        f"take it again, practice table ({p['tries']:.0f} tries of one set-up): take back "
        f"median {p['take_back_ms_median']:.2f} ms (max {p['take_back_ms_max']:.2f}; "
        f"target one frame, 16.7 ms)"
    )
    latency = report["stroke_latency"]
    lines.append(
        f"stroke to motion (break, worker process): {latency['cold_ms_median']:.0f} ms cold, "
        f"{latency['previewed_ms_median']:.1f} ms when the resting aim was simulated ahead"
    )
    o = report["opponent_think"]
    lines.append(
        f"computer player, level {o['level']:.0f}, thinking ({o['shots']:.0f} shots): "
        f"median {o['think_seconds_median']:.2f} s a shot (max {o['think_seconds_max']:.2f}; "
        "target 5 s), "
        f"{o['candidates_median']:.0f} candidate strokes and {o['simulations_median']:.0f} "
        f"simulations a shot, {o['simulations_per_second']:.0f} simulations/s; "
        f"its break {o['break_seconds_median']:.1f} s"
    )
    f = report["forecast"]
    lines.append(
        f"computer player's forecast against the physics ({f['candidates']:.0f} pot strokes, "
        f"each ruled on and valued): {f['foretold_per_second']:.0f} against "
        f"{f['simulated_per_second']:.0f} candidates/s, ratio {f['ratio']:.0f} (target 10); "
        f"the two agree on the pot dropping {f['drops_agree_percent']:.0f} % of the time, and "
        f"the cue ball stops {100 * f['cue_ball_off_m_median']:.1f} cm from where the physics "
        f"stops it at the median ({100 * f['cue_ball_off_m_p90']:.1f} cm at the 90th "
        "percentile)"
    )
    r = report["review"]
    lines.append(
        f"review, level {r['level']:.0f}, of its own shots ({r['shots']:.0f}, their plans "
        f"read from the record): {r['review_seconds_per_shot']:.1f} s a shot reviewed against "
        f"{r['think_seconds_per_shot']:.1f} s thought, ratio {r['ratio']:.1f}; a 150-shot match "
        f"on 2 workers {r['match_150_shots_2_workers_minutes']:.1f} min (target 10)"
    )
    u = report["speedups"]
    lines.append(
        f"pooltool's hot spots, poolsim's copies against pooltool's own ({u['shots']:.0f} "
        f"shots after a break, in turns): {u['replaced_ms_per_shot']:.1f} against "
        f"{u['pooltool_ms_per_shot']:.1f} ms a shot, ratio {u['ratio']:.2f}, "
        + ("every shot the same to the last bit" if u["identical"] else "SHOTS DIFFER")
    )
    lines += format_frame_times(report.get("frame_times", {}))
    lines += format_tracking_lines(report.get("tracking_lines", {}))
    lines += format_report_thinking(report.get("thinking_with_window", []))
    if "thinking_helpers" in report:
        lines.append(helpers_line(*report["thinking_helpers"]))
    lines += format_report_hints(report.get("hints_with_window", []))
    if "startup" in report:
        lines.append(startup_line(report["startup"]))
    t = report["timeline"]
    lines.append(
        f"timeline query ({t['balls']:.0f} balls, any t): median {t['query_us_median']:.0f} us "
        f"(pooltool interpolate {t['interpolate_us_median']:.0f} us), build {t['build_ms']:.0f} ms"
    )
    return lines


def tracking_lines_times(preset: str, size: str = "1280x800") -> dict[str, Any]:
    """Tracking lines in ``preset``, in a process of its own (``python -m
    sim.app.frametimes PRESET SIZE tracking``): the frame with the lines drawn and off,
    aiming, taken in turns, and the seconds from the aim resting to its lines."""
    import json
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "sim.app.frametimes", preset, size, "tracking"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    figures: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


# The racks a game's thinking is timed over at the table: every decision of them, the
# crowded table after the break and the last balls alike, as a person waits through them.
# At most this many decisions: 14.1 is a game of points, whose racks are not counted.
THINKING_RACKS, THINKING_MOST = 2, 40


def thinking_with_window(
    game: str,
    racks: int = THINKING_RACKS,
    most: int = THINKING_MOST,
    size: str = "1280x800",
    helpers: int | None = None,
) -> dict[str, Any]:
    """Level 5 thinking as a person waits for it at ``game``, in a process of its own
    (``python -m sim.app.frametimes fast SIZE thinking GAME RACKS MOST [HELPERS]``): two
    computers playing on the desktop table, every frame drawn meanwhile; the median and
    95th percentile of every stroke searched in ``racks`` whole racks (or the first
    ``most``), and the frames drawn while it thought. ``helpers``: processes sharing the
    thinker's simulations (None: as at the table)."""
    extra = () if helpers is None else (str(helpers),)
    timeout = 120 * most + 600
    return _frametimes(size, "thinking", game, str(racks), str(most), *extra, timeout=timeout)


def hints_with_window(game: str, hints: int, size: str = "1280x800") -> dict[str, Any]:
    """The hint as a person waits for it at ``game``, in a process of its own (``python -m
    sim.app.frametimes fast SIZE hints GAME N``): from the key to the stroke loaded,
    every frame drawn meanwhile; the median and 95th percentile of ``hints`` hints."""
    return _frametimes(size, "hints", game, str(hints), timeout=120 * hints + 600)


def _frametimes(size: str, *args: str, timeout: float) -> dict[str, Any]:
    """The figures ``python -m sim.app.frametimes fast SIZE ARGS`` prints."""
    import json
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "sim.app.frametimes", "fast", size, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=timeout,
    )
    figures: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def helpers_line(alone: dict[str, Any], helped: dict[str, Any]) -> str:
    """The same decisions thought in one process and with helpers beside it."""
    from sim.physics.simulators.shared import helpers_wanted

    ratio = alone["think_seconds_median"] / helped["think_seconds_median"]
    return (
        f"the same {alone['decisions']} decisions at {alone['game']}, the window drawing: "
        f"in one process median {alone['think_seconds_median']:.1f} s, 95th percentile "
        f"{alone['think_seconds_p95']:.1f} s; with {helped['helpers']} helper(s) "
        f"{helped['think_seconds_median']:.1f} s and {helped['think_seconds_p95']:.1f} s, "
        f"{ratio:.2f} times as fast at the median (the table starts {helpers_wanted()} here)"
    )


def format_report_thinking(thinking: list[dict[str, Any]]) -> list[str]:
    """The computer's waits at the table (:func:`thinking_with_window`), a line a game."""
    return [
        f"computer player at the table, {w['game']}, level {w['level']}, the window drawing "
        f"({w['decisions']} strokes searched in {w['racks']} whole rack(s), "
        f"{w['helpers']} helper process(es), load "
        f"{w['load_average']:.1f}): thinking median "
        f"{w['think_seconds_median']:.1f} s, 95th percentile {w['think_seconds_p95']:.1f} s "
        f"(targets 3 s and 8 s); {w['frames_while_thinking']} frames drawn meanwhile, "
        f"median {w['frame_ms_median_while_thinking']:.0f} ms"
        for w in thinking
    ]


def format_report_hints(hints: list[dict[str, Any]]) -> list[str]:
    """The hint's waits (:func:`hints_with_window`), a line a game."""
    return [
        f"the hint at the table, {h['game']}, the window drawing ({h['hints']} hints, "
        f"load {h['load_average']:.1f}): from the key to the stroke loaded, median "
        f"{h['hint_seconds_median']:.1f} s, 95th percentile {h['hint_seconds_p95']:.1f} s "
        "(target 3 s at the median); its first words "
        + ("in the key's frame" if h["words_in_the_key_frame"] else "NOT in the key's frame")
        for h in hints
    ]


def format_tracking_lines(tracking: dict[str, dict[str, Any]]) -> list[str]:
    """The tracking lines' cost (:func:`tracking_lines_times`) as lines for people."""
    return [
        f"tracking lines, {preset}: frame {f['wall_ms_median_lines_on']:.0f} ms drawn, "
        f"{f['wall_ms_median_lines_off']:.0f} ms off (CPU {f['cpu_ms_median_lines_on']:.0f} "
        f"vs {f['cpu_ms_median_lines_off']:.0f} ms); aim at rest to lines shown "
        f"{f['rest_to_lines_s_median']:.2f} s median, max {f['rest_to_lines_s_max']:.2f} s "
        f"(the preview's physics {f['preview_physics_s_median']:.2f} s; load "
        f"{f['load_average']:.1f})"
        for preset, f in tracking.items()
    ]


def format_frame_times(frame_times: dict[str, dict[str, float]]) -> list[str]:
    """The desktop's frame times (:func:`frame_times`) as lines for people."""
    lines = []
    for preset, f in frame_times.items():
        name = "plain scene (pooltool's models, no shader)" if preset == "plain" else preset
        against = (
            ""
            if preset == "plain"
            else f"; {f['wall_to_plain']:.2f}x the plain scene (CPU {f['cpu_to_plain']:.2f}x)"
        )
        lines.append(
            f"desktop frame, {name}, {f['width']:.0f}x{f['height']:.0f}: "
            f"{f['wall_ms_median']:.0f} ms ({f['fps']:.0f} fps), CPU {f['cpu_ms_median']:.0f} ms"
            f"{against}"
        )
    return lines
