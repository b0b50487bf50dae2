"""Spotting geometry (GEN-4; ROT-12 and ROT-13 with B-9 and B-21 are in the rotation tests
too): pure functions of the table, the other balls and the options."""

from __future__ import annotations

import math

import pytest

from rules import CUE, Options, TableGeometry, spot_ball, spot_balls
from tests.rules.builders import FOOT_SPOT, TABLE, D, R


def test_gen_4_a_clear_foot_spot() -> None:
    """GEN-4(a): the ball goes on FS."""
    assert spot_ball(TABLE, {"3": (0.2, 0.2)}, Options()) == FOOT_SPOT


def test_gen_4_blocked_foot_spot_worked_example() -> None:
    """GEN-4(b): REFERENCE.md's example: a ball at (0.650, 1.930) -> (0.635, 1.98515)."""
    x, y = spot_ball(TABLE, {"5": (0.650, 1.930)}, Options())
    assert x == pytest.approx(0.635)
    assert y == pytest.approx(1.930 + math.sqrt(D**2 - 0.015**2))
    assert y == pytest.approx(1.98515, abs=1e-5)


def test_gen_4_frozen_to_the_obstructing_ball() -> None:
    """GEN-4(b): at exactly 2R from the obstruction."""
    point = spot_ball(TABLE, {"5": (0.635, 1.905)}, Options())
    assert math.dist(point, (0.635, 1.905)) == pytest.approx(D)


def test_gen_4_cue_ball_gap() -> None:
    """GEN-4(c): a cue ball in play gets the cue_ball_spot_gap, not a freeze."""
    point = spot_ball(TABLE, {CUE: (0.635, 1.93)}, Options())
    assert point[1] == pytest.approx(1.93 + D + 0.0005)
    wide = spot_ball(TABLE, {CUE: (0.635, 1.93)}, Options(cue_ball_spot_gap=0.002))
    assert wide[1] == pytest.approx(1.93 + D + 0.002)


def test_gen_4_past_a_chain_of_blockers() -> None:
    """GEN-4(b): the nearest free point behind several balls on the string."""
    others = {"2": (0.635, 1.905), "3": (0.635, 1.905 + D), "4": (0.64, 1.905 + 2 * D)}
    point = spot_ball(TABLE, others, Options())
    assert point[1] > 1.905 + 2 * D
    assert all(math.dist(point, p) >= D - 1e-9 for p in others.values())


def test_gen_4_full_string_uses_the_extension_toward_the_centre_spot() -> None:
    """GEN-4(d): only when FS to the foot rail is full, in front of FS."""
    y, others = 1.905, {}
    n = 2
    while y <= TABLE.length - R:
        others[str(n)] = (0.635, y)
        y += D
        n += 1
    point = spot_ball(TABLE, others, Options())
    assert point == pytest.approx((0.635, 1.905 - D))


def test_gen_4_nearest_either_side_option() -> None:
    """B-21 ``nearest_either_side``: in front of FS when that is nearer."""
    others = {"2": (0.635, 1.905 - 0.02)}  # just in front of FS: behind is D - 0.02 away
    behind = spot_ball(TABLE, others, Options())
    either = spot_ball(TABLE, others, Options(spot_search_order="nearest_either_side"))
    assert behind[1] > 1.905 and either[1] > 1.905  # the nearest free point is behind here
    others = {"2": (0.635, 1.905 + 0.02)}
    behind = spot_ball(TABLE, others, Options())
    either = spot_ball(TABLE, others, Options(spot_search_order="nearest_either_side"))
    assert behind[1] == pytest.approx(1.925 + D)
    assert either[1] == pytest.approx(1.925 - D)


def test_gen_4_pure_function_of_table_size() -> None:
    """GEN-4: FS is 3L/4 of whatever table."""
    small = TableGeometry(width=1.0, length=2.0, ball_radius=0.028)
    assert spot_ball(small, {}, Options()) == (0.5, 1.5)


def test_rot_13_multi_spot_orders() -> None:
    """ROT-13 / B-9: rail-anchored ascending by default; FS-first WPA style; packed."""

    def ys(options: Options) -> dict[str, float]:
        placed = spot_balls(["9", "4"], TABLE, {}, options)
        assert all(x == pytest.approx(0.635) for x, _ in placed.values())
        return {ball: y for ball, (_, y) in placed.items()}

    top = TABLE.length - R
    assert ys(Options()) == pytest.approx({"4": top, "9": top - D})
    wpa = ys(Options(multi_spot_order="lowest_nearest_foot_spot"))
    assert wpa == pytest.approx({"4": 1.905, "9": 1.905 + D})
    packed = ys(Options(multi_spot_anchor="foot_spot_packed"))
    assert packed == pytest.approx({"9": 1.905, "4": 1.905 + D})
