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


def _simulated_with_a_swap(record: ShotRecord, step: int) -> pt.System:
    """The record's shot simulated again, but the event the physics finds at ``step``
    swapped for a made-up one at the same moment: a resting ball far from every pocket
    pocketed (what a forger would do to turn a shot into a scratch or a pot; the rest of
    the shot then follows from it, as the physics would have it)."""
    from sim.physics.simulate import EVENT_WATCHDOG, build_system, engine, settle_positions

    spec = load(ELSEWHERE[0]).setup.spec
    table = spec.build()
    system = build_system(spec, settle_positions(spec, record.start, table), table)
    action = record.stroke.action
    system.strike(V0=action.speed, phi=action.aim, theta=action.elevation, a=action.a, b=action.b)
    module = pt.evolution.event_based.simulate
    original, found = module.get_next_event, [0]

    def swapped(shot: pt.System, **caches: object) -> pt.events.Event:
        event = original(shot, **caches)
        found[0] += 1
        if found[0] != step:
            return event
        resting = [b for b in shot.balls.values() if b.state.s == 0 and b.id != "cue"]
        ball = max(
            resting,
            key=lambda b: min(
                abs(b.state.rvw[0][0] - p.center[0]) + abs(b.state.rvw[0][1] - p.center[1])
                for p in shot.table.pockets.values()
            ),
        )
        pocket = next(iter(shot.table.pockets.values()))
        return pt.events.ball_pocket_collision(ball, pocket, event.time)

    module.get_next_event = swapped
    try:
        pt.simulate(system, engine=engine(), inplace=True, max_events=EVENT_WATCHDOG)
    finally:
        module.get_next_event = original
    return system


def test_an_event_swapped_for_another_at_the_same_moment_fails_there() -> None:
    game = load(ELSEWHERE[0])
    record = next(
        node.record
        for node in reversed(game.lines()[0].nodes)
        if isinstance(node.record, ShotRecord) and len(node.record.simulated.system.events) > 6
    )
    check = check_events(_simulated_with_a_swap(record, 3))
    assert check.problem is not None
    assert (
        check.problem.startswith("event 3 (ball_pocket ")
        and "the physics has it due at" in check.problem
    )
