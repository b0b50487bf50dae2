"""The general rules (GEN) both games share, exercised through 10-ball states unless a
rotation state says more."""

from __future__ import annotations

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
    Shot,
)
from rules.facts import Fact
from rules.terms import Tally
from tests.rules.builders import (
    OPEN_TABLE,
    TEN_BALL_RACK,
    break_facts,
    call,
    hit,
    off,
    pocket,
    rail,
    shot,
    ten,
)

MISS = shot(hit(CUE, "2"), rail("2"), call=call("2", "lc"))
MADE = shot(hit(CUE, "2"), pocket("2", "lc"), call=call("2", "lc"))
FOUL = shot(hit(CUE, "5"), rail("5"), call=call("2", "lc"))  # wrong ball first


def test_gen_1_a_miss_ends_the_inning_a_made_call_does_not() -> None:
    """GEN-1: the inning ends on the first shot that misses; a pocketed call continues."""
    state = ten(OPEN_TABLE)
    missed = state.rule(MISS)
    assert missed.next_shooter is Player.B
    assert any(r.rule == "GEN-1" for r in missed.reasons)
    made = state.rule(MADE)
    assert made.next_shooter is Player.A
    assert not any(r.rule == "GEN-1" for r in made.reasons)


def test_gen_1_only_events_of_the_shot_count() -> None:
    """GEN-1: adjudication reads the shot's events; the balls' resting places say who
    is left, not what was hit."""
    ruling = ten(OPEN_TABLE).rule(shot(call=call("2", "lc")))
    assert ruling.foul_codes == (FoulCode.NO_HIT, FoulCode.NO_RAIL)


class TestGen5CueBallInHand:
    """GEN-5: in hand anywhere on the bed, or in the kitchen; never on a ball."""

    def test_gen_5_anywhere_on_the_bed(self) -> None:
        state = ten({"2": (0.3, 1.5), "10": (1.0, 0.6)}, in_hand=BallInHand.ANYWHERE)
        ruling = state.rule(shot(hit(CUE, "2"), rail("2"), call=call("2"), placement=(1.2, 2.4)))
        assert not ruling.foul
        assert ruling.positions[CUE] == (1.2, 2.4)

    def test_gen_5_frozen_to_a_ball_is_allowed(self) -> None:
        state = ten({"2": (0.3, 1.5), "10": (1.0, 0.6)}, in_hand=BallInHand.ANYWHERE)
        frozen = (0.3 + 0.05715, 1.5)
        ruling = state.rule(shot(hit(CUE, "2"), rail("2"), placement=frozen, call=call("2")))
        assert ruling.foul is False

    @pytest.mark.parametrize(
        ("where", "problem"),
        [((0.31, 1.51), "overlap the 2"), ((0.01, 1.0), "not on the bed"), ((0.6, 2.53), "bed")],
    )
    def test_gen_5_overlap_or_off_the_bed_is_refused(
        self, where: tuple[float, float], problem: str
    ) -> None:
        state = ten({"2": (0.3, 1.5), "10": (1.0, 0.6)}, in_hand=BallInHand.ANYWHERE)
        with pytest.raises(IllegalAction, match=problem):
            state.rule(shot(hit(CUE, "2"), placement=where, call=call("2")))

    def test_gen_5_in_hand_needs_a_placement_and_otherwise_refuses_one(self) -> None:
        in_hand = ten({"2": (0.3, 1.5), "10": (1.0, 0.6)}, in_hand=BallInHand.ANYWHERE)
        with pytest.raises(IllegalAction, match="needs its placement"):
            in_hand.rule(shot(hit(CUE, "2"), call=call("2")))
        with pytest.raises(IllegalAction, match="not in hand"):
            ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), placement=(0.5, 0.5), call=call("2")))

    def test_gen_5_the_cue_ball_is_absent_while_in_hand(self) -> None:
        with pytest.raises(IllegalAction, match="in hand"):
            ten(OPEN_TABLE, in_hand=BallInHand.ANYWHERE)


class TestGen6BadPlacement:
    """GEN-6 / B-16: kitchen ball in hand struck from on or past the head string."""

    def test_gen_6_on_the_head_string_is_a_foul(self) -> None:
        state = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN)
        ruling = state.rule(shot(*break_facts(), placement=(0.4, 0.635)))
        assert ruling.foul_codes == (FoulCode.BAD_PLACEMENT,)
        assert ruling.ball_in_hand is BallInHand.ANYWHERE

    def test_gen_6_just_behind_the_string_is_legal(self) -> None:
        state = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN)
        assert not state.rule(shot(*break_facts(), placement=(0.4, 0.6349))).foul

    def test_gen_6_reject_policy_refuses_the_placement(self) -> None:
        options = Options(bad_placement_policy="reject")
        state = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN, options=options)
        with pytest.raises(IllegalAction, match="GEN-6"):
            state.rule(shot(*break_facts(), placement=(0.4, 0.7)))


def test_gen_7_call_of_a_ball_not_on_the_table_is_refused() -> None:
    """GEN-7: a call names one object ball on the table."""
    with pytest.raises(IllegalAction, match="the called 3 is not on the table"):
        ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), call=call("3")))


def test_gen_7_call_and_safety_together_the_safety_stands() -> None:
    """GEN-7: a shot carries a call or a safety; given both, the safety is what the player
    declared (TB-13) and the call is ignored, never refused."""
    ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), rail("2"), call=call("2"), declare="safety"))
    assert not ruling.foul and ruling.next_shooter is Player.B
    ignored = "GEN-7: a safety was declared: the call of the 2 in the foot-right corner is ignored"
    assert ignored in [str(r) for r in ruling.reasons]
    ghost = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), rail("2"), call=call("3"), declare="safety"))
    assert not ghost.foul  # the ignored call may even name a ball no longer on the table


def test_gen_8_a_legal_shot_clears_the_shooters_count_only() -> None:
    """GEN-8 / GEN-15: a legal shot by A clears A's count; B's stays."""
    ruling = ten(OPEN_TABLE, fouls=(1, 1)).rule(MISS)
    assert ruling.fouls == Tally(0, 1)
    assert any(r.rule == "GEN-8" for r in ruling.reasons)


@pytest.mark.parametrize(
    ("fact", "code"), [(pocket(CUE, "lb"), FoulCode.SCRATCH), (off(CUE), FoulCode.CUE_OFF_TABLE)]
)
def test_gen_9_cue_ball_pocketed_or_off_the_table(fact: Fact, code: FoulCode) -> None:
    """GEN-9: scratch and cue ball off the table are fouls."""
    ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), rail("2"), fact, call=call("2")))
    assert code in ruling.foul_codes
    assert CUE not in ruling.positions
    assert ruling.ball_in_hand is BallInHand.ANYWHERE


class TestGen10FirstContact:
    """GEN-10 / B-15: the cue ball's first object ball must be LB."""

    def test_gen_10_no_hit(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(rail(CUE), rail(CUE), call=call("2")))
        assert ruling.foul_codes[0] is FoulCode.NO_HIT
        assert "hit no ball" in ruling.explain()

    def test_gen_10_no_hit_also_fails_gen_11(self) -> None:
        """GEN-10: a no-hit "is filed under 6.2 and also fails 6.3": both codes, one foul
        (GEN-14). On the break it is listed beside the failed break requirement (TB-6)."""
        ruling = ten(OPEN_TABLE, fouls=(1, 0)).rule(shot(rail(CUE), rail(CUE), call=call("2")))
        assert ruling.foul_codes == (FoulCode.NO_HIT, FoulCode.NO_RAIL)
        assert ruling.fouls == Tally(2, 0)
        broke = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN)
        codes = broke.rule(shot(rail(CUE), placement=(0.4, 0.3))).foul_codes
        assert set(codes) == {FoulCode.NO_HIT, FoulCode.ILLEGAL_BREAK, FoulCode.NO_RAIL}

    def test_gen_11_on_the_break_only_beside_a_failed_requirement(self) -> None:
        """TB-6 / ROT-5 decide a break's legality: with the requirement lowered to no
        cushion at all (B-3), a break that drives nothing to a cushion is legal."""
        contact = shot(hit(CUE, "1"), placement=(0.4, 0.3))
        broke = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN)
        assert set(broke.rule(contact).foul_codes) == {FoulCode.ILLEGAL_BREAK, FoulCode.NO_RAIL}
        lenient = ten(
            TEN_BALL_RACK,
            phase=Phase.BREAK,
            in_hand=BallInHand.KITCHEN,
            options=Options(break_required_rail_balls=0),
        )
        assert lenient.rule(contact).foul_codes == ()

    def test_gen_10_wrong_ball_reason_names_both_balls(self) -> None:
        ruling = ten(OPEN_TABLE).rule(FOUL)
        assert FoulCode.WRONG_BALL in ruling.foul_codes
        assert "Foul, GEN-10: the cue ball hit the 5 first; the lowest ball was the 2" in [
            str(r) for r in ruling.reasons
        ]

    def test_gen_10_cushions_before_the_first_contact_are_irrelevant(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(rail(CUE), hit(CUE, "2"), rail("2"), call=call("2")))
        assert not ruling.foul

    def test_gen_10_simultaneous_contact_favours_the_shooter(self) -> None:
        facts = (hit(CUE, "5", t=0.5), hit(CUE, "2", t=0.50005), rail("2"))
        assert not ten(OPEN_TABLE).rule(shot(*facts, call=call("2"))).foul
        strict = ten(OPEN_TABLE, options=Options(simultaneous_first_contact="foul"))
        assert FoulCode.WRONG_BALL in strict.rule(shot(*facts, call=call("2"))).foul_codes

    def test_gen_10_contacts_further_apart_are_not_simultaneous(self) -> None:
        facts = (hit(CUE, "5", t=0.5), hit(CUE, "2", t=0.6), rail("2"))
        assert FoulCode.WRONG_BALL in ten(OPEN_TABLE).rule(shot(*facts, call=call("2"))).foul_codes

    def test_gen_10_cue_ball_frozen_to_lb_that_moves_it_contacts_it(self) -> None:
        balls = {**OPEN_TABLE, CUE: (0.3, 1.5 - 0.05715)}
        after = {**balls, CUE: (0.3, 1.46), "2": (0.3, 1.8)}
        ruling = ten(balls).rule(shot(rail("2"), call=call("2"), resting=after))
        assert not ruling.foul

    def test_gen_10_frozen_contact_comes_before_any_later_hit(self) -> None:
        """GEN-10 / WPA 6.7: the cue ball frozen to LB meets it at the stroke, so a ball
        the cue ball hits afterwards is not the first contact. LB's own events show that
        it moved, even with no resting positions."""
        balls = {**OPEN_TABLE, CUE: (0.3, 1.5 - 0.05715)}
        through = shot(rail("2", "left"), hit(CUE, "5"), call=call("2"))
        assert not ten(balls).rule(through).foul
        # Shot away from the 2: the 5 is met first and the 5 moves the 2.
        away = shot(hit(CUE, "5"), hit("5", "2"), rail("2", "left"), call=call("2"))
        assert FoulCode.WRONG_BALL in ten(balls).rule(away).foul_codes
        # Shot away, back off a cushion into the 2 after the 5: the 5 was first.
        back = shot(hit(CUE, "5"), rail(CUE), hit(CUE, "2"), rail("2"), call=call("2"))
        assert FoulCode.WRONG_BALL in ten(balls).rule(back).foul_codes


class TestGen11NoRail:
    """GEN-11 / B-4: after the first contact, a ball pocketed or a ball to a cushion."""

    def test_gen_11_nothing_to_a_rail(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), call=call("2")))
        assert ruling.foul_codes == (FoulCode.NO_RAIL,)

    def test_gen_11_a_cushion_before_contact_does_not_count(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(rail(CUE), hit(CUE, "2"), call=call("2")))
        assert ruling.foul_codes == (FoulCode.NO_RAIL,)

    def test_gen_11_the_cue_ball_reaching_a_cushion_counts(self) -> None:
        assert not ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), rail(CUE), call=call("2"))).foul

    def test_gen_11_a_ball_off_the_table_is_not_pocketed(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), off("2"), call=call("2")))
        assert set(ruling.foul_codes) == {FoulCode.NO_RAIL, FoulCode.BALL_OFF_TABLE}

    def test_gen_11_frozen_ball_pushed_into_its_cushion_gets_no_credit(self) -> None:
        balls = {**OPEN_TABLE, "2": (1.27 - 0.028575, 1.5), CUE: (1.0, 1.4)}
        pushed = shot(hit(CUE, "2"), rail("2", "right"), call=call("2"))
        assert ten(balls).rule(pushed).foul_codes == (FoulCode.NO_RAIL,)
        returned = shot(hit(CUE, "2"), rail("2", "right"), rail("2", "right"), call=call("2"))
        assert not ten(balls).rule(returned).foul
        other = shot(hit(CUE, "2"), rail("2", "right"), rail("2", "foot"), call=call("2"))
        assert not ten(balls).rule(other).foul
        credit_all = Options(frozen_ball_rail_credit="any_contact_event")
        assert not ten(balls, options=credit_all).rule(pushed).foul

    def test_gen_11_jaws_count_unless_the_option_says_no(self) -> None:
        jaw = shot(hit(CUE, "2"), rail("2", "foot", jaw=True), call=call("2"))
        assert not ten(OPEN_TABLE).rule(jaw).foul
        strict = ten(OPEN_TABLE, options=Options(rail_includes_jaws=False))
        assert strict.rule(jaw).foul_codes == (FoulCode.NO_RAIL,)


def test_gen_12_object_ball_off_the_table_is_a_foul() -> None:
    """GEN-12: an object ball leaving the table fouls; in 10-ball it stays off (TB-16)."""
    ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), rail("2"), off("7"), call=call("2")))
    assert ruling.foul_codes == (FoulCode.BALL_OFF_TABLE,)
    assert "7" not in ruling.positions
    assert "7" in ruling.pocketed


def test_gen_13_referee_fouls_are_standard_fouls() -> None:
    """GEN-13: fouls physics cannot see come from the referee and are standard fouls."""
    ruling = ten(OPEN_TABLE).rule(
        shot(
            hit(CUE, "2"),
            pocket("2", "lc"),
            call=call("2", "lc"),
            referee_fouls={FoulCode.DOUBLE_HIT},
        )
    )
    assert ruling.foul_codes == (FoulCode.DOUBLE_HIT,)
    assert ruling.next_shooter is Player.B
    assert ruling.ball_in_hand is BallInHand.ANYWHERE
    assert "2" not in ruling.positions  # stays down on a foul


def test_gen_13_a_referee_cannot_report_what_physics_sees() -> None:
    """GEN-13: only the unobservable fouls may be injected."""
    with pytest.raises(ValueError, match="physics reports"):
        Shot(referee_fouls={FoulCode.SCRATCH})


def test_gen_14_several_fouls_one_penalty() -> None:
    """GEN-14: all codes listed, the count goes up by one."""
    ruling = ten(OPEN_TABLE, fouls=(1, 0)).rule(
        shot(hit(CUE, "5"), pocket(CUE, "lt"), off("7"), call=call("2"))
    )
    assert set(ruling.foul_codes) == {
        FoulCode.WRONG_BALL,
        FoulCode.NO_RAIL,
        FoulCode.SCRATCH,
        FoulCode.BALL_OFF_TABLE,
    }
    assert ruling.fouls == Tally(2, 0)


class TestGen15ConsecutiveFouls:
    """GEN-15 / B-23: counts, the warning, the serious foul."""

    def test_gen_15_warning_is_reported_after_the_second_foul(self) -> None:
        ruling = ten(OPEN_TABLE, fouls=(1, 0)).rule(FOUL)
        assert ruling.fouls == Tally(2, 0)
        assert ruling.warning == {Player.A}
        assert "A is warned" in ruling.explain()

    def test_gen_15_the_warning_stands_whoever_shoots_next(self) -> None:
        warned = ten(OPEN_TABLE, fouls=(1, 0)).push(FOUL)
        assert warned.warned == {Player.A}
        ruling = warned.rule(shot(hit(CUE, "2"), rail("2"), call=call("2"), placement=(0.9, 1.2)))
        assert ruling.warning == {Player.A}

    def test_gen_15_an_unwarned_third_foul_counts_as_the_second(self) -> None:
        unwarned = ten(OPEN_TABLE, fouls=(2, 0), warned=frozenset())
        ruling = unwarned.rule(FOUL)
        assert not ruling.rack_over
        assert ruling.fouls == Tally(2, 0)
        assert ruling.warning == {Player.A}
        lax = ten(
            OPEN_TABLE, fouls=(2, 0), warned=frozenset(), options=Options(require_warning=False)
        )
        assert lax.rule(FOUL).winner is Player.B

    def test_gen_15_the_opponents_shots_never_change_a_count(self) -> None:
        state = ten(OPEN_TABLE, shooter=Player.B, fouls=(2, 0))
        assert state.rule(FOUL).fouls == Tally(2, 1)
        assert state.rule(MISS).fouls == Tally(2, 0)

    def test_gen_15_the_warning_is_not_reported_when_the_rack_ends(self) -> None:
        ruling = ten(OPEN_TABLE, fouls=(2, 0)).rule(FOUL)
        assert ruling.rack_over and ruling.warning == frozenset()


class TestGen16Stalemate:
    """GEN-16 / B-17: re-rack; the breaker of the rack breaks again."""

    def test_gen_16_manual_stalemate(self) -> None:
        state = ten(OPEN_TABLE, shooter=Player.A, breaker=Player.B)
        done = state.declare_stalemate()
        result = done.outcome()
        assert result is not None and result.rerack and result.winner is None
        assert result.next_breaker is Player.B
        with pytest.raises(IllegalAction, match="over"):
            done.rule(MISS)

    def test_gen_16_agreement_only(self) -> None:
        state = ten(OPEN_TABLE, options=Options(stalemate_mode="agreement_only"))
        with pytest.raises(IllegalAction, match="agreement"):
            state.rule_stalemate()
        assert state.rule_stalemate(agreed=True).rerack

    def test_gen_16_auto_no_progress(self) -> None:
        state = ten(
            OPEN_TABLE, breaker=Player.A, options=Options(stalemate_mode="auto_no_progress(1)")
        )
        first = state.push(MISS)
        assert first.outcome() is None
        ruling = first.rule(shot(hit(CUE, "2"), rail("2"), call=call("2")))
        assert ruling.rerack and ruling.next_breaker is Player.A
        assert "GEN-16" in {r.rule for r in ruling.reasons}

    def test_gen_16_progress_resets_the_count(self) -> None:
        state = ten(OPEN_TABLE, options=Options(stalemate_mode="auto_no_progress(1)"))
        after = state.push(MISS).push(shot(hit(CUE, "2"), pocket("2", "lc"), call=call("2", "rt")))
        assert after.outcome() is None and after.quiet_innings == 0


class TestGen17ShotClock:
    """GEN-17 / B-18: a shot struck after the clock ran out is a standard foul."""

    clock = Options(shot_clock_s=35, shot_clock_extension_s=25, shot_clock_extensions_per_rack=1)

    def test_gen_17_off_by_default(self) -> None:
        assert (
            not ten(OPEN_TABLE)
            .rule(shot(hit(CUE, "2"), rail("2"), call=call("2"), clock_s=99))
            .foul
        )

    def test_gen_17_late_stroke_is_a_foul(self) -> None:
        ruling = ten(OPEN_TABLE, options=self.clock).rule(
            shot(hit(CUE, "2"), pocket("2", "lc"), call=call("2", "lc"), clock_s=36)
        )
        assert ruling.foul_codes == (FoulCode.SHOT_CLOCK,)
        assert ruling.ball_in_hand is BallInHand.ANYWHERE

    def test_gen_17_struck_as_the_clock_runs_out_is_a_foul(self) -> None:
        """GEN-17: a shot not struck *before* the clock expires; a call at the moment of
        the stroke stands (S000 10-h)."""
        state = ten(OPEN_TABLE, options=self.clock)
        on_time = shot(hit(CUE, "2"), rail("2"), call=call("2"), clock_s=34.99)
        assert not state.rule(on_time).foul
        at_zero = shot(hit(CUE, "2"), rail("2"), call=call("2"), clock_s=35)
        assert state.rule(at_zero).foul_codes == (FoulCode.SHOT_CLOCK,)

    def test_gen_17_an_extension_buys_time_once_a_rack(self) -> None:
        state = ten(OPEN_TABLE, options=self.clock)
        extended = shot(hit(CUE, "2"), rail("2"), call=call("2"), clock_s=50, extension=True)
        ruling = state.rule(extended)
        assert not ruling.foul and ruling.extensions_used == Tally(1, 0)
        used = ten(OPEN_TABLE, options=self.clock, extensions_used=Tally(1, 0))
        with pytest.raises(IllegalAction, match="no extension left"):
            used.rule(extended)

    def test_gen_17_clock_off_at_hill_hill(self) -> None:
        state = ten(OPEN_TABLE, options=self.clock, hill_hill=True)
        assert not state.rule(shot(hit(CUE, "2"), rail("2"), call=call("2"), clock_s=99)).foul

    def test_gen_17_a_referee_may_call_time(self) -> None:
        ruling = ten(OPEN_TABLE).rule(
            shot(hit(CUE, "2"), rail("2"), call=call("2"), referee_fouls={FoulCode.SHOT_CLOCK})
        )
        assert ruling.foul_codes == (FoulCode.SHOT_CLOCK,)


def test_gen_choice_turn_refuses_a_shot_until_the_choice_is_made() -> None:
    """TB-20 / GEN-1: a decision turn comes before the next shot."""
    state = ten(OPEN_TABLE).push(shot(hit(CUE, "2"), pocket("5", "rt"), call=call("2", "lc")))
    assert state.legal_choices == {Choice.SHOOT, Choice.PASS}
    with pytest.raises(IllegalAction, match="must first choose"):
        state.rule(MISS)
