"""``poolsim bench``: the performance figures, measured side by side in one run."""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from typing import Any

from rules.facts import CUE
from rules.geometry import TableGeometry


def run_bench(repeats: int = 9) -> dict[str, Any]:
    """Figures of this machine, this run. Breaks use seeds 1..repeats."""
    started = time.perf_counter()
    already = "sim.physics" in sys.modules
    physics = importlib.import_module("sim.physics")
    import_seconds = None if already else time.perf_counter() - started

    from sim.racks import opening_position
    from sim.table import table_spec

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
    break_shot("ten-ball", 0)
    first_shot_seconds = time.perf_counter() - first

    report: dict[str, Any] = {
        "repeats": repeats,
        "import_seconds": import_seconds,
        "first_shot_seconds": first_shot_seconds,
    }
    ratios = []
    for game in ("ten-ball", "rotation"):
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
    return report


def format_report(report: dict[str, Any]) -> list[str]:
    """The report as lines for people."""
    lines = []
    if report["import_seconds"] is not None:
        lines.append(f"import pooltool and sim:          {report['import_seconds']:.2f} s")
    lines.append(f"first shot in this process:        {report['first_shot_seconds']:.2f} s")
    for game in ("ten-ball", "rotation"):
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
    return lines
