"""The shot timeline's figures for ``poolsim bench``: beside the timeline, not in it, so
the timeline module depends on no simulator (this one simulates the shot it measures).
In ``sim.physics`` because it times pooltool's own interpolation for comparison."""

from __future__ import annotations

import random
import statistics
import time

from rules import fullest_rack
from rules.facts import CUE
from sim.physics.pooltool_setup import pt
from sim.physics.racks import apex_ball, opening_position
from sim.physics.simulate import CueAction, aim_towards, simulate_shot
from sim.physics.table import table_spec
from sim.physics.timeline import ShotTimeline


def bench_timeline(queries: int = 1000, seed: int = 1) -> dict[str, float]:
    """The timeline's figures on the break of the fullest rack (16 balls with the cue
    ball, :func:`rules.fullest_rack`) for ``poolsim bench``: the
    median time of one all-balls query at a random t, next to pooltool's
    ``interpolate_ball_states`` for the same times (one call per ball, as a renderer
    without the timeline would do), the build time, and all frames at 60 fps."""
    spec = table_spec()
    balls = opening_position(fullest_rack().game, spec.geometry, seed)
    aim = aim_towards(balls[CUE], balls[apex_ball(balls)])
    shot = simulate_shot(spec, balls, CueAction(8.0, aim))
    started = time.perf_counter()
    timeline = ShotTimeline.from_system(shot.system)
    build = time.perf_counter() - started
    rng = random.Random(seed)
    times = [rng.uniform(0.0, timeline.duration) for _ in range(queries)]
    pooltool_balls = list(shot.system.balls.values())
    timeline.at(times[0])  # first-call costs (imports, caches) are not a query's
    ours, theirs = [], []
    for t in times:  # interleaved, so both see the same machine
        started = time.perf_counter()
        timeline.at(t)
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        for ball in pooltool_balls:
            pt.interpolate_ball_states(ball, [t])
        theirs.append(time.perf_counter() - started)
    started = time.perf_counter()
    frames = timeline.frames(60.0)
    frames_seconds = time.perf_counter() - started
    return {
        "balls": float(len(timeline.ball_ids)),
        "events": float(len(timeline.event_times)),
        "shot_seconds": timeline.duration,
        "build_ms": build * 1e3,
        "query_us_median": statistics.median(ours) * 1e6,
        "interpolate_us_median": statistics.median(theirs) * 1e6,
        "frames_60fps": float(len(frames.t)),
        "frames_60fps_ms": frames_seconds * 1e3,
    }
