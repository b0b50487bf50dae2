"""The break study (sim.play.opponent.breakstudy) and the practised break it found."""

from __future__ import annotations

import os

import pytest

from rules import TenBall
from sim.play.opponent import level_named
from sim.play.opponent.breakstudy import BreakFigures, study
from sim.play.opponent.strokes import BREAK_CHOICES

pytestmark = pytest.mark.physics

TEN = TenBall.practised_break
assert TEN is not None
PRACTISED = (TEN.offset, TEN.spin, TEN.speed)


def test_a_study_counts_every_strike_and_comes_out_the_same_for_a_seed() -> None:
    five = level_named("5")
    shapes = [PRACTISED, BREAK_CHOICES[0]]
    figures = study("ten-ball", "9ft", five, shapes, racks=2, strikes=2, seed=4)
    assert [f.shape for f in figures] == shapes
    for f in figures:
        assert f.strikes == 4
        assert 0.0 <= f.value <= 1.0
        assert 0 <= f.likely <= f.kept <= f.strikes - f.fouls
    assert figures == study("ten-ball", "9ft", five, shapes, racks=2, strikes=2, seed=4)
    assert figures != study("ten-ball", "9ft", five, shapes, racks=2, strikes=2, seed=5)


@pytest.mark.parametrize(
    "racks, strikes, shapes", [(0, 1, [PRACTISED]), (1, 0, [PRACTISED]), (1, 1, [])]
)
def test_a_study_of_nothing_is_refused(
    racks: int, strikes: int, shapes: list[tuple[float, float, float]]
) -> None:
    with pytest.raises(ValueError, match="needs a rack"):
        study("ten-ball", "9ft", level_named("5"), shapes, racks=racks, strikes=strikes, seed=1)


# The study behind TenBall.practised_break, again on racks of its own, for a run on purpose
# (POOLSIM_BREAK_RACKS=160: about 4 minutes on one core).
RACKS = int(os.environ.get("POOLSIM_BREAK_RACKS", "0"))


@pytest.mark.skipif(not RACKS, reason="POOLSIM_BREAK_RACKS=N studies the breaks on N racks")
def test_the_practised_10_ball_break_leaves_more_than_every_break_on_the_rack() -> None:
    figures = study(
        "ten-ball", "9ft", level_named("5"), [PRACTISED, *BREAK_CHOICES], RACKS, 4, seed=12
    )
    practised, *others = figures
    assert all(practised.value > other.value for other in others), _table(figures)
    assert practised.fouls <= 0.04 * practised.strikes, _table(figures)


def _table(figures: list[BreakFigures]) -> str:
    return "\n".join(
        f"{f.shape}: {f.value:.3f} fouls {f.fouls} kept {f.kept} likely {f.likely} of {f.strikes}"
        for f in figures
    )
