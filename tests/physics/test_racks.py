"""Racks against TB-3, NB-3 (B-26) and ROT-3: apex on the foot spot, fixed balls where the rules put
them, no overlaps, the rest shuffled reproducibly from an explicit seed."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from rules import Options, game_kind
from rules.facts import CUE
from rules.geometry import TableGeometry
from rules.rack import RackPattern
from sim.physics.racks import DEFAULT_RACK_GAP, opening_position, rack, rerack

Balls = dict[str, tuple[float, float]]
GEOMETRY = TableGeometry()
R = GEOMETRY.ball_radius


def _rack(game: str, seed: int, gap: float = DEFAULT_RACK_GAP, **options: Any) -> Balls:
    """The rack of ``game`` (its class's pattern under ``options``), as a match racks it."""
    return rack(GEOMETRY, game_kind(game).rack_pattern(Options(**options)), seed, gap)


# REFERENCE.md TB-3 / ROT-3 nominal centres (frozen rack, 9-ft table).
TB3_ROWS = [
    [(0.635, 1.905)],
    [(0.606425, 1.954493), (0.663575, 1.954493)],
    [(0.577850, 2.003987), (0.635000, 2.003987), (0.692150, 2.003987)],
    [(0.549275, 2.053480), (0.606425, 2.053480), (0.663575, 2.053480), (0.720725, 2.053480)],
]
ROT3_ROW5 = [
    (0.520700, 2.102973),
    (0.577850, 2.102973),
    (0.635000, 2.102973),
    (0.692150, 2.102973),
    (0.749300, 2.102973),
]


def _flat(points: list[tuple[float, float]]) -> list[float]:
    return [c for point in points for c in point]


def _min_gap(balls: dict[str, tuple[float, float]]) -> float:
    return min(math.dist(a, b) - 2 * R for a, b in itertools.combinations(balls.values(), 2))


def test_tb3_ten_ball_rack_coordinates() -> None:
    """TB-3: 1 on the foot spot, 10 in the middle of row 3, slots as REFERENCE.md."""
    balls = _rack("ten-ball", 5, 0.0)
    assert sorted(balls, key=int) == [str(n) for n in range(1, 11)]
    assert balls["1"] == pytest.approx(GEOMETRY.foot_spot)
    assert balls["10"] == pytest.approx((0.635, 2.003987), abs=1e-6)
    slots = sorted(p for row in TB3_ROWS for p in row)
    assert _flat(sorted(balls.values())) == pytest.approx(_flat(slots), abs=1e-6)
    assert _min_gap(balls) == pytest.approx(0.0, abs=1e-12)  # frozen


# NB-3: the diamond's nominal centres (REFERENCE.md), rows 1-2-3-2-1.
NB3_SLOTS = [
    (0.635, 1.905),
    (0.606425, 1.954493),
    (0.663575, 1.954493),
    (0.577850, 2.003987),
    (0.635000, 2.003987),
    (0.692150, 2.003987),
    (0.606425, 2.053480),
    (0.663575, 2.053480),
    (0.635000, 2.102973),
]
# B-26 nine_on_foot_spot: the same diamond two rows toward the head rail.
B26_ROW_Y = [1.806013, 1.855507, 1.905000, 1.954493, 2.003987]


def test_nb3_nine_ball_diamond_coordinates() -> None:
    """NB-3: 1 on the foot spot, 9 in the centre, the seven others in the diamond's slots."""
    balls = _rack("nine-ball", 5, 0.0)
    assert sorted(balls, key=int) == [str(n) for n in range(1, 10)]
    assert balls["1"] == pytest.approx(GEOMETRY.foot_spot)
    assert balls["9"] == pytest.approx((0.635, 2.003987), abs=1e-6)
    assert _flat(sorted(balls.values())) == pytest.approx(_flat(sorted(NB3_SLOTS)), abs=1e-6)
    assert _min_gap(balls) == pytest.approx(0.0, abs=1e-12)
    others = [_rack("nine-ball", s) for s in range(20)]
    assert len({r["6"] for r in others}) > 1  # the free balls are shuffled


def test_b26_nine_on_the_foot_spot() -> None:
    balls = _rack("nine-ball", 5, 0.0, nine_rack_position="nine_on_foot_spot")
    assert balls["9"] == pytest.approx(GEOMETRY.foot_spot)
    assert balls["1"] == pytest.approx((0.635, B26_ROW_Y[0]), abs=1e-6)
    assert sorted({round(y, 6) for _, y in balls.values()}) == pytest.approx(B26_ROW_Y, abs=1e-6)


def test_rot3_rotation_rack_coordinates() -> None:
    """ROT-3: 1 apex on the foot spot, 15 centre, 2 at the racker's right (x low) back
    corner, 3 at the left (x high) back corner."""
    balls = _rack("rotation", 5, 0.0)
    assert sorted(balls, key=int) == [str(n) for n in range(1, 16)]
    assert balls["1"] == pytest.approx(GEOMETRY.foot_spot)
    assert balls["15"] == pytest.approx((0.635, 2.003987), abs=1e-6)
    assert balls["2"] == pytest.approx(ROT3_ROW5[0], abs=1e-6)
    assert balls["3"] == pytest.approx(ROT3_ROW5[-1], abs=1e-6)
    slots = sorted([p for row in TB3_ROWS for p in row] + ROT3_ROW5)
    assert _flat(sorted(balls.values())) == pytest.approx(_flat(slots), abs=1e-6)


def test_rot3_options() -> None:
    """B-13: the 2 on the x-high side; or only the 1 fixed."""
    swapped = _rack("rotation", 5, 0.0, rotation_rack_2_side="x_high")
    assert swapped["2"] == pytest.approx(ROT3_ROW5[-1], abs=1e-6)
    assert swapped["3"] == pytest.approx(ROT3_ROW5[0], abs=1e-6)
    loose = [_rack("rotation", s, rotation_rack_pattern="one_apex_rest_random") for s in range(20)]
    assert all(r["1"] == pytest.approx(GEOMETRY.foot_spot) for r in loose)
    assert len({r["15"] for r in loose}) > 1
    with pytest.raises(ValueError, match="'diamond' is not one of"):
        _rack("rotation", 1, rotation_rack_pattern="diamond")


@pytest.mark.parametrize("game", ["ten-ball", "nine-ball", "eight-ball", "rotation"])
def test_gap_and_seed(game: str) -> None:
    first = _rack(game, 11)
    assert first == _rack(game, 11)
    assert any(_rack(game, s) != first for s in range(12, 20))
    assert _min_gap(first) == pytest.approx(DEFAULT_RACK_GAP, rel=1e-6)
    apex = min(first.values(), key=lambda point: point[1])
    assert apex == pytest.approx(GEOMETRY.foot_spot)
    assert all(GEOMETRY.on_bed(p) for p in first.values())


def test_bad_gap_is_refused() -> None:
    with pytest.raises(ValueError, match="rack gap"):
        _rack("ten-ball", 1, -1e-4)


@pytest.mark.parametrize(("game", "count"), [("ten-ball", 11), ("nine-ball", 10), ("rotation", 16)])
def test_opening_position_has_cue_ball_in_the_kitchen(game: str, count: int) -> None:
    balls = opening_position(game, GEOMETRY, seed=3)
    assert GEOMETRY.kitchen_contains(balls[CUE])
    assert len(balls) == count
    with pytest.raises(ValueError, match="unknown game"):
        opening_position("snooker", GEOMETRY, seed=3)


def test_a_rerack_with_nothing_staying_is_the_rack() -> None:
    for game in ("ten-ball", "nine-ball", "eight-ball", "rotation"):
        pattern = game_kind(game).rack_pattern(Options())
        assert rerack(GEOMETRY, pattern, 7, {}) == rack(GEOMETRY, pattern, 7)


def test_fourteen_balls_reracked_around_the_fifteenth() -> None:
    """WPA-14 4.2 (SP-2, SP-14): the fourteen balls not on the table fill the triangle's
    slots but the apex, which stays empty; the break ball and the cue ball stay as they
    lie, in one call."""
    triangle = RackPattern.triangle([None] * 15)
    staying = {"7": (0.3, 1.2), CUE: (0.9, 0.5)}
    balls = rerack(GEOMETRY, triangle, 3, staying, gap=0.0)
    assert {ball: balls[ball] for ball in staying} == staying
    racked = {ball: point for ball, point in balls.items() if ball not in staying}
    assert sorted(racked, key=int) == [str(n) for n in range(1, 16) if n != 7]
    slots = [p for row in TB3_ROWS for p in row] + ROT3_ROW5
    slots.remove(min(slots, key=lambda point: point[1]))  # the apex, on the foot spot
    assert _flat(sorted(racked.values())) == pytest.approx(_flat(sorted(slots)), abs=1e-6)
    again = rerack(GEOMETRY, triangle, 4, staying)
    assert again != rerack(GEOMETRY, triangle, 3, staying)  # shuffled by the seed


def test_a_fixed_ball_that_stays_leaves_its_slot_empty() -> None:
    pattern = game_kind("ten-ball").rack_pattern(Options())
    balls = rerack(GEOMETRY, pattern, 5, {"1": (0.3, 0.5)})
    assert balls["1"] == (0.3, 0.5)
    assert GEOMETRY.foot_spot not in balls.values() and len(balls) == 10
    assert balls["10"] == rack(GEOMETRY, pattern, 5)["10"]  # the 10 where TB-3 puts it


def test_a_ball_staying_in_the_racks_place_is_refused() -> None:
    with pytest.raises(ValueError, match="the 7 stays where the rack puts"):
        rerack(GEOMETRY, RackPattern.triangle([None] * 15), 3, {"7": (0.64, 1.95)})
