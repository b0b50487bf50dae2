"""pooltool's two hot spots done faster (sim.physics.patches.speedups): written from pooltool
0.6.0's own source, installed only over it, and the same to the last bit."""

from __future__ import annotations

import random

import pytest

from sim.physics.patches import speedups
from sim.physics.pooltool_setup import pt
from sim.physics.racks import opening_position
from sim.physics.simulate import CueAction, simulate_shot
from sim.physics.systemcodec import system_to_bytes
from sim.physics.table import table_spec

pytestmark = pytest.mark.physics


def test_each_replacement_is_written_from_the_pooltool_installed() -> None:
    speedups.uninstall()
    try:
        model = pt.physics.resolve.ball_cushion.stronge_compliant.model
        cache = pt.evolution.event_based.cache.CollisionCache
        assert speedups.source_digest(cache.invalidate) == speedups.ORIGINALS["invalidate"]
        assert speedups.source_digest(model._solve) == speedups.ORIGINALS["stronge_solve"]
    finally:
        assert speedups.install() == []
    assert cache.invalidate is speedups.invalidate
    assert model._solve is speedups.stronge_solve


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
