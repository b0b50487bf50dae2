"""A stored shot judged event by event (:mod:`sim.physics.eventcheck`): the shots of
files simulated with another arithmetic follow from one event to the next within
rounding; a shot edited by hand does not, at the event edited."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sim.physics.eventcheck import TOLERANCE, check_events
from sim.physics.pooltool_setup import pt
from sim.play.game import ShotRecord
from sim.store.gamefile import load

pytestmark = pytest.mark.physics
GAMES = Path(__file__).resolve().parents[1] / "data" / "games"
ELSEWHERE = [
    *sorted((GAMES.parent / "elsewhere").glob("*.poolsim")),
    GAMES / "duel-ten-ball-won.poolsim",
]


def _systems(path: Path) -> list[pt.System]:
    game = load(path)
    return [
        node.record.simulated.system
        for line in game.lines()
        for node in line.nodes
        if isinstance(node.record, ShotRecord)
    ]


@pytest.mark.parametrize("path", ELSEWHERE, ids=lambda p: p.name)
def test_shots_simulated_elsewhere_follow_event_by_event(path: Path) -> None:
    checks = [check_events(system) for system in _systems(path)]
    assert all(check.consistent for check in checks), [c.problem for c in checks]
    assert sum(check.events for check in checks) > 600
    # Rounding, some ten thousand times below the tolerance.
    assert max(check.largest_difference for check in checks) < TOLERANCE / 1000


def _moved_ball(system: pt.System, k: int) -> None:
    """A ball the event does not name, a micrometre off where the physics put it."""
    named = set(system.events[k].ids)
    ball = next(b for b in system.balls.values() if b.id not in named)
    ball.history[k].rvw[0][0] += 1e-6


def _changed_outcome(system: pt.System, k: int) -> None:
    """The event's ball leaves it a little faster."""
    ball = system.balls[system.events[k].ids[-1] if k == 1 else system.events[k].ids[0]]
    ball.history[k].rvw[1] *= 1.001


def _later(system: pt.System, k: int) -> None:
    system.events[k].time += 1e-6


def _dropped(system: pt.System, k: int) -> None:
    del system.events[k]
    for ball in system.balls.values():
        del ball.history.states[k]


def _moved_at_rest(system: pt.System, k: int) -> None:
    """A ball's resting place, at the shot's end, a micrometre off (``k`` is not used)."""
    system.balls["cue"].history[-1].rvw[0][0] += 1e-6


@pytest.mark.parametrize("edit", [_moved_ball, _changed_outcome, _later, _dropped])
def test_a_shot_edited_by_hand_fails_at_the_event_edited(
    edit: Callable[[pt.System, int], None],
) -> None:
    system = max(_systems(ELSEWHERE[0]), key=lambda s: len(s.events))
    k = len(system.events) // 2
    while system.events[k].event_type not in (
        pt.EventType.BALL_BALL,
        pt.EventType.BALL_LINEAR_CUSHION,
    ):
        k += 1
    edit(system, k)
    check = check_events(system)
    assert not check.consistent
    assert check.problem is not None and check.problem.startswith(f"event {k} ")


def test_a_resting_place_moved_at_the_end_fails_there() -> None:
    system = max(_systems(ELSEWHERE[0]), key=lambda s: len(s.events))
    _moved_at_rest(system, 0)
    check = check_events(system)
    assert check.problem is not None
    assert check.problem.startswith(f"event {len(system.events) - 1} (none ")
