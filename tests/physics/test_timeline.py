"""The shot timeline against pooltool on real shots: states equal to pooltool's own at
event times, at random times and on its continuized grid; orientations against a fine
independent integration, pooltool's renderer convention and an exact rolling case;
random access (back, forth, any order) and frame counts."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from rules.facts import CUE
from sim.physics.pooltool_setup import pt
from sim.physics.racks import opening_position
from sim.physics.simulate import CueAction, SimulatedShot, aim_towards, simulate_shot
from sim.physics.table import RAIL_OF_SEGMENT, table_spec
from sim.physics.timeline import (
    EventMarker,
    MarkerKind,
    ShotTimeline,
    frame_count,
    frame_times,
)
from sim.physics.timeline_bench import bench_timeline

pytestmark = pytest.mark.physics

SPEC = table_spec()
GEOMETRY = SPEC.geometry
W, L, R = GEOMETRY.width, GEOMETRY.length, GEOMETRY.ball_radius
IDENTITY = (1.0, 0.0, 0.0, 0.0)


def _break(game: str, seed: int) -> SimulatedShot:
    balls = opening_position(game, GEOMETRY, seed)
    return simulate_shot(SPEC, balls, CueAction(8.0, aim_towards(balls[CUE], balls["1"])))


def _shot(
    positions: dict[str, tuple[float, float]], aim: float | None = None, **action: float
) -> SimulatedShot:
    aim = aim_towards(positions[CUE], positions["1"]) if aim is None else aim
    return simulate_shot(SPEC, positions, CueAction(aim=aim, **action))


SHOTS = {
    "ten-ball break": lambda: _break("ten-ball", 1),
    "rotation break": lambda: _break("rotation", 2),
    "draw": lambda: _shot({CUE: (W / 2, L / 4), "1": (W / 2 + 0.03, L / 2)}, speed=2.5, b=-0.45),
    "masse": lambda: _shot(
        {CUE: (W / 2, L / 4), "1": (W / 2 + 0.1, L / 2)},
        speed=3.0,
        elevation=30.0,
        a=0.3,
        b=-0.3,
    ),
    "pocketing": lambda: _shot({CUE: (W - 0.7, L - 0.7), "1": (W - 0.3, L - 0.3)}, speed=2.0),
    # A lone cue ball with follow: it slides, then rolls straight with no side spin.
    "follow": lambda: _shot({CUE: (W / 2, L / 4)}, speed=1.5, aim=90.0, b=0.4),
}
REAL_SHOTS = ["ten-ball break", "rotation break", "draw", "masse", "pocketing"]


@functools.cache
def shot(name: str) -> SimulatedShot:
    return SHOTS[name]()


@functools.cache
def timeline(name: str) -> ShotTimeline:
    return ShotTimeline.from_system(shot(name).system)


def pooltool_states(name: str, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """pooltool's interpolate_ball_states for every ball: rvw (F, B, 3, 3), motion (F, B)."""
    balls = [shot(name).system.balls[ball] for ball in timeline(name).ball_ids]
    states = [pt.interpolate_ball_states(ball, times) for ball in balls]
    rvw = np.array([[state.rvw for state in ball] for ball in states]).transpose(1, 0, 2, 3)
    motion = np.array([[state.s for state in ball] for ball in states]).T
    return rvw, motion


def qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product, written out independently of sim.physics.timeline."""
    aw, ax, ay, az = np.moveaxis(a, -1, 0)
    bw, bx, by, bz = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ],
        axis=-1,
    )


def rotation_angle(q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The angle (rad) of the rotation between unit quaternions q and r (q = -q)."""
    d = qmul(q, r * np.array([1.0, -1.0, -1.0, -1.0]))
    return 2 * np.arcsin(np.minimum(1.0, np.linalg.norm(d[..., 1:], axis=-1)))


def test_the_shots_are_what_they_say() -> None:
    draw = timeline("draw")
    contact = next(m.t for m in draw.markers if m.kind == MarkerKind.FIRST_CONTACT)
    assert draw.at(contact + 0.1).velocities[draw.index(CUE), 1] < 0  # coming back
    masse = timeline("masse")
    assert np.linalg.norm(masse.at(0.0).velocities[masse.index(CUE)]) > 0
    curve = masse.states(np.linspace(0.0, 0.2, 5)).velocities[:, masse.index(CUE), :2]
    headings = np.degrees(np.arctan2(curve[:, 1], curve[:, 0]))
    assert np.ptp(headings) > 1  # the cue ball's path bends before it reaches the 1
    assert [m.balls for m in timeline("pocketing").markers if m.kind == MarkerKind.POCKET] == [
        ("1",)
    ]
    assert len(timeline("rotation break").ball_ids) == 16
    assert len(timeline("ten-ball break").ball_ids) == 11


# --- states against pooltool ---------------------------------------------------------


@pytest.mark.parametrize("name", REAL_SHOTS)
def test_event_times_give_pooltools_states_exactly(name: str) -> None:
    tl = timeline(name)
    rvw, motion = pooltool_states(name, tl.event_times)
    ours = tl.states(tl.event_times)
    # At an event, interpolate_ball_states hands back the (last) event's state itself.
    assert np.array_equal(ours.positions, rvw[:, :, 0])
    assert np.array_equal(ours.velocities, rvw[:, :, 1])
    assert np.array_equal(ours.angular_velocities, rvw[:, :, 2])
    assert np.array_equal(ours.motion, motion)


@pytest.mark.parametrize("name", REAL_SHOTS)
def test_random_times_match_interpolate_ball_states(name: str) -> None:
    tl = timeline(name)
    times = np.sort(np.random.default_rng(7).uniform(0.0, tl.duration, 400))
    rvw, motion = pooltool_states(name, times)
    ours = tl.states(times)
    assert np.abs(ours.positions - rvw[:, :, 0]).max() < 1e-12  # metres
    assert np.abs(ours.velocities - rvw[:, :, 1]).max() < 1e-12  # m/s
    assert np.abs(ours.angular_velocities - rvw[:, :, 2]).max() < 1e-9  # rad/s
    assert np.array_equal(ours.motion, motion)


@pytest.mark.parametrize("name", ["rotation break", "masse", "pocketing"])
def test_continuized_grid_matches(name: str) -> None:
    system = pt.continuize(shot(name).system.copy(), dt=1 / 120, inplace=True)
    tl = timeline(name)
    for j, ball in enumerate(tl.ball_ids):
        rvw, motion, times = system.balls[ball].history_cts.vectorize()
        # Its first sample is the state before the stroke; ours at t = 0 is after it.
        rvw, motion, times = rvw[1:], motion[1:], times[1:]
        ours = tl.states(times)
        # continuize chains its evolutions sample to sample, so rounding adds up a little.
        assert np.abs(ours.positions[:, j] - rvw[:, 0]).max() < 1e-11
        assert np.abs(ours.velocities[:, j] - rvw[:, 1]).max() < 1e-11
        assert np.abs(ours.angular_velocities[:, j] - rvw[:, 2]).max() < 1e-9
        assert np.array_equal(ours.motion[:, j], motion)


# --- orientations --------------------------------------------------------------------


def reference_orientations(tl: ShotTimeline, dt: float, until: float) -> tuple[np.ndarray, ...]:
    """Orientations by the textbook two-point Gauss-Legendre Magnus method (4th order) on
    a fine grid that steps on every event, from the (pooltool-exact) angular velocities."""
    grid = np.unique(np.concatenate([np.arange(0.0, until, dt), tl.event_times]))
    grid = grid[grid <= until]
    h = np.diff(grid)
    nodes = [grid[:-1] + h * (0.5 + side * math.sqrt(3) / 6) for side in (-1, 1)]
    w1, w2 = (tl.states(node).angular_velocities for node in nodes)
    h3 = h[:, None, None]
    theta = h3 / 2 * (w1 + w2) + math.sqrt(3) / 12 * h3**2 * np.cross(w2, w1)
    angle = np.linalg.norm(theta, axis=-1, keepdims=True)
    safe = np.where(angle > 0, angle, 1.0)
    steps = np.concatenate([np.cos(angle / 2), theta * np.sin(angle / 2) / safe], axis=-1)
    q = np.empty((len(grid), *tl.start_orientations.shape))
    q[0] = tl.start_orientations
    for i, step in enumerate(steps):
        q[i + 1] = qmul(step, q[i])
    return grid, q


@pytest.mark.parametrize(
    ("name", "until"), [("masse", None), ("draw", None), ("rotation break", 3.0)]
)
def test_orientations_match_a_fine_integration(name: str, until: float | None) -> None:
    tl = timeline(name)
    grid, reference = reference_orientations(tl, 5e-4, until or tl.duration)
    # The reference's own error at this step is ~1e-7 rad (the timeline's ~1e-8).
    assert rotation_angle(tl.states(grid).orientations, reference).max() < 3e-7


def test_orientations_follow_pooltools_renderer() -> None:
    """pooltool's BallRender integrates w with single-precision panda3d quaternions,
    first order in dt. We agree to ~1e-2 rad over the shot, where the other convention
    (w in the ball's frame, q <- q dq) is ~2 rad off."""
    name = "masse"
    tl = timeline(name)
    system = pt.continuize(shot(name).system.copy(), dt=2e-4, inplace=True)
    for j, ball in enumerate(tl.ball_ids):
        rvw, _, times = system.balls[ball].history_cts.vectorize()
        theirs = np.array([list(q) for q in pt.ani.utils.as_quaternion(rvw[:, 2], times)])
        assert rotation_angle(tl.states(times).orientations[:, j], theirs).max() < 0.05


def test_a_rolling_ball_turns_by_distance_over_radius() -> None:
    name = "follow"
    tl = timeline(name)
    events = shot(name).system.events
    start = next(e.time for e in events if e.event_type == pt.EventType.SLIDING_ROLLING)
    end = next(e.time for e in events if e.time > start)
    before, after = tl.at(start), tl.at(end - 1e-9)
    cue = tl.index(CUE)
    assert before.motion[cue] == pt.constants.rolling
    assert abs(before.angular_velocities[cue, 2]) < 1e-12
    travel = after.positions[cue] - before.positions[cue]
    axis = np.cross([0.0, 0.0, 1.0], travel / np.linalg.norm(travel))
    angle = np.linalg.norm(travel) / R
    turn = np.array([math.cos(angle / 2), *(axis * math.sin(angle / 2))])
    expected = qmul(turn, before.orientations[cue])
    assert angle > 10  # several turns, so a wrong rate or axis could not pass
    assert rotation_angle(after.orientations[cue], expected) < 1e-9


@pytest.mark.parametrize("name", REAL_SHOTS)
def test_orientations_are_unit_quaternions(name: str) -> None:
    frames = timeline(name).frames(60.0)
    assert np.abs(np.linalg.norm(frames.orientations, axis=-1) - 1).max() < 1e-12


def test_start_and_final_orientations() -> None:
    first = timeline("draw")
    assert np.array_equal(first.at(0.0).orientations, np.tile(IDENTITY, (2, 1)))
    final = first.final_orientations
    assert np.allclose(first.at(first.duration).orientations, [final[b] for b in first.ball_ids])

    # The next shot starts from the last one's final orientations.
    carried = ShotTimeline.from_system(shot("masse").system, start_orientations=final)
    assert np.allclose(carried.at(0.0).orientations, [final[b] for b in carried.ball_ids])
    # Turning the start turns every later orientation the same way (world-frame w).
    plain = timeline("masse")
    for t in (1.0, plain.duration):
        expected = qmul(plain.at(t).orientations, np.array([final[b] for b in plain.ball_ids]))
        assert rotation_angle(carried.at(t).orientations, expected).max() < 1e-12

    with pytest.raises(ValueError, match="unknown balls"):
        ShotTimeline.from_system(shot("masse").system, start_orientations={"9": IDENTITY})
    with pytest.raises(ValueError, match="not all 0"):
        ShotTimeline.from_system(shot("masse").system, start_orientations={CUE: (0, 0, 0, 0)})


def test_default_start_is_pooltools_rendered_orientation() -> None:
    system = shot("draw").system.copy()
    pos, sphere = (0.5, 0.5, 0.5, 0.5), (0.1, 0.7, -0.2, 0.4)
    system.balls["1"].initial_orientation = pt.objects.BallOrientation(pos=pos, sphere=sphere)
    tl = ShotTimeline.from_system(system)
    unit = np.array(sphere) / np.linalg.norm(sphere)
    assert np.allclose(tl.start_orientations[tl.index("1")], qmul(np.array(pos), unit))


# --- random access and frames --------------------------------------------------------


def test_stepping_back_then_forward_is_identical() -> None:
    tl = timeline("rotation break")
    times = [0.31, 0.30, 0.29, 0.30, 0.31, 2.5, 0.0, 2.5, tl.duration, 0.31]
    seen: dict[float, np.ndarray] = {}
    for t in times:
        state = tl.at(t)
        both = np.concatenate([state.positions, state.orientations], axis=1)
        assert t not in seen or np.array_equal(both, seen[t])
        seen[t] = both


def test_any_order_of_times_gives_the_same_states() -> None:
    tl = timeline("rotation break")
    times = np.random.default_rng(3).uniform(0.0, tl.duration, 300)
    order = np.argsort(times)
    shuffled, ordered = tl.states(times), tl.states(times[order])
    for field in ("positions", "orientations", "velocities", "angular_velocities"):
        assert np.array_equal(getattr(shuffled, field)[order], getattr(ordered, field))
    # One at a time or all at once: the same numbers.
    for i in (0, 17, 299):
        single = tl.at(float(times[i]))
        assert np.allclose(single.positions, shuffled.positions[i], rtol=0, atol=1e-15)
        assert np.allclose(single.orientations, shuffled.orientations[i], rtol=0, atol=1e-15)


def test_frame_count_for_a_duration_and_rate() -> None:
    assert frame_count(2.0, 60.0) == 121  # 0, 1/60, ..., 119/60, then 2.0
    assert frame_count(2.001, 60.0) == 122  # 0 ... 120/60 = 2.0, then 2.001
    assert frame_count(0.0, 60.0) == 1
    assert frame_count(0.01, 60.0) == 2
    assert frame_times(0.05, 60.0).tolist() == [0.0, 1 / 60, 2 / 60, 0.05]  # 0.05 * 60 > 3
    tl = timeline("rotation break")
    for fps in (24.0, 60.0, 144.0):
        times = tl.frame_times(fps)
        assert len(times) == math.ceil(tl.duration * fps - 1e-9) + 1
        assert times[0] == 0.0 and times[-1] == tl.duration
        assert np.all(np.diff(times) > 0) and np.all(np.diff(times) <= 1 / fps + 1e-12)
        frames = tl.frames(fps)
        assert frames.positions.shape == (len(times), len(tl.ball_ids), 3)
        assert frames.orientations.shape == (len(times), len(tl.ball_ids), 4)
    with pytest.raises(ValueError, match="fps"):
        frame_times(1.0, 0.0)


def test_times_outside_the_shot_are_refused() -> None:
    tl = timeline("draw")
    for t in (-1e-9, tl.duration + 1e-9, math.nan):
        with pytest.raises(ValueError, match="within"):
            tl.at(t)
        with pytest.raises(ValueError, match="within"):
            tl.states([0.0, t])
    unsimulated = shot("draw").system.copy()
    unsimulated.reset_history()
    with pytest.raises(ValueError, match="not been simulated"):
        ShotTimeline.from_system(unsimulated)


# --- pocketed balls and markers ------------------------------------------------------


def test_a_pocketed_ball_drops_at_its_pocket_event() -> None:
    name = "pocketing"
    tl = timeline(name)
    [pocketing] = [m for m in tl.markers if m.kind == MarkerKind.POCKET]
    ball = tl.index(pocketing.balls[0])
    pocket = shot(name).system.table.pockets[pocketing.place]
    before, at = tl.at(pocketing.t - 1e-9), tl.at(pocketing.t)
    assert not before.pocketed[ball] and before.positions[ball, 2] == R
    # Still on its way: within the pocket's circle, not yet in it.
    assert np.hypot(*(before.positions[ball, :2] - pocket.center[:2])) <= pocket.radius + 1e-6
    assert at.pocketed[ball]
    assert np.allclose(at.positions[ball], [pocket.a, pocket.b, -pocket.depth])
    later = tl.states(np.linspace(pocketing.t, tl.duration, 50))
    assert later.pocketed[:, ball].all()
    assert (later.positions[:, ball] == at.positions[ball]).all()


def test_markers_are_the_shots_events() -> None:
    name = "rotation break"
    tl = timeline(name)
    events = shot(name).system.events
    assert tl.markers[0] == EventMarker(0.0, MarkerKind.STRIKE, (CUE,))
    assert [m.t for m in tl.markers] == sorted(m.t for m in tl.markers)
    [first] = [m for m in tl.markers if m.kind == MarkerKind.FIRST_CONTACT]
    assert first.balls == (CUE, "1")
    hits = [e for e in events if e.event_type == pt.EventType.BALL_BALL]
    assert first.t == next(e.time for e in hits if CUE in e.ids)
    kinds = {MarkerKind.FIRST_CONTACT, MarkerKind.HIT}
    assert sum(m.kind in kinds for m in tl.markers) == len(hits)
    cushions = (pt.EventType.BALL_LINEAR_CUSHION, pt.EventType.BALL_CIRCULAR_CUSHION)
    rails = [
        (e.time, e.ids[0], RAIL_OF_SEGMENT[e.ids[1]]) for e in events if e.event_type in cushions
    ]
    assert [(m.t, m.balls[0], m.place) for m in tl.markers if m.kind == MarkerKind.RAIL] == rails
    pockets = [
        (e.time, e.ids[0], e.ids[1]) for e in events if e.event_type == pt.EventType.BALL_POCKET
    ]
    ours = [(m.t, m.balls[0], m.place) for m in tl.markers if m.kind == MarkerKind.POCKET]
    assert ours == pockets


def test_bench_timeline_reports_its_figures() -> None:
    report = bench_timeline(queries=20)
    assert report["balls"] == 16
    assert report["query_us_median"] > 0 and report["interpolate_us_median"] > 0
    assert report["frames_60fps"] == frame_count(report["shot_seconds"], 60.0)
