"""pooltool's hot spots done faster (sim.physics.patches.speedups and .nextevent): written
from pooltool 0.6.0's own source, installed only over it, and the same to the last bit."""

from __future__ import annotations

import random

import pytest

from sim.physics.patches import nextevent, speedups
from sim.physics.pooltool_setup import pt
from sim.physics.racks import opening_position
from sim.physics.simulate import CueAction, simulate_shot
from sim.physics.systemcodec import system_to_bytes
from sim.physics.table import table_spec

pytestmark = pytest.mark.physics


def test_each_replacement_is_written_from_the_pooltool_installed() -> None:
    targets = speedups.targets()
    assert set(targets) == set(speedups.ORIGINALS)
    speedups.uninstall()
    try:
        for name, (namespace, attribute, _replacement) in targets.items():
            own = getattr(namespace, attribute)
            assert speedups.source_digest(own) == speedups.ORIGINALS[name], name
    finally:
        assert speedups.install() == []
    for namespace, attribute, replacement in targets.values():
        assert getattr(namespace, attribute) is replacement
    search = pt.evolution.event_based.simulate
    assert search.get_next_ball_ball_collision is nextevent.ball_ball_next


def test_a_function_not_written_from_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    speedups.uninstall()
    monkeypatch.setitem(speedups.ORIGINALS, "invalidate", "another pooltool")
    try:
        assert speedups.install() == ["invalidate"]
        cache = pt.evolution.event_based.cache.CollisionCache
        assert cache.invalidate is not speedups.invalidate
    finally:
        speedups.uninstall()
        monkeypatch.undo()
        assert speedups.install() == []


def _shots() -> list[tuple[str, dict[str, tuple[float, float]], CueAction]]:
    """Breaks of each rack on both tables, and strokes of every pace, spin and line
    from the racks' own positions (cushions, jaws, pockets, clusters: every kind of
    event)."""
    draw = random.Random(5)
    shots = []
    for table in ("9ft", "7ft"):
        spec = table_spec(table)
        for game in ("ten-ball", "nine-ball", "eight-ball", "rotation"):
            balls = dict(opening_position(game, spec.geometry, seed=len(shots)))
            shots.append((table, balls, CueAction(speed=8.0, aim=90.0, b=0.1)))
            for _ in range(3):
                action = CueAction(
                    speed=draw.uniform(1.0, 6.0),
                    aim=draw.uniform(0.0, 360.0),
                    a=draw.uniform(-0.3, 0.3),
                    b=draw.uniform(-0.35, 0.35),
                    elevation=draw.choice((0.0, 0.0, 12.0)),
                )
                shots.append((table, balls, action))
    return shots


def _systems() -> list[bytes]:
    return [
        system_to_bytes(simulate_shot(table_spec(table), balls, action).system)
        for table, balls, action in _shots()
    ]


def test_shots_simulate_to_the_same_bits_with_pooltools_own_functions() -> None:
    faster = _systems()
    speedups.uninstall()
    try:
        own = _systems()
    finally:
        speedups.install()
    assert len(own) == 32
    assert faster == own


class _Ball:
    def __init__(self, id: str) -> None:
        self.id = id


@pytest.mark.parametrize(
    ("changed", "told"),
    [
        ({"1"}, [False, True, False, False]),
        ({"cue"}, [True, False, False, False]),
        ({"cue", "1"}, [True, True, False, False]),
        ({"cue", "3"}, [True, False, False, True]),
        ({"cue", "1", "2", "3"}, None),
    ],
)
def test_the_balls_changed_are_read_off_the_pairs_still_cached(
    changed: set[str], told: list[bool] | None
) -> None:
    """A pair of balls is dropped when either changed, so an unchanged ball's pairs say
    which others changed; when every ball changed, pooltool's own walk is left to fill."""
    balls = [_Ball(id) for id in ("cue", "1", "2", "3")]
    cache = {
        (a.id, b.id): 1.0
        for i, a in enumerate(balls)
        for b in balls[i + 1 :]
        if a.id not in changed and b.id not in changed
    }
    assert nextevent._changed_balls(cache, balls) == told
