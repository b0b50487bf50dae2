"""Table specs against WPA dimensions, landmarks, and the rail of every cushion segment."""

from __future__ import annotations

import math
import random

import attrs
import numpy as np
import pytest

from rules.facts import PocketId, RailName
from sim.physics.table import (
    MAIN_CUSHION_OF_RAIL,
    POCKET_OF_JAW,
    RAIL_OF_SEGMENT,
    TablePlan,
    TableSize,
    cushion_boxes,
    in_pocket_mouth,
    may_be_within,
    nearest_cushion,
    pocket_centre,
    pocket_mouth,
    rail_of_segment,
    shipped_plan,
    table_spec,
    within_rails,
)

INCH = 0.0254


def test_nine_foot_is_the_wpa_table_and_the_default() -> None:
    spec = table_spec()
    assert spec.size is TableSize.NINE_FOOT
    assert (spec.width, spec.length) == pytest.approx((50 * INCH, 100 * INCH))
    assert spec.ball_radius == pytest.approx(2.25 * INCH / 2)
    table = spec.build()
    assert (table.w, table.l) == pytest.approx((1.27, 2.54))
    # WPA mouths: corner 4.5-4.625 in, side 5-5.125 in (jaw tip to jaw tip).
    assert 4.5 * INCH <= spec.corner_pocket_width <= 4.625 * INCH
    assert 5 * INCH <= spec.side_pocket_width <= 5.125 * INCH
    # Cushion nose at 62.5-64.5 % of the ball's height.
    assert 0.625 <= spec.cushion_height / (2 * spec.ball_radius) <= 0.645


def test_eight_and_seven_foot_tables() -> None:
    eight, seven = table_spec("8ft"), table_spec("7ft")
    assert (eight.width, eight.length) == pytest.approx((44 * INCH, 88 * INCH))
    assert (seven.width, seven.length) == pytest.approx((39 * INCH, 78 * INCH))
    for spec in (eight, seven):
        table = spec.build()
        assert (table.w, table.l) == pytest.approx((spec.width, spec.length))


def test_the_seven_foot_is_pooltools_own_table_to_the_last_bit() -> None:
    from sim.physics.pooltool_setup import pt

    theirs = pt.objects.PocketTableSpecs()
    seven = table_spec("7ft")
    assert (
        seven.width,
        seven.length,
        seven.corner_pocket_width,
        seven.side_pocket_width,
        seven.cushion_height,
    ) == (
        theirs.w,
        theirs.l,
        theirs.corner_pocket_width,
        theirs.side_pocket_width,
        theirs.cushion_height,
    )


def test_unknown_table_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown table '6ft'"):
        table_spec("6ft")


@pytest.mark.parametrize("size", list(TableSize))
def test_landmarks(size: TableSize) -> None:
    geometry = table_spec(size).geometry
    w, length = geometry.width, geometry.length
    assert geometry.head_string_y == pytest.approx(length / 4)
    assert geometry.foot_spot == pytest.approx((w / 2, 3 * length / 4))
    assert geometry.centre_spot == pytest.approx((w / 2, length / 2))
    assert geometry.long_string == ((w / 2, 3 * length / 4), (w / 2, length))
    assert geometry.in_kitchen((w / 2, length / 4 - 0.01))
    assert not geometry.in_kitchen((w / 2, length / 4))  # on the string is not behind it


@pytest.mark.parametrize("size", list(TableSize))
def test_pockets_by_id(size: TableSize) -> None:
    spec = table_spec(size)
    table = spec.build()
    assert set(table.pockets) == {p.value for p in PocketId}
    expected = {
        "lb": (0, 0),
        "lc": (0, spec.length / 2),
        "lt": (0, spec.length),
        "rb": (spec.width, 0),
        "rc": (spec.width, spec.length / 2),
        "rt": (spec.width, spec.length),
    }
    for pocket_id, (x, y) in expected.items():
        centre = table.pockets[pocket_id].center[:2]
        assert np.hypot(centre[0] - x, centre[1] - y) < 0.1, pocket_id
        assert in_pocket_mouth(table, (float(centre[0]), float(centre[1]))) == pocket_id


@pytest.mark.parametrize("size", list(TableSize))
def test_every_segment_has_a_rail_checked_geometrically(size: TableSize) -> None:
    """A main cushion lies on its rail's nose line; a jaw (or its tip) touches the end of
    its rail's main cushion nearest to it, and sits by the mouth of its pocket."""
    spec = table_spec(size)
    table = spec.build()
    linear, circular = table.cushion_segments.linear, table.cushion_segments.circular
    assert set(RAIL_OF_SEGMENT) == set(linear) | set(circular)
    nose = {
        RailName.HEAD: (1, 0.0),
        RailName.FOOT: (1, spec.length),
        RailName.LEFT: (0, 0.0),
        RailName.RIGHT: (0, spec.width),
    }
    for rail, segments in MAIN_CUSHION_OF_RAIL.items():
        axis, value = nose[rail]
        for segment in segments:
            assert linear[segment].p1[axis] == pytest.approx(value)
            assert linear[segment].p2[axis] == pytest.approx(value)
    main_ends = {
        rail: [end[:2] for s in segs for end in (linear[s].p1, linear[s].p2)]
        for rail, segs in MAIN_CUSHION_OF_RAIL.items()
    }
    for jaw, pocket in POCKET_OF_JAW.items():
        inner = (
            circular[jaw].center[:2]
            if jaw.endswith("t")
            else min(
                (linear[jaw].p1[:2], linear[jaw].p2[:2]),
                key=lambda p: np.hypot(p[0] - spec.width / 2, p[1] - spec.length / 2),
            )
        )
        nearest_rail = min(
            main_ends, key=lambda rail: min(np.hypot(*(inner - end)) for end in main_ends[rail])
        )
        assert rail_of_segment(jaw) is nearest_rail, jaw
        centre = table.pockets[pocket.value].center[:2]
        assert np.hypot(*(inner - centre)) < 0.15, (jaw, pocket)


def test_rail_of_unknown_segment() -> None:
    with pytest.raises(ValueError, match="unknown cushion segment"):
        rail_of_segment("99")


def test_nearest_cushion_and_within_rails() -> None:
    spec = table_spec()
    table = spec.build()
    clearance, away = nearest_cushion(table, (0.1, 1.0))
    assert clearance == pytest.approx(0.1)
    assert away == pytest.approx((1.0, 0.0))
    assert within_rails(spec.geometry, (0.0, 0.0))
    assert not within_rails(spec.geometry, (-0.05, 1.0))


@pytest.mark.parametrize("size", list(TableSize))
def test_pocket_mouths_lie_between_the_jaws(size: TableSize) -> None:
    spec = table_spec(size)
    table = spec.build()
    for pocket in PocketId:
        mouth = pocket_mouth(table, pocket)
        centre = table.pockets[pocket.value].center[:2]
        # Nearer the bed than the pocket's centre, and clear of every cushion by its
        # half-opening (well over a ball's radius for WPA pockets).
        assert np.hypot(mouth[0] - spec.width / 2, mouth[1] - spec.length / 2) < np.hypot(
            centre[0] - spec.width / 2, centre[1] - spec.length / 2
        )
        assert nearest_cushion(table, mouth)[0] > spec.ball_radius


@pytest.mark.parametrize("size", list(TableSize))
def test_the_quick_cushion_test_never_misses_a_near_cushion(size: TableSize) -> None:
    """may_be_within says False only for points farther than the reach from every nose
    (placement skips the exact distance for them, so it must never be wrong)."""
    spec = table_spec(size)
    table = spec.build()
    boxes = cushion_boxes(table)
    assert len(boxes) == len(table.cushion_segments.linear) + len(table.cushion_segments.circular)
    reach = spec.ball_radius + 1e-4
    rng = random.Random(size.value)
    skipped = 0
    for _ in range(3000):
        point = (rng.uniform(-0.1, spec.width + 0.1), rng.uniform(-0.1, spec.length + 0.1))
        if not may_be_within(boxes, point, reach):
            skipped += 1
            assert nearest_cushion(table, point)[0] > reach, point
    assert skipped > 1000  # it does skip most of the bed


@pytest.mark.parametrize("size", list(TableSize))
def test_in_pocket_mouth_is_the_exact_circle(size: TableSize) -> None:
    """Its quick rejection (x or y alone too far) changes no answer, even on the edge."""
    table = table_spec(size).build()
    rng = random.Random(size.value)
    for _ in range(3000):
        pocket = table.pockets[rng.choice(list(table.pockets))]
        angle = rng.uniform(0, 2 * np.pi)
        distance = pocket.radius * rng.choice([1.0, 1 - 1e-15, 1 + 1e-15, rng.uniform(0, 2)])
        point = (
            float(pocket.center[0] + distance * np.cos(angle)),
            float(pocket.center[1] + distance * np.sin(angle)),
        )
        inside = [
            PocketId(pocket_id)
            for pocket_id, p in table.pockets.items()
            if np.hypot(*(np.asarray(point) - p.center[:2])) < p.radius
        ]
        assert in_pocket_mouth(table, point) == (inside[0] if inside else None), point


@pytest.mark.parametrize("size", list(TableSize))
def test_the_plan_is_the_physics_table_in_plain_numbers(size: TableSize) -> None:
    """The plan holds every nose, jaw tip and pocket of the built table under pooltool's
    names and in its order, and finds the nearest cushion exactly as the pooltool table
    does."""
    spec = table_spec(size)
    table, plan = spec.build(), spec.plan()
    assert (plan.width, plan.length, plan.height) == (table.w, table.l, table.height)
    segments = table.cushion_segments
    assert [(name, s.p1, s.p2) for name, s in plan.cushion_segments.linear.items()] == [
        (name, tuple(s.p1), tuple(s.p2)) for name, s in segments.linear.items()
    ]
    assert [(name, t.center, t.radius) for name, t in plan.cushion_segments.circular.items()] == [
        (name, tuple(t.center), t.radius) for name, t in segments.circular.items()
    ]
    assert [(name, p.center, p.radius) for name, p in plan.pockets.items()] == [
        (name, tuple(p.center), p.radius) for name, p in table.pockets.items()
    ]
    assert [(s.id, s.p1, s.p2) for s in plan.straight] == [
        (name, tuple(s.p1[:2]), tuple(s.p2[:2])) for name, s in segments.linear.items()
    ]
    assert [(t.id, t.center, t.radius) for t in plan.jaw_tips] == [
        (name, tuple(t.center[:2]), t.radius) for name, t in segments.circular.items()
    ]
    assert all(pocket_centre(plan, p) == pocket_centre(table, p) for p in PocketId)
    assert all(pocket_mouth(plan, p) == pocket_mouth(table, p) for p in PocketId)
    rng = random.Random(size.value)
    for _ in range(500):
        point = (rng.uniform(-0.1, spec.width + 0.1), rng.uniform(-0.1, spec.length + 0.1))
        assert plan.nearest_cushion(point) == nearest_cushion(table, point)


@pytest.mark.parametrize("size", list(TableSize))
def test_the_shipped_plan_is_what_pooltool_builds_now(size: TableSize) -> None:
    """The window draws a table from its shipped plan (assets/tables), read without
    pooltool: it must be, number for number and in order, the plan of the table pooltool
    builds now, or the window would draw a table the physics no longer plays on. If this
    fails after a change of pooltool or of a spec, write the plans again:
    ``python -c "from sim.physics.table import write_table_plans; write_table_plans()"``."""
    spec = table_spec(size)
    shipped = shipped_plan(spec)
    assert shipped is not None, f"no plan shipped for the {size.value} table"
    built = TablePlan.of(spec.build())
    assert shipped == built
    assert shipped.to_json() == built.to_json()  # the mappings' order too


def test_a_spec_without_a_shipped_plan_has_its_plan_built() -> None:
    """A table of other numbers than the shipped ones (its plan's file names the spec it
    was made for) is not drawn from a shipped plan: its plan is built by pooltool."""
    spec = attrs.evolve(table_spec("9ft"), side_pocket_width=0.14)
    assert shipped_plan(spec) is None
    plan = spec.plan()
    assert plan == TablePlan.of(spec.build())
    assert plan.pockets["lc"].radius == spec.build().pockets["lc"].radius
    assert plan.cushion_segments != table_spec("9ft").plan().cushion_segments


def test_the_shipped_plans_are_read_without_pooltool() -> None:
    """Asking for a shipped table's plan imports no pooltool (the window's first table
    is drawn while pooltool loads), in a fresh interpreter."""
    import subprocess
    import sys

    probe = (
        "import sys; from sim.physics.table import TableSize, table_spec; "
        "[table_spec(s).plan() for s in TableSize]; "
        "assert 'pooltool' not in sys.modules, 'pooltool imported'"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)


@pytest.mark.parametrize("size", ["9ft", "7ft"])
def test_the_cushion_rebound_is_pooltools_cushion_model(size: str) -> None:
    """CushionRebound against pooltool's Stronge model (the speedups' copy, statement for
    statement pooltool's) on the table's left cushion, over 300 random contacts: any
    spin, 0.1 to 4 m/s in, any angle. The left cushion's frame is a mirror of
    CushionRebound's (x into the cushion), so velocities flip in x and spin in y and z."""
    from sim.physics.patches.speedups import stronge_solve
    from sim.physics.pooltool_setup import pt
    from sim.physics.table import CushionRebound

    spec = table_spec(size)
    rebound = CushionRebound(spec)
    table = spec.build()
    cushion = table.cushion_segments.linear["3"]  # the left rail's lower half, x = 0
    model = pt.physics.resolve.resolver.Resolver.default().ball_linear_cushion
    ball = pt.Ball.create("cue")
    radius = ball.params.R
    nose = cushion.p1[2]
    across = math.sqrt(radius**2 - (radius - nose) ** 2)  # touching the nose
    rng = np.random.default_rng(2)
    worst = 0.0
    for _ in range(300):
        v = np.array([-rng.uniform(0.1, 4.0), rng.uniform(-3.0, 3.0), 0.0])
        w = rng.normal(0.0, 60.0, 3)
        start = np.array([[across, 0.5, radius], v, w])
        ball.state = pt.objects.BallState(start, pt.constants.sliding, 0)
        solved, _ = stronge_solve(ball, cushion, model.omega_ratio)
        (vx, vy), (wx, wy, wz) = rebound((-v[0], v[1]), (w[0], -w[1], -w[2]))
        mine_v = np.array([-vx, vy, 0.0])
        mine_w = np.array([wx, -wy, -wz])
        error = max(
            float(np.max(np.abs(mine_v - solved.state.rvw[1]))),
            float(np.max(np.abs(mine_w - solved.state.rvw[2]))) * radius,
        )
        worst = max(worst, error / float(np.linalg.norm(v)))
    assert worst < 1e-3
