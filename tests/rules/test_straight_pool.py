"""WPA 14.1 continuous (SP-1..18, B-45..B-59) beyond the public scenarios: sequences of
shots through the state (fouls across a re-rack, scores below zero, runs over several
innings), the special racking situations of SP-15 and the options of Part B. The public
suite (tests/data/scenarios/straight-pool.json) runs through ``poolsim rules check`` in
test_conformance.py."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

from rules import (
    CUE,
    BallInHand,
    Choice,
    FoulCode,
    IllegalAction,
    Options,
    Phase,
    Player,
    Positions,
    StraightPool,
    StraightPoolExtras,
    Tally,
)
from rules.conformance import check_files
from rules.facts import OffTable
from rules.geometry import Point
from rules.lead import ruling_line
from rules.ruling import Ruling
from rules.shot import Shot
from rules.straight_pool import OBJECT_BALLS, Racking, interferes, rack_outline, racked
from tests.rules.builders import TABLE, call, cross, hit, pocket, rail, shot

SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"
KITCHEN: Point = (0.5, 0.3)
# Clear of the rack area (SP-2), of the head and centre spots and of each other.
FAR = {"5": (0.3, 1.35), "9": (1.0, 1.0), "12": (0.25, 0.9)}
POT = {CUE: (0.8368, 1.8531), "7": (1.0201, 2.1513)}  # the 7 straight into the foot right


def game(
    balls: Mapping[str, Point],
    *,
    shooter: Player = Player.A,
    phase: Phase = Phase.PLAY,
    score: tuple[int, int] = (0, 0),
    fouls: tuple[int, int] = (0, 0),
    run: int = 0,
    high: tuple[int, int] = (0, 0),
    options: Mapping[str, Any] | None = None,
) -> StraightPool:
    in_hand = BallInHand.KITCHEN if phase is Phase.BREAK else None
    return StraightPool(
        balls=Positions(balls).without(CUE) if in_hand else balls,
        options=Options(**(options or {})),
        shooter=shooter,
        phase=phase,
        ball_in_hand=in_hand,
        score=Tally(*score),
        fouls=Tally(*fouls),
        run=run,
        high_run=Tally(*high),
    )


def extras(ruling: Ruling) -> StraightPoolExtras:
    assert isinstance(ruling.extras, StraightPoolExtras)
    return ruling.extras


def pot_seven(**resting: Point) -> Shot:
    """The called 7 into the foot right corner; ``resting``: where balls stopped."""
    return shot(hit(CUE, "7"), pocket("7", "rt"), call=call("7", "rt"), resting=resting or None)


def miss(ball: str) -> Shot:
    """A legal shot that scores nothing: ``ball`` called, hit and sent to a cushion."""
    return shot(hit(CUE, ball), rail(ball), call=call(ball, "lt"))


NO_HIT = shot(rail(CUE), call=call("5", "lt"))
BREAKING_FOUL = shot(cross(), hit(CUE, "1"), rail("3"), placement=KITCHEN)  # no cue-ball rail


def last_two(state_balls: Mapping[str, Point], cue: Point, ball: str = "11") -> Shot:
    """The called 4 drops and ``ball`` is the one left; the cue ball stops at ``cue``."""
    resting = {CUE: cue, ball: state_balls[ball]}
    return shot(hit(CUE, "4"), pocket("4", "rt"), call=call("4", "rt"), resting=resting)


def test_sp_13_three_fouls_counted_across_a_fourteen_ball_rerack() -> None:
    """B's two fouls survive A's re-rack (SP-14): B's third foul after it costs sixteen
    points, racks all fifteen balls and B breaks from the kitchen."""
    balls = {CUE: (0.8368, 1.8531), "4": (1.0201, 2.1513), "11": (0.3, 1.35)}
    state = game(balls, fouls=(0, 2), score=(40, 30))
    assert state.warned == {Player.B}
    ruling = state.rule(last_two(balls, (0.9, 1.6)))
    assert extras(ruling).racking == Racking(count=14, break_ball=(0.3, 1.35), cue_ball=(0.9, 1.6))
    state = state.apply(ruling)
    assert (state.fouls, state.warned, state.shooter) == (Tally(0, 2), frozenset("B"), Player.A)
    assert set(state.balls.object_balls) == set(OBJECT_BALLS)
    state = state.push(miss("11"))  # A's inning ends on a legal miss
    ruling = state.rule(shot(rail(CUE), call=call("11", "lt")))  # B hits nothing
    assert ruling.foul_codes[0].value == "no-hit"
    assert (extras(ruling).penalty, ruling.score, ruling.fouls) == (16, Tally(41, 14), Tally())
    assert extras(ruling).racking == Racking(count=15)
    after = state.apply(ruling)
    assert (after.shooter, after.phase, after.ball_in_hand) == (
        Player.B,
        Phase.BREAK,
        BallInHand.KITCHEN,
    )
    assert set(after.balls) == set(OBJECT_BALLS) and not after.warned
    line = ruling_line(ruling, StraightPool, ("Ann", "Bob"))
    assert (
        line
        == "Foul: no ball hit, Bob's third in a row: the balls are racked again and Bob breaks."
    )


def test_sp_4_successive_breaking_fouls_take_the_score_below_zero() -> None:
    """Each breaking foul costs two more points and never counts toward three fouls; the
    re-break from ``rerack-other`` is another opening break; a standard foul then costs one
    point more, from a score already negative (SP-16)."""
    state = game({CUE: KITCHEN, **racked(OBJECT_BALLS, TABLE, Options())}, phase=Phase.BREAK)
    for score in (-2, -4, -6):
        ruling = state.rule(BREAKING_FOUL)
        assert extras(ruling).breaking_foul and extras(ruling).penalty == 2
        assert (ruling.score, ruling.fouls) == (Tally(score, 0), Tally(0, 0))
        assert ruling.choices == {Choice.SHOOT, Choice.RERACK_OTHER}
        state = state.apply(ruling).choose(Choice.RERACK_OTHER)
        assert (state.shooter, state.phase, state.ball_in_hand) == (
            Player.A,
            Phase.BREAK,
            BallInHand.KITCHEN,
        )
    state = state.apply(state.rule(BREAKING_FOUL)).choose(Choice.SHOOT)
    assert (state.shooter, state.score) == (Player.B, Tally(-8, 0))
    state = state.push(miss("5"))
    ruling = state.rule(NO_HIT)
    assert (ruling.score, ruling.fouls, extras(ruling).penalty) == (Tally(-9, 0), Tally(1, 0), 1)


def test_sp_17_the_high_run_over_several_innings() -> None:
    """The run grows by the points of each shot and starts again each inning; the high run
    is each player's best, kept across innings; a foul ends the run without reducing it."""
    balls = {**POT, **FAR}
    state = game(balls)
    runs = []
    for _ in range(3):  # A pots the 7 three times: the 7 set back for the next shot
        ruling = state.rule(pot_seven())
        runs.append((extras(ruling).run, extras(ruling).high_run))
        state = attrs_evolve(state.apply(ruling), balls)
    assert runs == [(1, Tally(1, 0)), (2, Tally(2, 0)), (3, Tally(3, 0))]
    assert state.run == 3
    state = state.apply(state.rule(miss("5")))
    assert (state.shooter, state.run, state.high_run) == (Player.B, 0, Tally(3, 0))
    state = attrs_evolve(state.apply(state.rule(pot_seven())), balls)  # B: a run of 1
    ruling = state.rule(NO_HIT)  # B's foul ends the inning: the run stays 1
    assert (extras(ruling).run, extras(ruling).high_run) == (1, Tally(3, 1))
    state = state.apply(ruling)
    assert (state.shooter, state.run) == (Player.A, 0)
    state = state.push(miss("5")).push(miss("5"))  # A then B: no run at all
    ruling = state.rule(pot_seven())
    assert (extras(ruling).run, extras(ruling).high_run) == (1, Tally(3, 1))


def attrs_evolve(state: StraightPool, balls: Mapping[str, Point]) -> StraightPool:
    """The table set back to ``balls`` (the 7 potted again on the next shot)."""
    return attrs.evolve(state, balls=Positions(balls))


def test_sp_14_the_run_goes_on_across_the_rerack() -> None:
    balls = {CUE: (0.8368, 1.8531), "4": (1.0201, 2.1513), "11": (0.3, 1.35)}
    state = game(balls, run=13, high=(13, 40)).apply(
        game(balls, run=13, high=(13, 40)).rule(last_two(balls, (0.9, 1.6)))
    )
    assert (state.run, state.high_run) == (14, Tally(14, 40))
    ruling = state.rule(shot(hit(CUE, "11"), pocket("11", "lb"), call=call("11", "lb")))
    assert (extras(ruling).run, extras(ruling).racking) == (15, None)


@pytest.mark.parametrize(
    ("break_ball", "cue", "options", "racking"),
    [
        # (c): the break ball in the rack area goes to the head spot...
        (
            (0.62, 2.0),
            (0.9, 1.6),
            {},
            Racking(count=14, break_ball=(0.635, 0.635), cue_ball=(0.9, 1.6)),
        ),
        # ... or to the centre spot when the cue ball blocks the head spot.
        (
            (0.62, 2.0),
            (0.66, 0.65),
            {},
            Racking(count=14, break_ball=(0.635, 1.27), cue_ball=(0.66, 0.65)),
        ),
        # (b): both in the rack area: fifteen racked, the cue ball in hand in the kitchen.
        ((0.62, 2.0), (0.66, 2.05), {}, Racking(count=15)),
        # (d): the cue ball in the rack area, the break ball on the head spot (on the head
        # string): in hand in the kitchen (WPA 4.8(d)), or the centre spot (B-53 bca_table).
        ((0.635, 0.635), (0.66, 2.0), {}, Racking(count=14, break_ball=(0.635, 0.635))),
        (
            (0.635, 0.635),
            (0.66, 2.0),
            {"sp_break_ball_on_head_string": "bca_table"},
            Racking(count=14, break_ball=(0.635, 0.635), cue_ball=(0.635, 1.27)),
        ),
        # (d): the break ball behind the head string, blocking the head spot: centre spot.
        (
            (0.62, 0.6),
            (0.66, 2.0),
            {},
            Racking(count=14, break_ball=(0.62, 0.6), cue_ball=(0.635, 1.27)),
        ),
    ],
)
def test_sp_15_special_racking_situations(
    break_ball: Point, cue: Point, options: dict[str, Any], racking: Racking
) -> None:
    balls = {CUE: (0.8368, 1.8531), "4": (1.0201, 2.1513), "11": break_ball}
    state = game(balls, options=options)
    ruling = state.rule(last_two(balls, cue))
    assert extras(ruling).racking == racking
    after = state.apply(ruling)
    assert set(after.balls.object_balls) == set(OBJECT_BALLS)
    assert (CUE in after.balls) == (racking.cue_ball is not None)
    assert after.ball_in_hand is (None if racking.cue_ball else BallInHand.KITCHEN)
    assert (after.shooter, after.phase) == (Player.A, Phase.PLAY)


def test_sp_15_a_the_break_ball_pocketed_with_the_fourteenth() -> None:
    """Fifteen racked; the cue ball stays where it lies, or comes to hand in the kitchen
    from the rack area (B-52); B-59 ``break`` makes the next shot an opening break."""
    balls = {CUE: (0.8368, 1.8531), "4": (1.0201, 2.1513), "11": (1.1, 2.3)}
    both = (hit(CUE, "4"), pocket("4", "rt"), hit(CUE, "11"), pocket("11", "rt"))
    for cue, options, expected in [
        ((0.9, 1.6), {}, Racking(count=15, cue_ball=(0.9, 1.6))),
        ((0.66, 2.0), {}, Racking(count=15)),
        ((0.9, 1.6), {"sp_fifteen_rack_phase": "break"}, Racking(count=15)),
    ]:
        state = game(balls, options=options)
        ruling = state.rule(shot(*both, call=call("4", "rt"), resting={CUE: cue}))
        assert (extras(ruling).points, extras(ruling).racking) == (2, expected)
        phase = Phase.BREAK if options else Phase.PLAY
        assert (ruling.next_shooter, ruling.phase) == (Player.A, phase)


def test_b_49_balls_left_down_rack_for_the_incoming_player() -> None:
    """Under ``stay_down`` a miss can leave one ball: the fourteen are racked and the
    opponent plays the first shot of the new rack (B-50)."""
    balls = {CUE: (0.8368, 1.8531), "4": (1.0201, 2.1513), "11": (0.3, 1.35)}
    state = game(balls, options={"sp_uncalled_pocketed": "stay_down"})
    ruling = state.rule(shot(hit(CUE, "4"), pocket("4", "rt"), call=call("4", "lt")))
    assert (ruling.next_shooter, extras(ruling).points, dict(ruling.spotted)) == (Player.B, 0, {})
    racking = extras(ruling).racking
    assert racking is not None and racking.count == 14


def test_b_51_the_incoming_player_may_accept_the_table_after_a_third_foul() -> None:
    state = game({**POT, **FAR}, fouls=(2, 0), options={"sp_three_foul_rerack": "incoming_choice"})
    ruling = state.rule(shot(hit(CUE, "7"), pocket("7", "rt"), pocket(CUE, "rt")))
    assert ruling.choices == {Choice.KITCHEN, Choice.RERACK_OTHER}
    assert (extras(ruling).penalty, ruling.fouls, set(ruling.spotted)) == (16, Tally(), {"7"})
    after = state.apply(ruling)
    assert after.choose(Choice.KITCHEN).ball_in_hand is BallInHand.KITCHEN
    rebreak = after.choose(Choice.RERACK_OTHER)
    assert (rebreak.shooter, rebreak.phase) == (Player.A, Phase.BREAK)


def test_b_54_b_46_the_target_with_a_cap_and_handicaps() -> None:
    balls = {**POT, "4": (1.1, 2.3), **FAR}
    two = shot(hit(CUE, "7"), pocket("7", "rt"), hit(CUE, "4"), pocket("4", "rt"), call=call("7"))
    capped = game(balls, score=(149, 0), options={"sp_score_at_target": "cap_at_target"}).rule(two)
    assert (capped.winner, capped.score, extras(capped).points) == (Player.A, Tally(150, 0), 1)
    assert game(balls, score=(149, 0)).rule(two).score == Tally(151, 0)
    handicap: dict[str, Any] = {"sp_handicap_targets": (75, 150)}
    assert game(balls, score=(74, 0), options=handicap).rule(pot_seven()).winner is Player.A
    b = game(balls, shooter=Player.B, score=(0, 74), options=handicap).rule(pot_seven())
    assert (b.winner, b.rack_over) == (None, False)


def test_b_56_a_legal_miss_clears_fouls_only_by_default() -> None:
    state = game({**POT, **FAR}, fouls=(1, 0))
    assert state.rule(miss("5")).fouls == Tally(0, 0)
    strict = game({**POT, **FAR}, fouls=(1, 0), options={"sp_foul_reset": "pocket_or_safety"})
    assert strict.rule(miss("5")).fouls == Tally(1, 0)
    assert strict.rule(pot_seven()).fouls == Tally(0, 0)


def test_sp_18_a_stalemate_racks_fifteen_and_keeps_the_scores() -> None:
    state = game({**POT, **FAR}, score=(-3, 20), fouls=(2, 1))
    ruling = state.rule_stalemate(agreed=True)
    after = state.apply(ruling)
    assert not after.is_over and (after.score, after.fouls) == (Tally(-3, 20), Tally(2, 1))
    assert (after.phase, after.ball_in_hand, set(after.balls)) == (
        Phase.BREAK,
        BallInHand.KITCHEN,
        set(OBJECT_BALLS),
    )
    assert extras(ruling).racking == Racking(count=15)


def test_sp_2_the_rack_area() -> None:
    """REFERENCE.md's outline vertices, and "interferes" with the ball's radius."""
    outline = rack_outline(TABLE, Options())
    expected = [(0.635, 1.8352), (0.4602, 2.1379), (0.8098, 2.1379)]
    assert all(
        abs(a - b) < 1e-4
        for p, q in zip(outline, expected, strict=True)
        for a, b in zip(p, q, strict=True)
    )
    r = TABLE.ball_radius
    assert interferes((0.635, 1.8352 - r + 0.003), TABLE, Options())
    assert not interferes((0.635, 1.8352 - r - 0.003), TABLE, Options())
    assert interferes((0.635, 1.85), TABLE, Options(sp_rack_outline_margin=0.0))


def test_the_extras_write_and_read_their_own_json() -> None:
    state = game({CUE: (0.8368, 1.8531), "4": (1.0201, 2.1513), "11": (0.3, 1.35)})
    ruling = state.rule(last_two(dict(state.balls), (0.9, 1.6)))
    data = extras(ruling).to_json(ruling)
    assert data["racking"] == {"count": 14, "break_ball": [0.3, 1.35], "cue_ball": [0.9, 1.6]}
    assert StraightPoolExtras.from_json(json.loads(json.dumps(data))) == extras(ruling)
    assert StraightPool.extras_type is StraightPoolExtras


def test_sp_6_no_push_out_and_any_ball_on() -> None:
    state = game({**POT, **FAR})
    assert state.balls_on == ("5", "7", "9", "12") and state.call_required
    with pytest.raises(IllegalAction, match="no push out"):
        state.rule(shot(hit(CUE, "7"), rail("7"), declare="push-out"))
    opening = game({CUE: KITCHEN, **racked(OBJECT_BALLS, TABLE, Options())}, phase=Phase.BREAK)
    assert opening.calls_allowed and not opening.call_required


def scenario_file(tmp_path: Path, **changes: Any) -> Path:
    """The public suite's first scenario with ``changes`` to its ``before`` or ``shot``."""
    data = json.loads((SCENARIOS / "straight-pool.json").read_text())
    scenario = data["scenarios"][7]  # sp-called-ball-one-point
    for part, values in changes.items():
        scenario[part] |= values
    data["scenarios"] = [scenario]
    path = tmp_path / "one.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"before": {"ball_in_hand": "anywhere"}}, "before.ball_in_hand"),
        ({"shot": {"declare": "push-out"}}, "shot.declare"),
        ({"expect": {"rerack": False}}, "expect.rerack: unknown key"),
        ({"expect": {"racking": {"count": 13, "cue_ball": "kitchen"}}}, "expect.racking.count"),
    ],
)
def test_the_reader_refuses_what_14_1_does_not_have(
    tmp_path: Path, changes: dict[str, Any], refusal: str
) -> None:
    out = io.StringIO()
    assert check_files([scenario_file(tmp_path, **changes)], out) == 2
    assert refusal in out.getvalue()


def test_the_reader_takes_negative_scores_and_runs(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path,
        before={"score": {"A": -20, "B": 3}, "run": 2, "high_run": {"A": 2, "B": 0}},
        expect={"score": {"A": -19, "B": 3}, "run": 3, "high_run": {"A": 3, "B": 22}},
    )
    out = io.StringIO()
    assert check_files([path], out) == 1  # B's high run was 0, not 22
    assert "expected high_run" in out.getvalue() and "expected score" not in out.getvalue()


def test_the_formats_consistency_checks_of_a_ruling() -> None:
    """FORMAT.md "14.1": the conformance runner asks the state whether its ruling keeps
    the score, the penalty, the breaking foul and the racking consistent."""
    state = game({**POT, **FAR})
    ruling = state.rule(shot(hit(CUE, "7"), pocket("7", "rt"), call=call("7", "rt")))
    assert state.inconsistencies(ruling) == []
    doctored = attrs.evolve(
        extras(ruling), penalty=1, breaking_foul=True, racking=Racking(count=15)
    )
    assert state.inconsistencies(attrs.evolve(ruling, extras=doctored)) == [
        "inconsistent score: not the shooter's score + points - penalty",
        "inconsistent penalty 1 for foul=False",
        "inconsistent breaking foul off the break",
        "inconsistent racking: not every object ball is on the table",
    ]


def test_a_racking_other_than_expected_is_shown(tmp_path: Path) -> None:
    """A racking mismatch is a FAIL line with both rackings as the file writes them (the
    runner once failed to write a racking at all)."""
    expected = {"count": 14, "break_ball": [0.5, 1.0], "cue_ball": [0.6, 0.8]}
    path = scenario_file(tmp_path, expect={"racking": expected})
    out = io.StringIO()
    assert check_files([path], out) == 1
    shown = '"count": 14, "break_ball": [0.5, 1.0], "cue_ball": [0.6, 0.8]'
    assert f"expected racking={{{shown}}} got null" in out.getvalue()


RACK = racked(OBJECT_BALLS, TABLE, Options())
INTO_RACK = (cross(), hit(CUE, "1"))  # the break's first contact, the apex


def opening(**options: Any) -> StraightPool:
    return game({CUE: KITCHEN, **RACK}, phase=Phase.BREAK, options=options)


def test_sp_3_sp_5_what_drives_a_ball_to_a_rail_on_the_break() -> None:
    """WPA 8.4: a pocketed ball counts as driven to a rail, the cue ball too. A cue ball
    that drops after the rack was hit meets its part: a standard foul (SP-5), one point,
    counted, in hand in the kitchen for the opponent, no choice."""
    good = opening().rule(
        shot(*INTO_RACK, pocket("5", "lt"), rail("14"), rail(CUE), placement=KITCHEN)
    )
    assert (good.foul, good.next_shooter, set(good.spotted)) == (False, Player.B, {"5"})
    scratch = shot(*INTO_RACK, rail("3"), rail("10"), pocket(CUE, "lc"), placement=KITCHEN)
    ruling = opening().rule(scratch)
    assert (extras(ruling).breaking_foul, extras(ruling).penalty, ruling.fouls) == (
        False,
        1,
        Tally(1, 0),
    )
    assert (ruling.choices, ruling.ball_in_hand) == (frozenset(), BallInHand.KITCHEN)
    called = shot(*INTO_RACK, pocket("3", "rt"), call=call("3", "rt"), placement=KITCHEN)
    made = opening().rule(called)  # the called ball alone meets the requirement
    assert (made.foul, made.next_shooter, extras(made).points) == (False, Player.A, 1)


def test_sp_4_a_breaking_foul_with_a_scratch_offers_the_kitchen() -> None:
    """SP-4: the standard foul is absorbed (two points, not three); the table is accepted
    from the kitchen."""
    ruling = opening().rule(shot(*INTO_RACK, rail("3"), pocket(CUE, "rt"), placement=KITCHEN))
    assert extras(ruling).penalty == 2 and set(ruling.foul_codes) >= {
        FoulCode.ILLEGAL_BREAK,
        FoulCode.SCRATCH,
    }
    assert ruling.choices == {Choice.KITCHEN, Choice.RERACK_OTHER}
    assert ruling.ball_in_hand is BallInHand.KITCHEN and ruling.fouls == Tally()


def test_sp_7_sp_8_sp_11_what_scores_and_what_is_spotted() -> None:
    """SP-7: every ball down with the called one counts; SP-8: without it nothing counts
    and the balls are spotted, ascending from the foot spot (SP-11)."""
    balls = {**POT, "13": (1.1, 2.3), **FAR}
    two = (hit(CUE, "7"), pocket("7", "rt"), hit(CUE, "13"), pocket("13", "rt"))
    assert extras(game(balls).rule(shot(*two, call=call("7", "rt")))).points == 2
    ruling = game(balls).rule(shot(*two, call=call("7", "lt")))
    assert (ruling.foul, extras(ruling).points, ruling.next_shooter) == (False, 0, Player.B)
    foot = TABLE.foot_spot
    assert dict(ruling.spotted) == {"7": foot, "13": (foot[0], foot[1] + TABLE.ball_diameter)}


def test_sp_9_a_safety_spots_what_drops_unless_it_stays_down() -> None:
    safety = shot(hit(CUE, "7"), pocket("7", "rt"), declare="safety")
    ruling = game({**POT, **FAR}).rule(safety)
    assert (ruling.foul, set(ruling.spotted), ruling.next_shooter) == (False, {"7"}, Player.B)
    kept = game({**POT, **FAR}, options={"sp_safety_pocketed": "stay_down"}).rule(safety)
    assert (dict(kept.spotted), kept.pocketed) == ({}, ("7",))


def test_sp_10_sp_12_fouls_cost_a_point_and_spot_the_balls() -> None:
    """SP-12: an object ball off the table is a foul and spotted; SP-10: from the kitchen
    the first ball hit may not lie behind the head string."""
    ruling = game({**POT, **FAR}).rule(
        shot(hit(CUE, "7"), rail("7"), OffTable("7"), call=call("7"))
    )
    assert (ruling.foul_codes, set(ruling.spotted), extras(ruling).penalty) == (
        (FoulCode.BALL_OFF_TABLE,),
        {"7"},
        1,
    )
    behind = {"12": (0.25, 0.2), **POT}
    in_hand = attrs.evolve(
        game(behind), balls=Positions(behind).without(CUE), ball_in_hand=BallInHand.KITCHEN
    )
    kitchen = in_hand.rule(shot(hit(CUE, "12"), rail("12"), call=call("12"), placement=(0.6, 0.2)))
    assert kitchen.foul_codes == (FoulCode.KITCHEN,)


def test_sp_1_sp_16_the_first_to_the_target_wins_on_a_shot_without_a_foul() -> None:
    won = game({**POT, **FAR}, score=(149, 149)).rule(pot_seven())
    assert (won.rack_over, won.winner, won.score) == (True, Player.A, Tally(150, 149))
    scratch = shot(hit(CUE, "7"), pocket("7", "rt"), pocket(CUE, "lt"), call=call("7"))
    fouled = game({**POT, **FAR}, score=(149, 0)).rule(scratch)
    assert (fouled.rack_over, fouled.score) == (False, Tally(148, 0))


def test_sp_18_the_automatic_stalemate_ends_no_game() -> None:
    """GEN-16 under ``auto_no_progress``: fifteen racked, the scores stand."""
    state = attrs.evolve(
        game({**POT, **FAR}, score=(12, 30), options={"stalemate_mode": "auto_no_progress(1)"}),
        quiet_innings=1,
    )
    ruling = state.rule(miss("5"))
    assert (ruling.rack_over, ruling.score, ruling.phase) == (False, Tally(12, 30), Phase.BREAK)
    assert extras(ruling).racking == Racking(count=15)
    assert not state.apply(ruling).is_over
