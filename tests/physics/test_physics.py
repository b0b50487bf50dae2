"""The physics adapter on real pooltool simulations: shot facts checked against pooltool's
own events, the head-string crossing against the cue ball's trajectory, and every guard
(placement gaps, cue-action limits, balls off the table)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rules.facts import (
    CUE,
    HeadStringCrossing,
    Hit,
    OffTable,
    PocketId,
    Pocketing,
    RailContact,
    RailName,
)
from sim.physics.facts import shot_facts
from sim.physics.pooltool_setup import physics_engine, pt
from sim.physics.racks import opening_position
from sim.physics.simulate import (
    PLACEMENT_GAP,
    PLACEMENT_TOLERANCE,
    CueAction,
    PlacementError,
    SimulatedShot,
    aim_towards,
    build_system,
    clear_of_cushions,
    settle_positions,
    simulate_shot,
)
from sim.physics.table import POCKET_OF_JAW, RAIL_OF_SEGMENT, table_spec

SPEC = table_spec()
GEOMETRY = SPEC.geometry
R = GEOMETRY.ball_radius
H = GEOMETRY.head_string_y

pytestmark = pytest.mark.physics


def pooltool_facts(shot: SimulatedShot) -> list[tuple[object, ...]]:
    """pooltool's own collision and pocket events, in its order, as comparable tuples."""
    out: list[tuple[object, ...]] = []
    for event in shot.system.events:
        kind = event.event_type
        if kind == pt.EventType.BALL_BALL:
            out.append(("hit", frozenset(event.ids), event.time))
        elif kind in (pt.EventType.BALL_LINEAR_CUSHION, pt.EventType.BALL_CIRCULAR_CUSHION):
            out.append(("rail", event.ids[0], RAIL_OF_SEGMENT[event.ids[1]], event.time))
        elif kind == pt.EventType.BALL_POCKET:
            out.append(("pocket", event.ids[0], event.ids[1], event.time))
    return out


def our_event_facts(shot: SimulatedShot) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for fact in shot.facts:
        match fact:
            case Hit(balls=balls, t=t):
                out.append(("hit", frozenset(balls), t))
            case RailContact(ball=ball, rail=rail, t=t):
                out.append(("rail", ball, rail, t))
            case Pocketing(ball=ball, pocket=pocket, t=t):
                out.append(("pocket", ball, pocket.value, t))
    return out


def assert_facts_follow_pooltool(shot: SimulatedShot) -> None:
    assert our_event_facts(shot) == pooltool_facts(shot)
    times = [fact.t for fact in shot.facts]
    assert times == sorted(times)


def assert_every_ball_accounted_for(shot: SimulatedShot) -> None:
    gone = {f.ball for f in shot.facts if isinstance(f, Pocketing | OffTable)}
    assert set(shot.after) | gone == set(shot.before)
    assert not set(shot.after) & gone


def test_straight_shot_pockets_the_ball_after_hitting_it() -> None:
    ball = (1.0, 2.2)
    pocket = np.array([GEOMETRY.width, GEOMETRY.length])
    line = (np.array(ball) - pocket) / np.linalg.norm(np.array(ball) - pocket)
    cue = tuple(np.array(ball) + 0.6 * line)
    shot = simulate_shot(
        SPEC, {CUE: cue, "1": ball}, CueAction(2.0, aim_towards(cue, ball), b=-0.3)
    )
    assert_facts_follow_pooltool(shot)
    assert_every_ball_accounted_for(shot)
    hit = next(i for i, f in enumerate(shot.facts) if isinstance(f, Hit))
    pot = next(i for i, f in enumerate(shot.facts) if isinstance(f, Pocketing))
    assert shot.facts[hit] == Hit(balls=(CUE, "1"), t=shot.facts[hit].t)
    assert shot.facts[pot].ball == "1" and shot.facts[pot].pocket is PocketId.RT
    assert hit < pot
    assert "1" not in shot.after and CUE in shot.after


@pytest.mark.parametrize("game", ["ten-ball", "rotation"])
def test_break_drives_at_least_four_balls_to_a_rail(game: str) -> None:
    balls = opening_position(game, GEOMETRY, seed=1)
    shot = simulate_shot(SPEC, balls, CueAction(8.0, aim_towards(balls[CUE], balls["1"])))
    assert_facts_follow_pooltool(shot)
    assert_every_ball_accounted_for(shot)
    first = next(f for f in shot.facts if isinstance(f, Hit))
    assert first.balls == (CUE, "1")
    railed = {f.ball for f in shot.facts if isinstance(f, RailContact) and f.ball != CUE}
    assert len(railed) >= 4
    assert not any(isinstance(f, OffTable) for f in shot.facts)
    assert sum(isinstance(f, HeadStringCrossing) for f in shot.facts) == 1


def test_cue_ball_scratch() -> None:
    cue = (0.3, 0.3)
    shot = simulate_shot(SPEC, {CUE: cue, "5": (0.9, 1.8)}, CueAction(1.5, 225.0))
    assert_facts_follow_pooltool(shot)
    assert [f for f in shot.facts if isinstance(f, Pocketing)] == [
        Pocketing(ball=CUE, pocket=PocketId.LB, t=shot.facts[-1].t)
    ]
    assert CUE not in shot.after and "5" in shot.after


def test_cue_ball_leaving_the_kitchen_crosses_the_head_string_once() -> None:
    """A draw shot: the cue ball crosses, hits the 3, draws back into the kitchen and off
    the head rail across the string again; the fact is its first crossing only."""
    cue = (0.635, 0.35)
    shot = simulate_shot(SPEC, {CUE: cue, "3": (0.635, 0.9)}, CueAction(4.0, 90.0, b=-0.45))
    crossings = [f for f in shot.facts if isinstance(f, HeadStringCrossing)]
    assert len(crossings) == 1
    t = crossings[0].t
    assert t is not None
    ball = shot.system.balls[CUE]
    # The cue ball is exactly on the string at that moment, and behind it just before.
    before, at = pt.interpolate_ball_states(ball, [t - 1e-4, t])
    assert at.rvw[0][1] == pytest.approx(H, abs=1e-9)
    assert before.rvw[0][1] < H
    # It came back into the kitchen later (so the "once" above means something).
    later = pt.interpolate_ball_states(ball, np.linspace(t + 0.05, shot.system.t, 400))
    ys = [s.rvw[0][1] for s in later]
    assert min(ys) < H
    # Brute force: the first sampled time at or past the string agrees to the sampling step.
    grid = np.arange(0.0, t + 0.01, 1e-4)
    sampled = next(
        g
        for g, s in zip(grid, pt.interpolate_ball_states(ball, grid), strict=True)
        if s.rvw[0][1] >= H
    )
    assert sampled - t == pytest.approx(0.0, abs=1e-4)
    # In time order with the hit that follows.
    hit = next(f for f in shot.facts if isinstance(f, Hit))
    assert hit.t is not None and t < hit.t


def test_no_head_string_fact_when_the_cue_ball_starts_past_it() -> None:
    shot = simulate_shot(SPEC, {CUE: (0.635, H + 0.05)}, CueAction(2.0, 90.0))
    assert not any(isinstance(f, HeadStringCrossing) for f in shot.facts)


def test_rail_contact_on_a_pocket_jaw() -> None:
    """The cue ball grazes the lower facing of the left side pocket, then drops: the jaw
    is reported as a contact with the left rail."""
    shot = simulate_shot(SPEC, {CUE: (0.3, 0.9)}, CueAction(1.5, 127.0))
    assert_facts_follow_pooltool(shot)
    cushion = [
        e
        for e in shot.system.events
        if e.event_type in (pt.EventType.BALL_LINEAR_CUSHION, pt.EventType.BALL_CIRCULAR_CUSHION)
    ]
    assert cushion and cushion[0].ids[1] in POCKET_OF_JAW
    assert POCKET_OF_JAW[cushion[0].ids[1]] is PocketId.LC
    rails = [f for f in shot.facts if isinstance(f, RailContact)]
    assert rails[0] == RailContact(ball=CUE, rail=RailName.LEFT, t=cushion[0].time)
    assert any(isinstance(f, Pocketing) and f.pocket is PocketId.LC for f in shot.facts)


def test_a_ball_that_tunnels_off_the_table_is_reported_not_lost() -> None:
    """pooltool 0.6.0 lets a ball exactly frozen to a cushion tunnel through it. Placed
    raw (bypassing the adapter's gap), the 1 ends off the table: an off-table fact."""
    positions = {CUE: (0.635, 1.8), "1": (0.635, GEOMETRY.length - R)}
    system = build_system(SPEC, positions)
    system.strike(V0=3.0, phi=90.0, theta=0.0, a=0.0, b=0.0)
    pt.simulate(system, engine=physics_engine(), inplace=True)
    facts = shot_facts(system, GEOMETRY)
    off = [f for f in facts if isinstance(f, OffTable)]
    assert [f.ball for f in off] == ["1"]
    assert system.balls["1"].state.rvw[0][1] > GEOMETRY.length + R
    # Through the adapter the same position is kept 0.1 mm off the cushion, and rebounds.
    shot = simulate_shot(SPEC, positions, CueAction(3.0, 90.0))
    assert not any(isinstance(f, OffTable) for f in shot.facts)
    assert RailContact(ball="1", rail=RailName.FOOT, t=None) in [
        RailContact(ball=f.ball, rail=f.rail) for f in shot.facts if isinstance(f, RailContact)
    ]
    assert_every_ball_accounted_for(shot)


def test_same_shot_same_facts() -> None:
    balls = opening_position("rotation", GEOMETRY, seed=4)
    action = CueAction(7.0, aim_towards(balls[CUE], balls["1"]), a=0.1, b=-0.2)
    first, second = simulate_shot(SPEC, balls, action), simulate_shot(SPEC, balls, action)
    assert first.facts == second.facts
    assert first.after == second.after


class TestPlacement:
    def test_frozen_balls_are_eased_apart_by_the_gap(self) -> None:
        a, b = (0.6, 1.0), (0.6 + 2 * R, 1.0)
        settled = settle_positions(SPEC, {CUE: a, "4": b})
        assert math.dist(settled[CUE], settled["4"]) >= 2 * R + PLACEMENT_GAP
        assert math.dist(settled[CUE], a) <= PLACEMENT_TOLERANCE

    def test_a_ball_frozen_to_a_cushion_is_eased_off_it(self) -> None:
        settled = settle_positions(SPEC, {"2": (R, 1.0)})
        assert settled["2"][0] == pytest.approx(R + PLACEMENT_GAP, abs=1e-8)

    @pytest.mark.parametrize("game", ["ten-ball", "rotation"])
    def test_the_shared_checking_table_settles_as_a_fresh_one(self, game: str) -> None:
        """Placement checks measure a table shared between calls; the balls come out
        exactly where a fresh table puts them (the cue ball frozen to a rail is eased)."""
        for seed in range(5):
            rack = opening_position(game, GEOMETRY, seed=seed)
            rack[CUE] = (R, GEOMETRY.head_string_y / 2)  # frozen to the left rail
            assert settle_positions(SPEC, rack) == settle_positions(SPEC, rack, SPEC.build())

    def test_balls_wedged_in_a_corners_jaws_are_eased_out_of_them(self) -> None:
        """Where a soft safety left the cue ball and the 9 at rest in a corner's jaws
        (10-ball, held-out seed 3000, rack 17 at levels 3 and 2): each pushes the other
        into a jaw and the jaw pushes it back, a little way out each round; they settle
        about a millimetre out, and the game goes on."""
        wedged = {
            CUE: (0.05979482522347102, 0.01913462302541352),
            "9": (0.015688607615690988, 0.05547971830627444),
            "10": (0.06754329097777864, 1.1808075053907414),
        }
        settled = settle_positions(SPEC, wedged)
        assert math.dist(settled[CUE], settled["9"]) >= 2 * R + PLACEMENT_GAP
        assert all(math.dist(settled[b], wedged[b]) < 2e-3 for b in wedged)
        assert settled["10"] == wedged["10"]
        assert settle_positions(SPEC, settled) == settled

    def test_well_spaced_balls_do_not_move(self) -> None:
        positions = {CUE: (0.3, 0.4), "1": (0.9, 1.9)}
        assert settle_positions(SPEC, positions) == positions

    @pytest.mark.parametrize(
        ("positions", "message"),
        [
            (
                {CUE: (0.6, 1.0), "4": (0.6 + 2 * R - 0.002, 1.0)},
                "balls cue and 4 overlap by 2.00 mm",
            ),
            ({"4": (R - 0.002, 1.0)}, "ball 4 overlaps a cushion"),
            ({"4": (float("nan"), 1.0)}, "not finite"),
            ({"4": (2.0, 1.0)}, "off the table"),
            ({"4": (-0.01, -0.01)}, "over pocket lb"),
            ({"16": (0.5, 1.0)}, "unknown ball '16'"),
        ],
    )
    def test_impossible_positions_are_refused(
        self, positions: dict[str, tuple[float, float]], message: str
    ) -> None:
        with pytest.raises(PlacementError, match=message):
            settle_positions(SPEC, positions)

    def test_a_shot_needs_the_cue_ball(self) -> None:
        with pytest.raises(PlacementError, match="cue ball"):
            simulate_shot(SPEC, {"1": (0.5, 1.0)}, CueAction(2.0, 90.0))


class TestCueAction:
    def test_limits_are_accepted(self) -> None:
        CueAction(speed=10.0, aim=-720.0, elevation=89.0, a=0.3, b=-0.4)

    @pytest.mark.parametrize(
        ("fields", "message"),
        [
            ({"speed": float("nan")}, "speed must be a finite number"),
            ({"speed": float("inf")}, "speed must be a finite number"),
            ({"speed": 0.0}, r"speed must be in \(0, 10\]"),
            ({"speed": -1.0}, r"speed must be in \(0, 10\]"),
            ({"speed": 10.5}, r"speed must be in \(0, 10\]"),
            ({"aim": float("nan")}, "aim must be a finite number"),
            ({"elevation": -1.0}, "elevation must be in"),
            ({"elevation": 90.0}, "elevation must be in"),
            ({"a": 0.4, "b": 0.4}, "miscue limit"),
            ({"b": float("-inf")}, "b must be a finite number"),
        ],
    )
    def test_out_of_range_is_refused(self, fields: dict[str, float], message: str) -> None:
        with pytest.raises(ValueError, match=message):
            CueAction(**{"speed": 2.0, "aim": 90.0, **fields})


def test_aim_towards() -> None:
    assert aim_towards((0, 0), (1, 0)) == pytest.approx(0.0)
    assert aim_towards((0, 0), (0, 1)) == pytest.approx(90.0)
    assert aim_towards((0, 0), (-1, -1)) == pytest.approx(225.0)


def test_a_chosen_spot_clear_of_the_cushions_keeps_twice_the_placement_gap() -> None:
    """The rules allow a ball frozen to a cushion (GEN-5); a spot the physics need not
    move is twice PLACEMENT_GAP further in."""
    assert clear_of_cushions(GEOMETRY, (R + 2 * PLACEMENT_GAP, 1.0))
    assert not clear_of_cushions(GEOMETRY, (R + PLACEMENT_GAP, 1.0))
    assert not clear_of_cushions(GEOMETRY, (0.6, GEOMETRY.length - R))
    assert GEOMETRY.on_bed((0.6, GEOMETRY.length - R))
