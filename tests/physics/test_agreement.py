"""system_disagreement: a simulated shot's system agrees with its stroke, its table and
its start (eased apart as the physics places them); another stroke, table or start is
named."""

from __future__ import annotations

import pytest

from sim.physics.agreement import system_disagreement
from sim.physics.racks import opening_position
from sim.physics.simulate import CueAction, simulate_shot
from sim.physics.table import TableSize, table_spec

pytestmark = pytest.mark.physics
NINE_FOOT = table_spec(TableSize.NINE_FOOT)
BREAK = CueAction(speed=7.0, aim=90.0, b=0.1)


@pytest.fixture(scope="module")
def start() -> dict[str, tuple[float, float]]:
    return dict(opening_position("ten-ball", NINE_FOOT.geometry, seed=3))


def test_a_simulated_break_agrees_with_its_record(start: dict[str, tuple[float, float]]) -> None:
    shot = simulate_shot(NINE_FOOT, start, BREAK)
    assert system_disagreement(shot.system, NINE_FOOT, start, BREAK) is None


def test_frozen_balls_eased_apart_still_agree() -> None:
    """Two balls touching are placed 0.1 mm apart by the physics: the system starts where
    the easing put them, and that agrees with the record's touching positions."""
    start = {"cue": (0.635, 0.6), "1": (0.635, 0.6 + 2 * NINE_FOOT.ball_radius)}
    action = CueAction(speed=2.0, aim=90.0)
    shot = simulate_shot(NINE_FOOT, start, action)
    assert shot.before != start
    assert system_disagreement(shot.system, NINE_FOOT, start, action) is None


def test_another_stroke_table_or_start_is_named(start: dict[str, tuple[float, float]]) -> None:
    system = simulate_shot(NINE_FOOT, start, BREAK).system
    softer = CueAction(speed=6.0, aim=90.0, b=0.1)
    assert system_disagreement(system, NINE_FOOT, start, softer) == (
        "the cue's V0 is 7.0, the stroke's speed 6.0"
    )
    eight_foot = table_spec(TableSize.EIGHT_FOOT)
    assert system_disagreement(system, eight_foot, start, BREAK) == (
        "table.pockets['lc'].center is [-0.0685, 1.27, 0.0], the 8ft table's [-0.0685, 1.1176, 0.0]"
    )
    moved = {**start, "cue": (start["cue"][0] + 0.01, start["cue"][1])}
    assert system_disagreement(system, NINE_FOOT, moved, BREAK) == (
        "balls['cue'] starts at (0.6350, 0.5080, 0.0286), the start has it at (0.6450, 0.5080) "
        "on the cloth"
    )
    fewer = {ball: point for ball, point in start.items() if ball != "9"}
    assert system_disagreement(system, NINE_FOOT, fewer, BREAK) == (
        f"the balls are {sorted(system.balls)}, the start's {sorted(fewer)}"
    )
