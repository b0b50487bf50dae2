"""Spotting geometry (GEN-4; ROT-12 and ROT-13 with B-9 and B-21 are in the rotation tests
too): pure functions of the table, the other balls and the options."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pytest

from rules import CUE, FoulCode, Options, Phase, Ruling, TableGeometry, spot_ball, spot_balls
from rules.geometry import Point
from tests.rules.builders import FOOT_SPOT, TABLE, D, R, hit, pocket, rot, shot, ten


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


# ROT-13: "The sequence never uses a point closer to FS than 2R while FS is occupied or
# reserved for LB. FS is reserved for LB only while LB itself is among the balls spotted by
# this ruling (ROT-16)." The positions below fill the long string from the foot rail down
# to y = 2.054225 (nine balls frozen in a row), so the sequence reaches the foot spot.
STRING_ROW: dict[str, Point] = {
    str(n): (0.635, TABLE.length - R - k * D)
    for k, n in enumerate(("4", "5", "6", "8", "9", "10", "11", "12", "13"))
}
FIRST_CLEAR_OF_FOOT_SPOT = FOOT_SPOT[1] - D  # 1.84785: frozen to a ball on FS, CS side
GAP = Options().cue_ball_spot_gap
# What covers FS without standing on it (27.65 mm and 27.15 mm behind it): the cue ball in
# play, or an object ball. Either way the 7 used to land frozen to it at y = 1.875.
COVERED_BY_CUE: dict[str, Point] = {CUE: (0.635, 1.875 + D + GAP)}
COVERED_BY_BALL: dict[str, Point] = {CUE: (0.3, 0.5), "14": (0.635, 1.875 + D)}


def _foul_pocketing(down: tuple[str, ...], resting: Mapping[str, Point]) -> Ruling:
    """A wrong-ball foul (the cue ball meets the 4 first) that pockets ``down``, the balls
    coming to rest at ``resting``."""
    before = {**resting, CUE: (0.635, 0.8), **{b: (0.2 + 0.05 * int(b), 1.2) for b in down}}
    return rot(before).rule(shot(hit(CUE, "4"), *(pocket(b) for b in down), resting=resting))


@pytest.mark.parametrize(
    ("cover", "lowest_y"),
    [
        (COVERED_BY_CUE, 1.875 + 2 * (D + GAP)),
        (COVERED_BY_BALL, 1.875 + 2 * D),
        ({CUE: (0.635, 1.868 + D + GAP)}, 1.868 + 2 * (D + GAP)),  # the 7 was at 1.868
    ],
    ids=["cue", "ball", "cue-37mm"],
)
def test_rot_13_foot_spot_reserved_for_the_lowest_ball_it_cannot_take(
    cover: dict[str, Point], lowest_y: float
) -> None:
    """ROT-16 / ROT-13: the 3 (LB) and the 7 are pocketed on a foul; something covers FS,
    so the 3 goes behind it (ROT-12, GEN-4(b)/(c)), and FS stays reserved for it: the 7,
    past the row, goes no nearer FS than 2R, at the first point of the extension,
    y = FS.y - 2R (it was frozen to the cover at y = 1.875 or 1.868, 30 or 37 mm from FS)."""
    ruling = _foul_pocketing(("3", "7"), {**STRING_ROW, **cover})
    assert ruling.foul_codes == (FoulCode.WRONG_BALL,)
    assert ruling.spotted["3"] == pytest.approx((0.635, lowest_y))
    assert ruling.spotted["7"] == pytest.approx((0.635, FIRST_CLEAR_OF_FOOT_SPOT))
    assert math.dist(ruling.spotted["7"], FOOT_SPOT) >= D - 1e-9


@pytest.mark.parametrize(
    ("cover", "lowest_y"),
    [({}, FOOT_SPOT[1]), (COVERED_BY_CUE, 1.875 + 2 * (D + GAP)), (COVERED_BY_BALL, 1.9893)],
    ids=["free", "cue", "ball"],
)
def test_rot_12_the_lowest_ball_alone_is_unchanged(
    cover: dict[str, Point], lowest_y: float
) -> None:
    """ROT-16 / ROT-12: LB alone goes on FS, or frozen behind what covers it (the GEN-4(c)
    gap from a cue ball): the reservation concerns only the other balls."""
    ruling = _foul_pocketing(("3",), {**STRING_ROW, CUE: (0.3, 0.5), **cover})
    assert ruling.spotted == {"3": pytest.approx((0.635, lowest_y))}


def test_rot_13_foot_spot_free_and_not_reserved_lets_the_row_come_near_it() -> None:
    """ROT-13: the 3 (LB) stays on the table and FS is clear: nothing is reserved, so the
    14 is frozen to the 7 at y = 1.939925, 34.9 mm from FS (as audit2's eleven balls)."""
    resting = {**STRING_ROW, CUE: (0.3, 0.5), "3": (1.0, 1.0)}
    ruling = _foul_pocketing(("7", "14"), resting)
    assert ruling.spotted == {
        "7": pytest.approx((0.635, 1.997075)),
        "14": pytest.approx((0.635, 1.939925)),
    }


def test_rot_13_lowest_ball_on_a_free_foot_spot_holds_it_itself() -> None:
    """ROT-16 then ROT-13: the 3 takes the free FS; the 7, past a ten-ball row, is frozen
    to the 3 on its centre-spot side, the same first point y = FS.y - 2R."""
    row = {**STRING_ROW, "15": (0.635, 1.997075)}
    ruling = _foul_pocketing(("3", "7"), {**row, CUE: (0.3, 0.5)})
    assert ruling.spotted["3"] == FOOT_SPOT
    assert ruling.spotted["7"] == pytest.approx((0.635, FIRST_CLEAR_OF_FOOT_SPOT))


def test_rot_13_several_balls_past_a_reserved_foot_spot() -> None:
    """ROT-13: with FS reserved for the 3, the 7, 14 and 15 continue on the extension from
    y = FS.y - 2R toward the centre spot, each frozen in front of the previous one."""
    ruling = _foul_pocketing(("3", "7", "14", "15"), {**STRING_ROW, **COVERED_BY_CUE})
    ys = {ball: y for ball, (_, y) in ruling.spotted.items() if ball != "3"}
    assert ys == pytest.approx({"7": 1.84785, "14": 1.84785 - D, "15": 1.84785 - 2 * D})


def test_rot_13_reservation_changes_nothing_where_the_row_stops_short() -> None:
    """ROT-13: the reservation only forbids points within 2R of FS; with the string
    empty the 7 and 14 still go against the foot cushion, in order."""
    ruling = _foul_pocketing(("3", "7", "14"), {**COVERED_BY_CUE, "4": (1.0, 1.0)})
    assert ruling.spotted["7"] == pytest.approx((0.635, TABLE.length - R))
    assert ruling.spotted["14"] == pytest.approx((0.635, TABLE.length - R - D))


def test_rot_13_foot_spot_occupied_by_the_cue_ball_keeps_the_row_off_it() -> None:
    """ROT-13, "while FS is occupied": the 3 (LB) stays on the table, so nothing is
    reserved, but the cue ball in play covers FS before the sequence starts; the 14, past
    the 7 and the cue ball, goes at y = FS.y - 2R, not frozen to the cue ball at 1.875.
    (A ball of the sequence itself may still come over FS: audit2's eleven balls.)"""
    resting = {**STRING_ROW, **COVERED_BY_CUE, "3": (1.0, 1.0)}
    ruling = _foul_pocketing(("7", "14"), resting)
    assert ruling.spotted == {
        "7": pytest.approx((0.635, 1.997075)),
        "14": pytest.approx((0.635, FIRST_CLEAR_OF_FOOT_SPOT)),
    }


def test_gen_4_ten_ball_several_balls_keep_freezing_to_what_covers_the_foot_spot() -> None:
    """GEN-4(b) / TB-9 with B-6 ``respot_all``: ROT-13's reservation is a rotation rule; in
    10-ball the 5 still goes frozen behind the ball covering FS, 47 mm from FS, the 7 next."""
    cover = (0.635, FOOT_SPOT[1] - 0.01)
    balls = {CUE: (0.6, 0.6), "1": (0.3, 1.2), "5": (0.9, 1.3), "7": (1.0, 1.5), "9": cover}
    state = ten(
        balls, phase=Phase.AFTER_BREAK, options=Options(push_out_pocketed_balls="respot_all")
    )
    ruling = state.rule(shot(hit(CUE, "5"), pocket("5"), pocket("7", "lt"), declare="push-out"))
    assert ruling.spotted["5"] == pytest.approx((0.635, cover[1] + D))
    assert ruling.spotted["7"] == pytest.approx((0.635, cover[1] + 2 * D))
    assert spot_balls(["5"], TABLE, {"9": cover}, Options()) == {
        "5": pytest.approx((0.635, TABLE.length - R))
    }
