"""61-point 15-ball rotation (ROT-1..20)."""

from __future__ import annotations

import math
from typing import ClassVar

import pytest

from rules import (
    CUE,
    BallInHand,
    Choice,
    FoulCode,
    IllegalAction,
    Match,
    Options,
    Phase,
    Player,
    Rotation,
    Ruling,
)
from rules.facts import Fact
from rules.geometry import Point
from rules.terms import Tally
from tests.rules.builders import (
    FOOT_SPOT,
    KITCHEN_SPOT,
    ROTATION_RACK,
    TABLE,
    D,
    R,
    break_facts,
    call,
    cross,
    hit,
    off,
    pocket,
    rail,
    rot,
    shot,
)

FOOT_RAIL_Y = TABLE.length - R
# A mid-rack table: LB the 4, the cue ball in the middle.
TABLE_4: dict[str, Point] = {
    CUE: (0.635, 1.0),
    "4": (0.3, 1.5),
    "6": (1.0, 1.8),
    "9": (0.3, 2.2),
    "12": (1.0, 0.6),
    "15": (0.2, 0.9),
}


def racked(**options: object) -> Rotation:
    return Rotation.new_rack(ROTATION_RACK, options=Options.from_mapping(options))


def test_rot_1_no_calls_and_any_ball_scores() -> None:
    """ROT-1: no calls; declarations are ignored; any ball legally pocketed scores."""
    ruling = rot(TABLE_4).rule(
        shot(
            hit(CUE, "4"), hit("4", "9"), pocket("9", "lt"), call=call("4", "rb"), declare="safety"
        )
    )
    assert not ruling.foul and ruling.score == Tally(9, 0) and ruling.next_shooter is Player.A
    assert "ROT-1" in {r.rule for r in ruling.reasons}


def test_rot_1_push_out_is_ignored_not_refused() -> None:
    """ROT-1: there is no push out in rotation."""
    ruling = rot(TABLE_4).rule(shot(hit(CUE, "6"), rail("6"), declare="push-out"))
    assert ruling.foul_codes == (FoulCode.WRONG_BALL,)


def test_rot_2_breaks_alternate_and_the_tie_rule_decides_a_replay() -> None:
    """ROT-2: after a won rack the break alternates; after a 60-60 tie, the last pocketer."""
    last_ball = rot({CUE: (0.75, 1.75), "15": (1.0, 2.2)}, score=(60, 45), breaker=Player.B)
    ruling = last_ball.rule(shot(hit(CUE, "15"), pocket("15")))
    assert ruling.winner is Player.A and ruling.next_breaker is Player.A  # B broke
    tied = rot({CUE: (0.75, 1.75), "15": (1.0, 2.2)}, score=(45, 60), breaker=Player.B)
    ruling = tied.rule(shot(hit(CUE, "15"), pocket("15")))
    assert ruling.rerack and ruling.next_breaker is Player.A


def test_rot_3_the_nominal_rack_is_accepted() -> None:
    """ROT-3: 1 on the foot spot, 2 and 3 in the back corners, 15 in the centre."""
    state = racked()
    assert state.balls["1"] == FOOT_SPOT and len(state.balls) == 15
    assert state.balls["2"][0] < TABLE.width / 2 < state.balls["3"][0]
    assert state.balls["15"][0] == pytest.approx(TABLE.width / 2)
    assert not state.rule(shot(*break_facts(), placement=KITCHEN_SPOT)).foul


class TestRot4BreakSetUp:
    """ROT-4 / B-14: from the kitchen, the 1 first, the kitchen rule on the break."""

    def test_rot_4_the_one_first(self) -> None:
        ruling = racked().rule(shot(*break_facts(first="6"), placement=KITCHEN_SPOT))
        assert ruling.foul_codes == (FoulCode.WRONG_BALL,)
        assert any(r.rule == "ROT-4" for r in ruling.reasons)

    def test_rot_4_cushion_before_crossing_on_the_break(self) -> None:
        facts = (rail(CUE, "left"), *break_facts())
        assert racked().rule(shot(*facts, placement=(0.05, 0.5))).foul_codes == (FoulCode.KITCHEN,)
        off_on_break = racked(rotation_kitchen_rule_on_break=False)
        assert not off_on_break.rule(shot(*facts, placement=(0.05, 0.5))).foul


class TestRot5LegalBreak:
    """ROT-5 / B-3: the 1 first, a ball pocketed or four object balls to a cushion."""

    def test_rot_5_four_balls_including_the_one(self) -> None:
        four = break_facts(rails=("1", "7", "10", "14"))
        assert not racked().rule(shot(*four, placement=KITCHEN_SPOT)).foul
        literal = racked(break_rail_count_mode="distinct_excluding_first_ball")
        assert literal.rule(shot(*four, placement=KITCHEN_SPOT)).foul_codes == (
            FoulCode.ILLEGAL_BREAK,
        )

    def test_rot_5_a_pocketed_ball_is_enough(self) -> None:
        ruling = racked().rule(shot(*break_facts(rails=()), pocket("7"), placement=KITCHEN_SPOT))
        assert not ruling.foul and ruling.score == Tally(7, 0) and ruling.next_shooter is Player.A


class TestRot6BreakFoul:
    """ROT-6 / B-7 / B-8 / B-22: the balls come back and the incoming player chooses."""

    scratch: ClassVar = (*break_facts(), pocket("9", "rb"), pocket(CUE, "lc"))

    def test_rot_6_balls_pocketed_on_a_foul_break_are_spotted(self) -> None:
        ruling = racked().rule(shot(*self.scratch, placement=KITCHEN_SPOT))
        assert ruling.spotted == {"9": (0.635, FOOT_RAIL_Y)} and ruling.score == Tally(0, 0)
        assert ruling.choices == {Choice.KITCHEN, Choice.SPOT_LOWEST}

    def test_rot_6_respot_option_false_leaves_them_down(self) -> None:
        ruling = racked(rotation_break_foul_respot=False).rule(
            shot(*self.scratch, placement=KITCHEN_SPOT)
        )
        assert ruling.spotted == {} and ruling.pocketed == ("9",) and ruling.score == Tally(0, 0)

    def test_rot_6_a_ball_off_the_table_is_spotted_even_when_pocketed_balls_stay_down(
        self,
    ) -> None:
        """ROT-6 / B-7 / B-8: ``rotation_break_foul_respot = false`` leaves the *pocketed*
        balls down; a ball driven off the table is still spotted under B-8 ``spot``."""
        ruling = racked(rotation_break_foul_respot=False).rule(
            shot(*break_facts(), pocket("9", "rb"), off("11"), placement=KITCHEN_SPOT)
        )
        assert ruling.spotted == {"11": (0.635, FOOT_RAIL_Y)}
        assert ruling.pocketed == ("9",) and "11" in ruling.positions
        assert ruling.score == Tally(0, 0)
        assert ruling.choices == {Choice.SHOOT, Choice.SPOT_LOWEST}

    @pytest.mark.parametrize(
        ("rule", "breaker"),
        [("rerack_same_breaker", Player.A), ("rerack_incoming_breaks", Player.B)],
    )
    def test_rot_6_ball_off_the_table_rerack_options(self, rule: str, breaker: Player) -> None:
        ruling = racked(rotation_break_ob_off_table=rule).rule(
            shot(*break_facts(), off("11"), placement=KITCHEN_SPOT)
        )
        assert ruling.rack_over and ruling.rerack and ruling.next_breaker is breaker

    def test_rot_6_a_forfeit_on_fouls_outranks_the_b_8_rerack(self) -> None:
        """ROT-18 / B-8: a break foul that is also the breaker's warned fourth foul (counts
        carried under ``foul_count_scope = match``) loses the rack; it is not also re-racked
        as a B-8 break, and the next breaker follows the break format."""
        options = Options(
            rotation_break_ob_off_table="rerack_same_breaker", foul_count_scope="match"
        )
        state = Rotation.new_rack(ROTATION_RACK, fouls=Tally(3, 0), options=options)
        ruling = state.rule(shot(*break_facts(), off("11"), placement=KITCHEN_SPOT))
        assert ruling.winner is Player.B and not ruling.rerack
        assert ruling.next_breaker is Player.B  # A broke: alternate
        assert "racked again and A breaks" not in ruling.explain()
        plain = Rotation.new_rack(ROTATION_RACK, options=options)
        again = plain.rule(shot(*break_facts(), off("11"), placement=KITCHEN_SPOT))
        assert again.rerack and again.next_breaker is Player.A
        assert "racked again and A breaks" in again.explain()

    def test_rot_6_kitchen_only_option(self) -> None:
        ruling = racked(rotation_break_foul_options="kitchen_only").rule(
            shot(*break_facts(first="6"), placement=KITCHEN_SPOT)
        )
        assert ruling.choices == frozenset() and ruling.ball_in_hand is BallInHand.KITCHEN
        assert CUE not in ruling.positions


def test_rot_7_continue_after_pocketing_or_pass_the_table() -> None:
    """ROT-7: a legal shot that pockets continues; one that does not ends the inning."""
    made = rot(TABLE_4).rule(shot(hit(CUE, "4"), pocket("4")))
    assert made.next_shooter is Player.A and made.score == Tally(4, 0)
    missed = rot(TABLE_4).rule(shot(hit(CUE, "4"), rail("4")))
    assert missed.next_shooter is Player.B and not missed.choices and missed.ball_in_hand is None


@pytest.mark.parametrize(
    ("facts", "code"),
    [
        ((hit(CUE, "6"), rail("6")), FoulCode.WRONG_BALL),
        ((hit(CUE, "4"),), FoulCode.NO_RAIL),
        ((hit(CUE, "4"), rail("4"), pocket(CUE, "rb")), FoulCode.SCRATCH),
        ((hit(CUE, "4"), rail("4"), off("9")), FoulCode.BALL_OFF_TABLE),
        ((rail(CUE),), FoulCode.NO_HIT),
    ],
)
def test_rot_8_what_makes_a_shot_illegal(facts: tuple[Fact, ...], code: FoulCode) -> None:
    """ROT-8: the rotation fouls, each scoring nothing (the 12 that dropped is spotted)."""
    drop = () if code is FoulCode.NO_RAIL else (pocket("12", "lb"),)  # a pocket is a rail
    ruling = rot(TABLE_4, score=(10, 10)).rule(shot(*facts, *drop))
    assert code in ruling.foul_codes and ruling.score == Tally(10, 10)
    assert ("12" in ruling.spotted) == bool(drop)


def test_rot_9_sixty_one_wins_at_once() -> None:
    """ROT-9: reaching 61 wins whatever is left; the score line ends every ruling."""
    ruling = rot(TABLE_4, score=(55, 30)).rule(shot(hit(CUE, "4"), pocket("4"), pocket("6")))
    assert ruling.rack_over and ruling.winner is Player.A and ruling.score == Tally(65, 30)
    assert str(ruling.reasons[-1]) == "ROT-9: A scores 4 + 6: 65-30 (A-B), 61 wins"
    foul = rot(TABLE_4, score=(55, 30)).rule(shot(hit(CUE, "6"), pocket("6")))
    assert str(foul.reasons[-1]) == "ROT-9: score 55-30 (A-B), 61 wins"


class TestRot10Tie:
    """ROT-10 / B-12: 60-60 with every ball pocketed."""

    last: ClassVar = {CUE: (0.75, 1.75), "15": (1.0, 2.2)}

    def tie(self, **options: object) -> Ruling:
        state = rot(
            self.last, score=(45, 60), breaker=Player.B, options=Options.from_mapping(options)
        )
        return state.rule(shot(hit(CUE, "15"), pocket("15")))

    def test_rot_10_rerack_last_pocketer_breaks(self) -> None:
        ruling = self.tie()
        assert ruling.rack_over and ruling.rerack and ruling.winner is None
        assert ruling.next_breaker is Player.A

    def test_rot_10_bonus_point(self) -> None:
        ruling = self.tie(rotation_tie_rule="bonus_point_last_pocketer_wins")
        assert ruling.winner is Player.A and ruling.score == Tally(61, 60)

    def test_rot_10_rerack_alternate(self) -> None:
        ruling = self.tie(rotation_tie_rule="rerack_alternate")
        assert ruling.rerack and ruling.next_breaker is Player.A


class TestRot11FoulPenalty:
    """ROT-11: the balls come back in order; the cue ball in play obstructs."""

    def test_rot_11_the_cue_ball_obstructs_with_the_gap(self) -> None:
        after = {
            CUE: (0.635, FOOT_RAIL_Y - 0.01),
            "4": (0.3, 1.5),
            "6": (1.0, 1.8),
            "9": (0.3, 2.2),
            "15": (0.2, 0.9),
        }
        ruling = rot(TABLE_4).rule(shot(hit(CUE, "6"), rail("6"), pocket("12"), resting=after))
        _, y = ruling.spotted["12"]
        assert y == pytest.approx(FOOT_RAIL_Y - 0.01 - D - 0.0005)
        assert ruling.positions[CUE] == after[CUE]

    def test_rot_11_scratch_takes_the_cue_ball_off_first(self) -> None:
        after = {"4": (0.3, 1.5), "6": (1.0, 1.8), "9": (0.3, 2.2), "15": (0.2, 0.9)}
        ruling = rot(TABLE_4).rule(
            shot(hit(CUE, "4"), pocket("12"), pocket(CUE, "rt"), resting=after)
        )
        assert ruling.spotted["12"] == pytest.approx((0.635, FOOT_RAIL_Y))


def test_rot_12_spot_lowest_behind_a_ball_on_the_foot_spot() -> None:
    """ROT-12: LB to FS; if taken, the nearest point behind it, frozen."""
    balls = {**TABLE_4, "9": FOOT_SPOT}
    state = rot(balls).push(shot(hit(CUE, "4")))  # no-rail foul
    ruling = state.rule_choice(Choice.SPOT_LOWEST)
    assert ruling.spotted["4"] == pytest.approx((0.635, 1.905 + D))
    assert ruling.ball_in_hand is BallInHand.KITCHEN and CUE not in ruling.positions


def test_rot_12_lowest_already_on_the_foot_spot_is_not_moved() -> None:
    """ROT-11 step (4) / ROT-12: nothing to move when LB is on FS."""
    balls = {**TABLE_4, "4": FOOT_SPOT}
    ruling = rot(balls).push(shot(hit(CUE, "4"))).rule_choice("spot-lowest")
    assert ruling.spotted == {} and ruling.positions["4"] == FOOT_SPOT


def test_rot_13_several_balls_ascending_from_the_foot_rail() -> None:
    """ROT-13: lowest against the foot cushion, each next frozen in front."""
    ruling = rot(TABLE_4).rule(
        shot(hit(CUE, "6"), pocket("15"), pocket("6"), pocket("9"), pocket("12"))
    )
    ys = {b: p[1] for b, p in ruling.spotted.items()}
    assert ys == pytest.approx(
        {
            "6": FOOT_RAIL_Y,
            "9": FOOT_RAIL_Y - D,
            "12": FOOT_RAIL_Y - 2 * D,
            "15": FOOT_RAIL_Y - 3 * D,
        }
    )


def test_rot_13_past_the_foot_spot_toward_the_centre() -> None:
    """ROT-13: with the string full, the sequence goes past FS toward the centre spot."""
    balls: dict[str, Point] = {CUE: (0.2, 0.3), "1": FOOT_SPOT}
    balls |= {str(n): (0.2 + 0.07 * (n % 12), 0.6 + 0.1 * (n // 12)) for n in range(2, 16)}
    facts: list[Fact] = [hit(CUE, "2"), *(pocket(str(n)) for n in range(2, 16))]
    ruling = rot(balls).rule(shot(*facts))
    assert ruling.foul_codes == (FoulCode.WRONG_BALL,)
    assert ruling.spotted["11"][1] == pytest.approx(FOOT_RAIL_Y - 9 * D)
    assert ruling.spotted["12"][1] == pytest.approx(1.905 - D)  # frozen in front of the 1
    assert ruling.spotted["15"][1] == pytest.approx(1.905 - 4 * D)


class TestRot14FoulOptions:
    """ROT-14 / B-20: play as it lies, or LB to FS with the cue ball in the kitchen."""

    def test_rot_14_shoot_or_spot_lowest(self) -> None:
        state = rot(TABLE_4).push(shot(hit(CUE, "6"), rail("6")))
        assert state.legal_choices == {Choice.SHOOT, Choice.SPOT_LOWEST}
        shot_from_there = state.choose("shoot")
        assert shot_from_there.shooter is Player.B and shot_from_there.ball_in_hand is None
        assert CUE in shot_from_there.balls

    @pytest.mark.parametrize(
        ("option", "choices"),
        [
            ("kitchen_only", {Choice.SHOOT, Choice.KITCHEN}),
            ("both", {Choice.SHOOT, Choice.KITCHEN, Choice.SPOT_LOWEST}),
        ],
    )
    def test_rot_14_option_b(self, option: str, choices: set[Choice]) -> None:
        state = rot(TABLE_4, options=Options(rotation_foul_option_b=option))  # type: ignore[arg-type]
        assert state.rule(shot(hit(CUE, "6"), rail("6"))).choices == choices

    def test_rot_14_no_spot_lowest_beside_the_kitchen_with_it_on_the_foot_spot(self) -> None:
        """Spotting a lowest ball that is on the foot spot already would be the kitchen
        choice again: beside it, it is not offered (with it alone, it is: B-20)."""
        on_spot = {**TABLE_4, "4": (0.635, 1.905)}
        both = rot(on_spot, options=Options(rotation_foul_option_b="both"))
        assert both.rule(shot(hit(CUE, "6"), rail("6"))).choices == {Choice.SHOOT, Choice.KITCHEN}
        alone = rot(on_spot)  # the default option b: spot the lowest ball only
        assert alone.rule(shot(hit(CUE, "6"), rail("6"))).choices == {
            Choice.SHOOT,
            Choice.SPOT_LOWEST,
        }

    def test_rot_14_a_time_foul_is_a_rotation_foul(self) -> None:
        """ROT-19 / GEN-17: the shot clock foul brings the ROT-14 options."""
        state = rot(TABLE_4, options=Options(shot_clock_s=30))
        ruling = state.rule(shot(hit(CUE, "4"), rail("4"), clock_s=31))
        assert ruling.foul_codes == (FoulCode.SHOT_CLOCK,)
        assert ruling.choices == {Choice.SHOOT, Choice.SPOT_LOWEST}


def test_rot_14_choice_reasons_name_the_rule_that_offered_them() -> None:
    """ROT-14 (B-20), ROT-15, ROT-16: the line a player reads after a choice is tagged
    with the rule that gave the choice."""
    kitchen_only = rot(TABLE_4, options=Options(rotation_foul_option_b="kitchen_only"))
    chosen = kitchen_only.push(shot(hit(CUE, "6"), rail("6"))).rule_choice("kitchen")
    assert chosen.reasons[0].rule == "ROT-14"
    lowest_down = rot(TABLE_4).push(shot(hit(CUE, "6"), pocket("4")))
    assert lowest_down.rule_choice("shoot").reasons[0].rule == "ROT-16"
    assert lowest_down.rule_choice("kitchen").reasons[0].rule == "ROT-16"
    scratch = rot(TABLE_4).push(shot(hit(CUE, "4"), rail("4"), pocket(CUE, "lb")))
    assert scratch.rule_choice("kitchen").reasons[0].rule == "ROT-15"
    assert scratch.rule_choice("spot-lowest").reasons[0].rule == "ROT-12"


class TestRot15Scratch:
    """ROT-15: after a scratch, kitchen (no ball moved) or spot-lowest; only the latter
    when LB lies in the kitchen."""

    def test_rot_15_lowest_in_front_kitchen_or_spot(self) -> None:
        state = rot(TABLE_4).push(shot(hit(CUE, "4"), rail("4"), pocket(CUE, "lb")))
        assert state.legal_choices == {Choice.KITCHEN, Choice.SPOT_LOWEST}
        kitchen = state.rule_choice("kitchen")
        assert kitchen.spotted == {} and kitchen.ball_in_hand is BallInHand.KITCHEN

    def test_rot_15_lowest_in_the_kitchen_forces_the_spot(self) -> None:
        after = {**{k: v for k, v in TABLE_4.items() if k != CUE}, "4": (0.3, 0.4)}
        ruling = rot(TABLE_4).rule(shot(hit(CUE, "4"), rail("4"), off(CUE), resting=after))
        assert ruling.choices == frozenset() and ruling.spotted == {"4": FOOT_SPOT}
        assert ruling.ball_in_hand is BallInHand.KITCHEN

    def test_rot_15_lowest_on_the_head_string_counts_as_in_front(self) -> None:
        after = {**{k: v for k, v in TABLE_4.items() if k != CUE}, "4": (0.3, 0.635)}
        ruling = rot(TABLE_4).rule(shot(hit(CUE, "4"), rail("4"), off(CUE), resting=after))
        assert ruling.choices == {Choice.KITCHEN, Choice.SPOT_LOWEST}


class TestRot16LowestDown:
    """ROT-16: LB pocketed on a foul goes to FS by force; shoot or kitchen."""

    def test_rot_16_shoot_or_kitchen(self) -> None:
        ruling = rot(TABLE_4).rule(shot(hit(CUE, "6"), pocket("4"), pocket("9")))
        assert ruling.spotted["4"] == FOOT_SPOT and ruling.spotted["9"][1] == pytest.approx(
            FOOT_RAIL_Y
        )
        assert ruling.choices == {Choice.SHOOT, Choice.KITCHEN}

    def test_rot_16_scratch_leaves_only_the_kitchen(self) -> None:
        ruling = rot(TABLE_4).rule(shot(hit(CUE, "4"), pocket("4"), pocket(CUE)))
        assert ruling.choices == frozenset() and ruling.ball_in_hand is BallInHand.KITCHEN
        assert ruling.spotted == {"4": FOOT_SPOT}


class TestRot17Kitchen:
    """ROT-17 / B-14: from the kitchen, cross the head string before touching anything."""

    behind: ClassVar = {"4": (1.0, 1.8), "12": (0.5, 0.55), "9": (0.3, 2.2)}

    def state(self, **options: object) -> Rotation:
        return rot(
            self.behind,
            shooter=Player.B,
            in_hand=BallInHand.KITCHEN,
            fouls=(0, 1),
            options=Options.from_mapping(options),
        )

    def test_rot_17_crossing_first_is_legal(self) -> None:
        ruling = self.state().rule(shot(cross(), hit(CUE, "4"), rail("4"), placement=(0.3, 0.4)))
        assert not ruling.foul

    def test_rot_17_exception_ball_on_or_past_the_string(self) -> None:
        balls = {**self.behind, "4": (0.3, 0.65)}
        state = rot(balls, in_hand=BallInHand.KITCHEN)
        assert not state.rule(shot(hit(CUE, "4"), rail("4"), placement=(0.3, 0.58))).foul

    def test_rot_17_ball_behind_then_crossing_is_a_plain_foul(self) -> None:
        ruling = self.state().rule(
            shot(hit(CUE, "12"), cross(), hit(CUE, "4"), rail("4"), placement=(0.3, 0.4))
        )
        assert FoulCode.KITCHEN in ruling.foul_codes and Choice.REPLAY not in ruling.choices

    def test_rot_17_ball_behind_never_crossing_offers_a_replay(self) -> None:
        state = self.state()
        ruling = state.rule(shot(hit(CUE, "12"), placement=(0.3, 0.4)))
        assert ruling.choices == {Choice.SHOOT, Choice.SPOT_LOWEST, Choice.REPLAY}
        assert ruling.fouls == Tally(0, 2)
        replayed = state.apply(ruling).choose("replay")
        assert replayed.balls == state.balls and replayed.shooter is Player.B
        assert replayed.ball_in_hand is BallInHand.KITCHEN and replayed.fouls == Tally(0, 1)
        counted = self.state(replay_counts_as_foul=True)
        assert counted.apply(counted.rule(shot(hit(CUE, "12"), placement=(0.3, 0.4)))).choose(
            "replay"
        ).fouls == Tally(0, 2)
        no_replay = self.state(rotation_kitchen_replay_option=False)
        assert (
            Choice.REPLAY not in no_replay.rule(shot(hit(CUE, "12"), placement=(0.3, 0.4))).choices
        )

    def test_rot_17_cushion_before_crossing(self) -> None:
        facts = (rail(CUE, "left"), cross(), hit(CUE, "4"), rail("4"))
        assert self.state().rule(shot(*facts, placement=(0.1, 0.4))).foul_codes == (
            FoulCode.KITCHEN,
        )
        lax = self.state(rotation_kitchen_rail_contact_foul=False)
        assert not lax.rule(shot(*facts, placement=(0.1, 0.4))).foul

    def test_rot_17_crossing_read_from_geometry_without_the_event(self) -> None:
        """ROT-17: with no head-string event, the cue ball has crossed by the time it meets
        a ball lying 2R or more past the string (its centre is then on or past it), or
        touches the foot cushion; later cushion contacts are no kitchen foul."""
        broke = racked().rule(
            shot(
                hit(CUE, "1"),
                *(rail(b) for b in ("1", "7", "10", "14")),
                rail(CUE, "right"),
                placement=KITCHEN_SPOT,
            )
        )
        assert not broke.foul
        up_table = self.state().rule(
            shot(
                rail(CUE, "foot"),
                rail(CUE, "right"),
                hit(CUE, "4"),
                rail("4"),
                placement=(0.3, 0.4),
            )
        )
        assert not up_table.foul
        # A side cushion says nothing about the head string: still a foul.
        side = self.state().rule(
            shot(rail(CUE, "left"), hit(CUE, "4"), rail("4"), placement=(0.3, 0.4))
        )
        assert side.foul_codes == (FoulCode.KITCHEN,)
        # A first ball just past the string does not prove a crossing.
        near = rot({**self.behind, "4": (0.3, 0.65)}, in_hand=BallInHand.KITCHEN)
        back = near.rule(shot(hit(CUE, "4"), rail("4"), rail(CUE, "head"), placement=(0.3, 0.58)))
        assert back.foul_codes == (FoulCode.KITCHEN,)
        # Hit the 12 behind the string, come to rest past it: it crossed, so no replay.
        resting = {**self.behind, CUE: (0.6, 0.9), "12": (0.52, 0.5)}
        crossed = self.state().rule(shot(hit(CUE, "12"), placement=(0.3, 0.4), resting=resting))
        assert FoulCode.KITCHEN in crossed.foul_codes and Choice.REPLAY not in crossed.choices

    def test_rot_17_a_side_or_foot_pocket_shows_the_crossing(self) -> None:
        """ROT-17 sub-case 1, not 2: a cue ball that hits a ball behind the string and then
        drops in a side (or foot) pocket crossed the head string on the way, so there is
        no replay; a head-end corner pocket (lb, rb) lies in the kitchen and proves
        nothing."""
        side = self.state().rule(
            shot(hit(CUE, "12"), rail("12"), pocket(CUE, "rc"), placement=(0.3, 0.4))
        )
        assert FoulCode.KITCHEN in side.foul_codes and Choice.REPLAY not in side.choices
        corner = self.state().rule(
            shot(hit(CUE, "12"), rail("12"), pocket(CUE, "lb"), placement=(0.3, 0.4))
        )
        assert Choice.REPLAY in corner.choices

    def test_rot_17_an_unmoved_ball_far_up_table_shows_the_crossing(self) -> None:
        """ROT-17: after the exception ball (just past the string), the cue ball meets a
        ball that still lies where it did at the stroke, 2R or more past the string: it
        had crossed, so that contact is legal; a ball that moved before proves nothing."""
        balls = {"2": (0.62, 0.65), "9": (0.7, 1.8), "15": (1.1, 2.3)}
        state = rot(balls, in_hand=BallInHand.KITCHEN)
        on = state.rule(shot(hit(CUE, "2"), rail("2"), hit(CUE, "9"), placement=(0.6, 0.5)))
        assert not on.foul
        moved = state.rule(
            shot(hit(CUE, "2"), hit("2", "9"), hit(CUE, "9"), rail("9"), placement=(0.6, 0.5))
        )
        assert moved.foul_codes == (FoulCode.KITCHEN,)

    def test_rot_17_placed_past_the_string_counts_as_crossed(self) -> None:
        ruling = self.state().rule(shot(hit(CUE, "4"), rail("4"), placement=(0.3, 0.7)))
        assert ruling.foul_codes == (FoulCode.BAD_PLACEMENT,)


class TestRot18FourFouls:
    """ROT-18 / GEN-15: warned on three, the fourth loses the rack."""

    def test_rot_18_warning_on_the_third(self) -> None:
        ruling = rot(TABLE_4, fouls=(2, 0)).rule(shot(hit(CUE, "6"), rail("6")))
        assert ruling.fouls == Tally(3, 0) and ruling.warning == {Player.A}

    def test_rot_18_fourth_loses_whatever_the_score(self) -> None:
        ruling = rot(TABLE_4, fouls=(3, 0), score=(58, 2)).rule(shot(hit(CUE, "6"), rail("6")))
        assert ruling.rack_over and ruling.winner is Player.B and ruling.score == Tally(58, 2)
        assert "ROT-18" in {r.rule for r in ruling.reasons}


def test_rot_19_stalemate_in_rotation() -> None:
    """ROT-19: GEN-16 applies: re-rack, same breaker (scores reset with the new rack)."""
    ruling = rot(TABLE_4, breaker=Player.B, score=(20, 30)).rule_stalemate()
    assert ruling.rerack and ruling.next_breaker is Player.B
    assert "ROT-19" in {r.rule for r in ruling.reasons}


class TestRot20RackStartAndEnd:
    """ROT-20: the rack starts when the break crosses the head string; it ends at 61,
    on the fourth foul, or on a tie."""

    def test_rot_20_the_break_puts_the_rack_in_play(self) -> None:
        ruling = racked().rule(shot(*break_facts(), placement=KITCHEN_SPOT))
        assert "ROT-20" in {r.rule for r in ruling.reasons}

    def test_rot_20_a_finished_rack_takes_no_more_shots(self) -> None:
        done = rot(TABLE_4, score=(60, 0)).push(shot(hit(CUE, "4"), pocket("4")))
        assert done.is_over and done.outcome() is not None
        with pytest.raises(IllegalAction, match="over"):
            done.push(shot(hit(CUE, "6")))

    def test_rot_20_match_racks_again_after_a_tie(self) -> None:
        def rack_up(number: int, breaker: Player) -> dict[str, Point]:
            return ROTATION_RACK if number == 1 else {"1": FOOT_SPOT, "15": (0.635, 2.0)}

        match = Match(game="rotation", race_to=1, rack_up=rack_up).start(Player.B)
        assert match.rack is not None
        last = rot({CUE: (0.75, 1.75), "15": (1.0, 2.2)}, score=(45, 60), breaker=Player.B)
        match = match.__class__(
            game="rotation", race_to=1, rack_up=rack_up, rack=last, rack_number=1
        )
        replay = match.push(shot(hit(CUE, "15"), pocket("15")))
        assert replay.rack_number == 2 and replay.racks_won == Tally(0, 0)
        assert replay.rack is not None and replay.rack.breaker is Player.A
        assert replay.rack.score == Tally(0, 0) and replay.rack.phase is Phase.BREAK
        assert math.dist(replay.rack.balls["1"], FOOT_SPOT) == 0
