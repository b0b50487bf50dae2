"""Compiling pooltool's physics ahead of play.

numba compiles pooltool's kernels on first use (35-46 s here) and caches them under
poolsim's cache folder (see ``sim.physics.pooltool_setup``); afterwards a process loads them in
about a second. Warming up runs a few shots that between them reach every kernel a game
uses: ball-ball, straight cushions, jaws, pockets, spin and massé.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rules import DEFAULT_GAME, fullest_rack, game_kind
from rules.facts import CUE
from rules.geometry import TableGeometry
from sim.physics.racks import apex_ball, opening_position
from sim.physics.simulate import CueAction, aim_towards, simulate_shot
from sim.physics.simulators.compiled import mark_compiled
from sim.physics.table import table_spec

StepCallback = Callable[[int, int, str], None]


def _steps() -> list[tuple[str, dict[str, tuple[float, float]], CueAction]]:
    geometry = TableGeometry()
    cue = (0.5, 0.6)
    pot = {CUE: cue, "1": (1.0, 2.2)}
    # The game played when none is named, and the rack of the most balls.
    usual, fullest = game_kind(DEFAULT_GAME), fullest_rack()
    breaks = [
        (
            f"breaking the {kind.display_name} rack",
            balls,
            CueAction(speed=8.0, aim=aim_towards(balls[CUE], balls[apex_ball(balls)])),
        )
        for kind in (usual, fullest)
        for balls in [opening_position(kind.game, geometry, seed=0)]
    ]
    return [
        (
            "a cut shot into a corner pocket",
            pot,
            CueAction(speed=2.5, aim=aim_towards(cue, (0.99, 2.23))),
        ),
        *breaks,
        (
            "draw, side spin and a massé",
            pot,
            CueAction(speed=3.0, aim=80.0, elevation=30.0, a=0.3, b=-0.3),
        ),
    ]


def warm_up(on_step: StepCallback | None = None) -> float:
    """Run the warm-up shots; ``on_step(done, total, label)`` before each and at the end.
    Returns the seconds it took, and stamps the cache as compiled
    (``sim.physics.simulators.compiled``)."""
    spec = table_spec()
    steps = _steps()
    started = time.perf_counter()
    for done, (label, positions, action) in enumerate(steps):
        if on_step is not None:
            on_step(done, len(steps), label)
        simulate_shot(spec, positions, action)
    seconds = time.perf_counter() - started
    mark_compiled(seconds)
    if on_step is not None:
        on_step(len(steps), len(steps), "done")
    return seconds
