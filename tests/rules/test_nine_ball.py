"""WPA 9-ball (NB-1..18) and its options (B-26..B-30, B-43)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import (
    CUE,
    BallInHand,
    Choice,
    Declaration,
    FoulCode,
    IllegalAction,
    NineBall,
    Options,
    Phase,
    Player,
    Positions,
    Ruling,
    Shot,
)
from rules.facts import Fact
from rules.nine_ball import rack_pattern
from tests.rules.builders import (
    FOOT_SPOT,
    KITCHEN_SPOT,
    NINE_BALL_RACK,
    D,
    break_facts,
    call,
    hit,
    nine,
    off,
    pocket,
    rail,
    shot,
)

# A mid-rack table: LB the 2, the 9 far from the foot spot.
TABLE: dict[str, tuple[float, float]] = {
    CUE: (0.635, 1.0),
    "2": (0.3, 1.5),
    "5": (1.0, 1.8),
    "7": (0.3, 2.2),
    "9": (1.0, 0.6),
}


def racked(**kw: object) -> NineBall:
    return NineBall.new_rack(NINE_BALL_RACK, **kw)  # type: ignore[arg-type]


def breaks(*facts: Fact, **kw: Any) -> Shot:
    """The break from the kitchen, with ``facts`` after the usual four rails."""
    return shot(*break_facts(), *facts, placement=KITCHEN_SPOT, **kw)


def rules_of(ruling: Ruling) -> set[str]:
    return {reason.rule for reason in ruling.reasons}


def test_nb_1_balls_one_to_nine_lowest_first_no_order_of_pocketing() -> None:
    """NB-1: balls 1-9 only; the first ball met must be LB, but any ball may drop."""
    with pytest.raises(IllegalAction, match="not a ball of nine-ball"):
        nine({**TABLE, "10": (0.2, 0.2)})
    wrong = nine(TABLE).rule(shot(hit(CUE, "5"), pocket("5")))
    assert wrong.foul_codes == (FoulCode.WRONG_BALL,)
    legal = nine(TABLE).rule(shot(hit(CUE, "2"), hit("2", "7"), pocket("7")))
    assert not legal.foul and legal.next_shooter is Player.A and legal.pocketed == ("7",)


def test_nb_2_the_rack_breaker_breaks_and_breaks_alternate() -> None:
    """NB-2: the rack's breaker shoots first; the winner's next rack follows B-11."""
    state = racked(breaker=Player.B)
    assert state.shooter is Player.B and state.phase is Phase.BREAK
    won = nine({CUE: (0.9, 1.8), "9": (1.05, 2.25)}, breaker=Player.B)
    assert won.rule(shot(hit(CUE, "9"), pocket("9"))).next_breaker is Player.A
    loser = nine({CUE: (0.9, 1.8), "9": (1.05, 2.25)}, options=Options(break_format="loser_breaks"))
    assert loser.rule(shot(hit(CUE, "9"), pocket("9"))).next_breaker is Player.B


class TestNb3Rack:
    """NB-3, B-26: the diamond 1-2-3-2-1, the 1 on the foot spot, the 9 in the centre."""

    def test_nb_3_pattern(self) -> None:
        pattern = NineBall.rack_pattern(Options())
        assert [len(row) for row in pattern.rows] == [1, 2, 3, 2, 1]
        assert pattern.rows[0] == ("1",) and pattern.rows[2] == (None, "9", None)
        assert pattern.foot_spot_row == 0
        assert sum(slot is None for slot in pattern.slots) == 7

    def test_b_26_nine_on_the_foot_spot(self) -> None:
        moved = NineBall.rack_pattern(Options(nine_rack_position="nine_on_foot_spot"))
        assert moved.rows == rack_pattern().rows and moved.foot_spot_row == 2
        with pytest.raises(ValueError, match="nine_rack_position"):
            rack_pattern("diamond")  # type: ignore[arg-type]

    def test_nb_3_the_nominal_rack_breaks(self) -> None:
        state = racked()
        assert state.balls["1"] == FOOT_SPOT and len(state.balls) == 9
        assert not state.rule(breaks()).foul


def test_nb_4_break_from_the_kitchen_declarations_ignored() -> None:
    """NB-4: in hand in the kitchen; a call or a push out on the break is ignored."""
    state = racked()
    assert state.ball_in_hand is BallInHand.KITCHEN
    assert state.legal_declarations == frozenset() and not state.calls_allowed
    ruling = state.rule(breaks(pocket("4", "rb"), declare="push-out", call=call("4", "rb")))
    assert not ruling.foul and ruling.phase is Phase.AFTER_BREAK and not ruling.choices
    assert "NB-4" in rules_of(ruling)


def test_nb_5_break_must_meet_the_one_first() -> None:
    """NB-5, B-2: the break meets the 1 first, unless the option lifts it."""
    state = racked()
    facts = (hit(CUE, "5"), rail("2"), rail("3"), rail("4"), rail("6"))
    ruling = state.rule(shot(*facts, placement=KITCHEN_SPOT))
    assert ruling.foul_codes == (FoulCode.WRONG_BALL,) and "NB-5" in rules_of(ruling)
    lax = racked(options=Options(break_must_hit_lowest_first=False))
    assert not lax.rule(shot(*facts, placement=KITCHEN_SPOT)).foul


def test_nb_6_break_requirement_four_balls_or_a_pocket() -> None:
    """NB-6, B-3: nothing down and three balls to a cushion is an illegal break."""
    three = shot(*break_facts(rails=("2", "3", "4")), placement=KITCHEN_SPOT)
    ruling = racked().rule(three)
    assert FoulCode.ILLEGAL_BREAK in ruling.foul_codes and "NB-6" in rules_of(ruling)
    assert ruling.ball_in_hand is BallInHand.ANYWHERE
    pocketed = shot(*break_facts(rails=()), pocket("6", "lt"), placement=KITCHEN_SPOT)
    assert not racked().rule(pocketed).foul


class TestNb7BreakResult:
    """NB-7 (a), (b), (c); B-27 ``nine_on_break``."""

    def test_nb_7_a_the_nine_on_a_legal_break_wins(self) -> None:
        ruling = racked().rule(breaks(pocket("9", "lt"), pocket("4", "rb")))
        assert ruling.rack_over and ruling.winner is Player.A and ruling.next_breaker is Player.B

    def test_nb_7_a_a_ball_down_continues_with_a_push_out_next(self) -> None:
        ruling = racked().rule(breaks(pocket("4", "rb")))
        assert ruling.next_shooter is Player.A and ruling.phase is Phase.AFTER_BREAK

    def test_nb_7_b_dry_break_opponent_may_push_out(self) -> None:
        after = racked().push(breaks())
        assert after.shooter is Player.B and after.ball_in_hand is None
        assert after.legal_declarations == {Declaration.PUSH_OUT}

    def test_nb_7_c_a_break_foul_spots_the_nine_and_gives_ball_in_hand(self) -> None:
        ruling = racked().rule(breaks(pocket("9", "rt"), pocket(CUE, "lb")))
        assert ruling.foul and not ruling.rack_over and ruling.phase is Phase.PLAY
        assert ruling.ball_in_hand is BallInHand.ANYWHERE
        # The rack still covers the foot spot: the 9 goes to the first free point behind it.
        x, y = ruling.spotted["9"]
        assert x == FOOT_SPOT[0] and y > FOOT_SPOT[1] and ruling.positions["9"] == (x, y)

    def test_b_27_spot_continue(self) -> None:
        state = racked(options=Options(nine_on_break="spot_continue"))
        ruling = state.rule(breaks(pocket("9", "lt")))
        assert not ruling.rack_over and ruling.next_shooter is Player.A
        assert "9" in ruling.spotted and ruling.phase is Phase.AFTER_BREAK

    def test_b_43_push_out_after_a_break_foul(self) -> None:
        state = racked(options=Options(nine_push_out_after_break_foul=True))
        after = state.push(breaks(pocket(CUE, "lb")))
        assert after.phase is Phase.AFTER_BREAK and after.ball_in_hand is BallInHand.ANYWHERE
        assert Declaration.PUSH_OUT in after.legal_declarations


class TestNb8PushOut:
    """NB-8: only on the shot after the break; GEN-10 and GEN-11 suspended."""

    def test_nb_8_suspends_wrong_ball_no_hit_and_no_rail(self) -> None:
        state = nine(TABLE, phase=Phase.AFTER_BREAK)
        for facts in [(), (hit(CUE, "5"),)]:
            assert not state.rule(shot(*facts, declare="push-out")).foul

    def test_nb_8_other_fouls_apply(self) -> None:
        state = nine(TABLE, phase=Phase.AFTER_BREAK)
        ruling = state.rule(shot(pocket(CUE, "rc"), declare="push-out"))
        assert ruling.foul_codes == (FoulCode.SCRATCH,) and not ruling.choices

    def test_nb_8_refused_at_any_other_time(self) -> None:
        state = nine(TABLE)
        assert state.legal_declarations == frozenset()
        with pytest.raises(IllegalAction, match="NB-8"):
            state.rule(shot(hit(CUE, "2"), rail("2"), declare="push-out"))

    def test_nb_8_an_undeclared_shot_after_the_break_is_normal(self) -> None:
        ruling = nine(TABLE, phase=Phase.AFTER_BREAK).rule(shot(hit(CUE, "5"), rail("5")))
        assert ruling.foul_codes == (FoulCode.WRONG_BALL,) and ruling.phase is Phase.PLAY


class TestNb9PushOutResult:
    """NB-9, B-5, B-6: shoot or pass; balls stay down but the 9; never a win."""

    def test_nb_9_shoot_or_pass(self) -> None:
        pushed = nine(TABLE, phase=Phase.AFTER_BREAK).push(shot(declare="push-out"))
        assert pushed.shooter is Player.B and pushed.legal_choices == {Choice.SHOOT, Choice.PASS}
        assert pushed.choose(Choice.PASS).shooter is Player.A

    def test_nb_9_the_nine_is_spotted_with_the_cue_ball_in_play(self) -> None:
        """GEN-4(c): the cue ball stays on the foot spot, the 9 stops 0.5 mm behind it."""
        state = nine(TABLE, phase=Phase.AFTER_BREAK)
        resting = {**{b: p for b, p in TABLE.items() if b != "9"}, CUE: FOOT_SPOT}
        ruling = state.rule(shot(hit(CUE, "9"), pocket("9"), declare="push-out", resting=resting))
        assert not ruling.rack_over and ruling.choices == {Choice.SHOOT, Choice.PASS}
        x, y = ruling.spotted["9"]
        assert (x, y) == pytest.approx((FOOT_SPOT[0], FOOT_SPOT[1] + D + 5e-4), abs=1e-9)

    def test_nb_9_other_balls_stay_down_unless_respot_all(self) -> None:
        state = nine(TABLE, phase=Phase.AFTER_BREAK)
        push = shot(hit(CUE, "5"), pocket("5"), pocket("7"), declare="push-out")
        assert state.rule(push).pocketed == ("5", "7")
        again = nine(
            TABLE, phase=Phase.AFTER_BREAK, options=Options(push_out_pocketed_balls="respot_all")
        ).rule(push)
        assert set(again.spotted) == {"5", "7"} and again.spotted["5"] == FOOT_SPOT

    def test_b_5_a_legal_push_out_clears_a_foul_count(self) -> None:
        state = nine(
            TABLE,
            phase=Phase.AFTER_BREAK,
            fouls=(1, 0),
            options=Options(foul_count_scope="match"),
        )
        assert state.rule(shot(declare="push-out")).fouls.a == 0


def test_nb_10_any_ball_continues_the_nine_wins_whenever_it_drops() -> None:
    """NB-10: a combination on the 9 wins with balls left; a miss ends the inning."""
    combo = nine(TABLE).rule(shot(hit(CUE, "2"), hit("2", "9"), pocket("9", "lc")))
    assert combo.rack_over and combo.winner is Player.A and "NB-10" in rules_of(combo)
    miss = nine(TABLE).rule(shot(hit(CUE, "2"), rail("2")))
    assert miss.next_shooter is Player.B and not miss.choices and miss.ball_in_hand is None


def test_nb_11_only_the_nine_is_ever_spotted() -> None:
    """NB-11, B-29: on a foul the 9 comes back and the others stay off; ``spot_all``
    spots every ball off the table, lowest nearest the foot spot."""
    facts = (hit(CUE, "2"), rail("2"), off("9"), off("7"), off("5"))
    ruling = nine(TABLE).rule(shot(*facts))
    assert ruling.spotted == {"9": FOOT_SPOT} and ruling.pocketed == ("7", "5")
    every = nine(TABLE, options=Options(ob_off_table="spot_all")).rule(shot(*facts))
    assert every.spotted == {
        "5": FOOT_SPOT,
        "7": (FOOT_SPOT[0], FOOT_SPOT[1] + D),
        "9": (FOOT_SPOT[0], FOOT_SPOT[1] + 2 * D),
    }


def test_nb_12_standard_foul_ball_in_hand_anywhere_no_option() -> None:
    """NB-12: the opponent has the cue ball in hand anywhere, no shoot/pass."""
    ruling = nine(TABLE).rule(shot(hit(CUE, "2"), pocket("2"), pocket(CUE, "lb")))
    assert ruling.ball_in_hand is BallInHand.ANYWHERE and ruling.choices == frozenset()
    assert CUE not in ruling.positions and ruling.pocketed == ("2",)


def test_nb_13_legal_shot_clears_the_count() -> None:
    """NB-13: LB first and a cushion (or a ball down), no scratch: a legal shot."""
    ruling = nine(TABLE, fouls=(2, 0)).rule(shot(hit(CUE, "2"), rail("2")))
    assert not ruling.foul and ruling.fouls.a == 0 and ruling.warning == frozenset()
    no_rail = nine(TABLE).rule(shot(hit(CUE, "2")))
    assert no_rail.foul_codes == (FoulCode.NO_RAIL,)


class TestNb14ThreeFouls:
    """NB-14, GEN-15, B-28."""

    def test_nb_14_warned_third_foul_loses(self) -> None:
        second = nine(TABLE, fouls=(1, 0)).rule(shot(hit(CUE, "2")))
        assert second.warning == {Player.A} and not second.rack_over
        third = nine(TABLE, fouls=(2, 0), breaker=Player.A).rule(shot(hit(CUE, "2")))
        assert third.rack_over and third.winner is Player.B and "NB-14" in rules_of(third)
        assert third.next_breaker is Player.B

    def test_b_28_three_foul_rule_off(self) -> None:
        off_rule = Options(three_foul_rule="off")
        state = nine(TABLE, fouls=(2, 0), options=off_rule)
        assert state.warned == frozenset()
        ruling = state.rule(shot(hit(CUE, "2")))
        assert not ruling.rack_over and ruling.fouls.a == 3 and ruling.warning == frozenset()
        assert ruling.ball_in_hand is BallInHand.ANYWHERE and "B-28" in rules_of(ruling)


def test_nb_15_stalemate_rerack_same_breaker() -> None:
    """NB-15: a stalemated rack is racked again and its breaker breaks again."""
    ruling = nine(TABLE, shooter=Player.B, breaker=Player.A).rule_stalemate()
    assert ruling.rerack and ruling.winner is None and ruling.next_breaker is Player.A
    assert "NB-15" in rules_of(ruling)


def test_nb_16_shot_clock_is_a_standard_foul() -> None:
    """NB-16, GEN-17: a late stroke is a standard foul; the clock is off by default."""
    late = shot(hit(CUE, "2"), rail("2"), clock_s=40.0)
    assert not nine(TABLE).rule(late).foul
    ruling = nine(TABLE, options=Options(shot_clock_s=35.0)).rule(late)
    assert ruling.foul_codes == (FoulCode.SHOT_CLOCK,)
    assert ruling.ball_in_hand is BallInHand.ANYWHERE


def test_nb_17_calls_and_safeties_change_nothing() -> None:
    """NB-17: a call in the wrong pocket or a safety that pockets a ball: the shooter
    continues, no option; nothing is offered to declare but the push out."""
    state = nine(TABLE)
    assert not state.calls_allowed and not state.call_required
    for stroke in [
        shot(hit(CUE, "2"), pocket("2", "lt"), call=call("2", "rb")),
        shot(hit(CUE, "2"), pocket("2", "lt"), declare="safety"),
    ]:
        ruling = state.rule(stroke)
        assert ruling.next_shooter is Player.A and not ruling.choices and not ruling.foul
        assert "NB-17" in rules_of(ruling)


def test_nb_18_the_rack_ends_only_on_a_legal_nine_or_three_fouls() -> None:
    """NB-18, B-30: the 9 pocketed on a foul, even as the last ball, does not end it."""
    last = nine({CUE: (0.9, 1.8), "9": (1.05, 2.25)})
    ruling = last.rule(shot(hit(CUE, "9"), pocket("9"), pocket(CUE, "rt")))
    assert not ruling.rack_over and ruling.spotted == {"9": FOOT_SPOT}
    assert ruling.positions == Positions({"9": FOOT_SPOT})
    assert "NB-11" in rules_of(ruling)
