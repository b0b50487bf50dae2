"""WPA 10-ball (TB-1..20)."""

from __future__ import annotations

from typing import ClassVar

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
    TenBall,
)
from rules.facts import Fact
from rules.terms import Tally
from tests.rules.builders import (
    FOOT_SPOT,
    KITCHEN_SPOT,
    OPEN_TABLE,
    TEN_BALL_RACK,
    break_facts,
    call,
    cross,
    hit,
    off,
    pocket,
    rail,
    shot,
    ten,
)


def racked(**kw: object) -> TenBall:
    return TenBall.new_rack(TEN_BALL_RACK, **kw)  # type: ignore[arg-type]


def after_break(balls: dict[str, tuple[float, float]] = OPEN_TABLE, **kw: object) -> TenBall:
    return ten(balls, phase=Phase.AFTER_BREAK, **kw)


def test_tb_1_balls_one_to_ten_only() -> None:
    """TB-1: the game is played with balls 1-10."""
    with pytest.raises(IllegalAction, match="not a ball of ten-ball"):
        ten({**OPEN_TABLE, "11": (0.2, 0.2)})


def test_tb_1_lowest_first_on_every_shot() -> None:
    """TB-1: the first ball contacted must be LB, and the 10 legally made wins."""
    ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "10"), pocket("10"), call=call("10")))
    assert FoulCode.WRONG_BALL in ruling.foul_codes and not ruling.rack_over


def test_tb_2_first_rack_breaker_from_new_rack() -> None:
    """TB-2: the rack's breaker shoots the break (the match decides who, GEN-3)."""
    state = racked(breaker=Player.B)
    assert state.shooter is Player.B and state.breaker is Player.B
    assert state.phase is Phase.BREAK and state.ball_in_hand is BallInHand.KITCHEN


def test_tb_3_the_nominal_frozen_rack_is_accepted() -> None:
    """TB-3: a frozen triangle (rounded to the micrometre) is a valid table: the break
    from it is judged, and a cue ball placed frozen behind it is not an overlap."""
    state = racked()
    assert state.balls.lowest == "1" and state.balls["1"] == FOOT_SPOT
    assert len(state.balls) == 10
    ruling = state.rule(shot(*break_facts(), placement=KITCHEN_SPOT))
    assert not ruling.foul


def test_tb_4_break_is_from_the_kitchen_and_calls_are_ignored() -> None:
    """TB-4: in hand in the kitchen; no ball is called on the break."""
    ruling = racked().rule(
        shot(*break_facts(), pocket("10", "lt"), placement=KITCHEN_SPOT, call=call("7"))
    )
    assert not ruling.foul
    assert "TB-4" in {r.rule for r in ruling.reasons}
    assert set(ruling.spotted) == {"10"}  # behind the balls still racked (no resting given)


def test_tb_4_a_push_out_declared_on_the_break_is_ignored() -> None:
    """TB-4: any declaration on the break is ignored, a push out too: the break is judged
    as a break (the 1 first, TB-5), not refused and not a push out (TB-8)."""
    facts = (cross(), hit(CUE, "7"), rail("2"), rail("3"), rail("4"), rail("5"))
    ruling = racked().rule(shot(*facts, placement=KITCHEN_SPOT, declare="push-out"))
    assert ruling.foul_codes == (FoulCode.WRONG_BALL,)
    assert ruling.ball_in_hand is BallInHand.ANYWHERE and not ruling.choices
    assert "TB-4" in {r.rule for r in ruling.reasons}
    assert "TB-8" not in {r.rule for r in ruling.reasons}
    legal = racked().rule(shot(*break_facts(), placement=KITCHEN_SPOT, declare="push-out"))
    assert not legal.foul and legal.phase is Phase.AFTER_BREAK and not legal.choices
    ghost = racked().rule(shot(*break_facts(), placement=KITCHEN_SPOT, call=call("7")))
    assert not ghost.foul  # a call on the break is ignored, whatever it names


def test_tb_5_break_must_hit_the_one_first() -> None:
    """TB-5 / B-2: the 1 first on the break, unless the option says otherwise."""
    facts: list[Fact] = [cross(), hit(CUE, "7"), rail("2"), rail("3"), rail("4"), rail("5")]
    assert racked().rule(shot(*facts, placement=KITCHEN_SPOT)).foul_codes == (FoulCode.WRONG_BALL,)
    lax = racked(options=Options(break_must_hit_lowest_first=False))
    assert not lax.rule(shot(*facts, placement=KITCHEN_SPOT)).foul


class TestTb6BreakRequirement:
    """TB-6 / B-3: a ball pocketed, or four distinct object balls to a cushion."""

    def test_tb_6_three_balls_is_an_illegal_break(self) -> None:
        ruling = racked().rule(
            shot(*break_facts(rails=("2", "2", "3", "4")), rail(CUE), placement=KITCHEN_SPOT)
        )
        assert ruling.foul_codes == (FoulCode.ILLEGAL_BREAK,)
        assert "only 3 object balls" in ruling.explain()

    def test_tb_6_no_ball_to_a_cushion_is_said_so(self) -> None:
        ruling = racked().rule(shot(*break_facts(rails=()), placement=KITCHEN_SPOT))
        assert FoulCode.ILLEGAL_BREAK in ruling.foul_codes
        assert "nothing was pocketed and no object ball reached a cushion" in ruling.explain()

    def test_tb_6_four_distinct_balls_are_legal(self) -> None:
        assert not racked().rule(shot(*break_facts(), placement=KITCHEN_SPOT)).foul

    def test_tb_6_any_pocketed_ball_meets_it(self) -> None:
        ruling = racked().rule(shot(*break_facts(rails=()), pocket("6"), placement=KITCHEN_SPOT))
        assert not ruling.foul

    def test_tb_6_excluding_the_first_ball_and_other_counts(self) -> None:
        four = break_facts(rails=("1", "2", "3", "4"))
        strict = racked(options=Options(break_rail_count_mode="distinct_excluding_first_ball"))
        assert strict.rule(shot(*four, placement=KITCHEN_SPOT)).foul_codes == (
            FoulCode.ILLEGAL_BREAK,
        )
        five = racked(options=Options(break_required_rail_balls=5))
        assert five.rule(shot(*four, placement=KITCHEN_SPOT)).foul


class TestTb7BreakResult:
    """TB-7: (a) breaker continues, (b) opponent plays, (c) foul: ball in hand."""

    def test_tb_7_a_pocket_continues_and_the_ten_is_spotted(self) -> None:
        ruling = racked().rule(
            shot(*break_facts(), pocket("3"), pocket("10", "lc"), placement=KITCHEN_SPOT)
        )
        assert ruling.next_shooter is Player.A and ruling.phase is Phase.AFTER_BREAK
        assert set(ruling.spotted) == {"10"} and ruling.pocketed == ("3",)

    def test_tb_7_b_nothing_pocketed_opponent_may_push(self) -> None:
        ruling = racked().rule(shot(*break_facts(), placement=KITCHEN_SPOT))
        assert ruling.next_shooter is Player.B and ruling.phase is Phase.AFTER_BREAK
        assert ruling.choices == frozenset() and ruling.ball_in_hand is None

    def test_tb_7_c_foul_ball_in_hand_no_push(self) -> None:
        ruling = racked().rule(
            shot(*break_facts(), pocket("2"), pocket(CUE, "lc"), placement=KITCHEN_SPOT)
        )
        assert ruling.ball_in_hand is BallInHand.ANYWHERE and ruling.phase is Phase.PLAY
        assert ruling.pocketed == ("2",)


class TestTb8PushOut:
    """TB-8: only on the shot after a foul-free break; 6.2 and 6.3 suspended."""

    def test_tb_8_push_out_suspends_no_hit_wrong_ball_and_no_rail(self) -> None:
        for facts in [(), (hit(CUE, "7"),)]:
            assert not after_break().rule(shot(*facts, declare="push-out")).foul

    def test_tb_8_other_fouls_still_apply(self) -> None:
        ruling = after_break().rule(shot(pocket(CUE, "lb"), declare="push-out"))
        assert ruling.foul_codes == (FoulCode.SCRATCH,)
        assert ruling.choices == frozenset() and ruling.ball_in_hand is BallInHand.ANYWHERE

    def test_tb_8_push_out_refused_at_any_other_time(self) -> None:
        state = ten(OPEN_TABLE)
        with pytest.raises(IllegalAction, match="TB-8"):
            state.rule(shot(declare="push-out"))

    def test_tb_8_a_call_on_a_push_out_is_ignored(self) -> None:
        """TB-8 / TB-9: a push out carries no call; a call given with it changes nothing
        (the called ball made in its pocket does not let the pusher continue)."""
        ruling = after_break().rule(
            shot(hit(CUE, "5"), pocket("5", "lt"), declare="push-out", call=call("5", "lt"))
        )
        assert not ruling.foul and ruling.choices == {Choice.SHOOT, Choice.PASS}
        assert ruling.next_shooter is Player.B and ruling.pocketed == ("5",)
        assert "the call of the 5 in the foot-left corner is ignored" in ruling.explain()

    def test_tb_8_an_undeclared_after_break_shot_is_normal(self) -> None:
        ruling = after_break().rule(shot(hit(CUE, "7"), rail("7"), call=call("2")))
        assert ruling.foul_codes == (FoulCode.WRONG_BALL,)
        assert ruling.phase is Phase.PLAY


class TestTb9PushOutResult:
    """TB-9 / B-6: shoot or pass; balls stay down but the 10; never wins."""

    def test_tb_9_shoot_or_pass(self) -> None:
        ruling = after_break().rule(shot(hit(CUE, "5"), declare="push-out"))
        assert ruling.choices == {Choice.SHOOT, Choice.PASS}
        assert ruling.next_shooter is Player.B

    def test_tb_9_balls_stay_down_the_ten_is_spotted_no_win(self) -> None:
        alone = {CUE: (0.635, 1.0), "10": (1.0, 2.3), "4": (0.3, 2.3)}
        ruling = after_break(alone).rule(
            shot(hit(CUE, "10"), pocket("10"), pocket("4", "lt"), declare="push-out")
        )
        assert not ruling.rack_over
        assert ruling.spotted == {"10": FOOT_SPOT} and ruling.pocketed == ("4",)

    def test_tb_9_respot_all_option(self) -> None:
        respot = Options(push_out_pocketed_balls="respot_all")
        ruling = after_break(options=respot).rule(
            shot(hit(CUE, "5"), pocket("5"), pocket("7", "lt"), declare="push-out")
        )
        assert set(ruling.spotted) == {"5", "7"} and ruling.pocketed == ()

    def test_tb_9_respot_all_follows_wpa_order(self) -> None:
        """TB-9 / B-6 ``respot_all`` with GEN-4 (WPA 1.4): several balls go on the long
        string in ascending order from the foot spot toward the foot rail, whatever the
        rotation-only B-9 ``multi_spot_order`` says."""
        for order in ("lowest_at_foot_rail", "lowest_nearest_foot_spot"):
            respot = Options(push_out_pocketed_balls="respot_all", multi_spot_order=order)
            ruling = after_break(options=respot).rule(
                shot(hit(CUE, "5"), pocket("5"), pocket("7", "lt"), declare="push-out")
            )
            assert ruling.spotted["5"] == FOOT_SPOT
            assert ruling.spotted["7"] == pytest.approx((0.635, FOOT_SPOT[1] + 2 * 0.028575))

    def test_tb_9_a_legal_push_out_is_a_legal_shot(self) -> None:
        """B-5: it clears the pusher's count (moot in a rack-scoped count)."""
        state = after_break(fouls=(1, 0))
        assert state.rule(shot(declare="push-out")).fouls == Tally(0, 0)
        keep = after_break(fouls=(1, 0), options=Options(push_out_counts_as_legal_shot=False))
        assert keep.rule(shot(declare="push-out")).fouls == Tally(1, 0)


def test_tb_10_no_call_pockets_nothing_legally() -> None:
    """TB-10 / GEN-7 / B-10: every shot after the break needs a call or a safety."""
    uncalled = shot(hit(CUE, "2"), pocket("2", "lc"))
    ruling = ten(OPEN_TABLE).rule(uncalled)
    assert ruling.choices == {Choice.SHOOT, Choice.PASS} and ruling.next_shooter is Player.B
    inferred = ten(OPEN_TABLE, options=Options(call_mode="infer_obvious")).rule(uncalled)
    assert inferred.next_shooter is Player.A and not inferred.choices
    kissed = shot(hit(CUE, "2"), hit("2", "5"), pocket("2", "lc"))
    assert ten(OPEN_TABLE, options=Options(call_mode="infer_obvious")).rule(kissed).choices


def test_tb_11_called_ball_made_continues_others_stay_down() -> None:
    """TB-11: the called ball in the called pocket; others stay down but the 10."""
    ruling = ten(OPEN_TABLE).rule(
        shot(
            hit(CUE, "2"),
            hit("2", "7"),
            pocket("7", "lt"),
            pocket("2", "lc"),
            pocket("10", "rb"),
            call=call("2", "lc"),
        )
    )
    assert ruling.next_shooter is Player.A
    assert set(ruling.pocketed) == {"2", "7"} and set(ruling.spotted) == {"10"}


class TestTb12TheTen:
    """TB-12 / B-1: the called 10 wins only as the last ball by default."""

    two_left: ClassVar[dict[str, tuple[float, float]]] = {
        CUE: (0.4, 1.9),
        "9": (0.7265, 2.1262),
        "10": (1.05, 2.25),
    }
    combo = (hit(CUE, "9"), hit("9", "10"), pocket("10", "rt"), rail("9"), pocket("9", "lc"))

    def test_tb_12_early_ten_is_spotted(self) -> None:
        ruling = ten(OPEN_TABLE).rule(
            shot(hit(CUE, "2"), hit("2", "10"), pocket("10", "rb"), call=call("10", "rb"))
        )
        assert not ruling.rack_over and ruling.spotted == {"10": FOOT_SPOT}
        assert ruling.next_shooter is Player.A

    def test_tb_12_win_option_makes_early_ten_win(self) -> None:
        state = ten(OPEN_TABLE, options=Options(ten_ball_early_pocket="win"))
        ruling = state.rule(
            shot(hit(CUE, "2"), hit("2", "10"), pocket("10", "rb"), call=call("10", "rb"))
        )
        assert ruling.rack_over and ruling.winner is Player.A

    def test_tb_12_last_ball_tests(self) -> None:
        def wins(test: str) -> bool:
            state = ten(self.two_left, options=Options(ten_last_ball_test=test))  # type: ignore[arg-type]
            return state.rule(shot(*self.combo, call=call("10", "rt"))).winner is Player.A

        assert wins("after_shot")
        assert not wins("at_shot_start")
        assert not wins("at_pocket_event")
        reverse = (hit(CUE, "9"), pocket("9", "lc"), hit(CUE, "10"), pocket("10", "rt"))
        state = ten(self.two_left, options=Options(ten_last_ball_test="at_pocket_event"))
        # The 9 dropped before the 10 did: the 10 was the last ball at its pocket event.
        assert state.rule(shot(*reverse, call=call("10", "rt"))).winner is Player.A
        alone = ten(
            {CUE: (0.4, 1.9), "10": (1.05, 2.25)},
            options=Options(ten_last_ball_test="at_shot_start"),
        )
        assert alone.rule(shot(hit(CUE, "10"), pocket("10"), call=call("10"))).winner is Player.A

    def test_tb_12_the_ten_on_a_foul_when_last_is_spotted(self) -> None:
        """B-24: a 10 pocketed on a foul is spotted even as the last ball."""
        alone = {CUE: (0.4, 1.9), "10": (1.05, 2.25)}
        ruling = ten(alone).rule(
            shot(hit(CUE, "10"), pocket("10"), pocket(CUE, "lb"), call=call("10"))
        )
        assert not ruling.rack_over and ruling.spotted == {"10": FOOT_SPOT}
        assert ruling.ball_in_hand is BallInHand.ANYWHERE


class TestTb13Safety:
    """TB-13: a legal safety ends the inning."""

    def test_tb_13_nothing_pocketed_no_option(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), rail("2"), declare="safety"))
        assert ruling.next_shooter is Player.B and not ruling.choices

    def test_tb_13_ball_pocketed_on_a_safety_gives_the_option(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), pocket("2"), declare="safety"))
        assert ruling.choices == {Choice.SHOOT, Choice.PASS} and ruling.pocketed == ("2",)

    def test_tb_13_a_safety_with_a_call_is_a_safety(self) -> None:
        """TB-13 / GEN-7: a safety declared with a call is a safety; the call is ignored,
        so the "called" ball made in its pocket ends the inning and gives the option."""
        ruling = ten(OPEN_TABLE).rule(
            shot(hit(CUE, "2"), pocket("2", "lc"), declare="safety", call=call("2", "lc"))
        )
        assert not ruling.foul and ruling.next_shooter is Player.B
        assert ruling.choices == {Choice.SHOOT, Choice.PASS} and ruling.pocketed == ("2",)
        assert "TB-13" in {r.rule for r in ruling.reasons}
        ten_made = {CUE: (0.4, 1.9), "10": (1.05, 2.25)}
        safe = ten(ten_made).rule(
            shot(hit(CUE, "10"), pocket("10", "rt"), declare="safety", call=call("10", "rt"))
        )
        assert not safe.rack_over and safe.spotted == {"10": FOOT_SPOT}

    def test_tb_13_safety_with_a_foul_is_a_standard_foul(self) -> None:
        ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), declare="safety"))
        assert ruling.foul_codes == (FoulCode.NO_RAIL,)
        assert ruling.ball_in_hand is BallInHand.ANYWHERE


def test_tb_14_wrong_pocket_gives_the_option() -> None:
    """TB-14: called ball in another pocket: stays down, shoot or pass."""
    ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), pocket("2", "lb"), call=call("2", "lc")))
    assert ruling.choices == {Choice.SHOOT, Choice.PASS} and ruling.pocketed == ("2",)
    assert not ruling.foul


def test_tb_15_a_miss_gives_no_option() -> None:
    """TB-15: no foul and nothing pocketed: the opponent shoots from the position."""
    ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "2"), rail("2"), call=call("2", "lc")))
    assert ruling.next_shooter is Player.B and not ruling.choices and ruling.ball_in_hand is None
    assert ruling.positions == OPEN_TABLE


def test_tb_16_only_the_ten_is_ever_spotted() -> None:
    """TB-16: the 10 off the table on a foul is spotted; other balls stay off."""
    ruling = ten(OPEN_TABLE).rule(
        shot(hit(CUE, "2"), rail("2"), off("10"), off("7"), call=call("2"))
    )
    assert ruling.spotted == {"10": FOOT_SPOT}
    assert ruling.pocketed == ("7",)


def test_tb_17_standard_foul_ball_in_hand_anywhere_no_pass() -> None:
    """TB-17: the opponent has the cue ball in hand anywhere, no option."""
    ruling = ten(OPEN_TABLE).rule(shot(hit(CUE, "5"), pocket("5"), call=call("2")))
    assert ruling.ball_in_hand is BallInHand.ANYWHERE and ruling.choices == frozenset()
    assert CUE not in ruling.positions and ruling.next_shooter is Player.B


def test_tb_18_third_consecutive_foul_loses_the_rack() -> None:
    """TB-18: warned on two fouls, the third loses; the next break alternates."""
    state = ten(OPEN_TABLE, fouls=(2, 0), breaker=Player.A)
    ruling = state.rule(shot(hit(CUE, "5"), rail("5"), call=call("2")))
    assert ruling.rack_over and ruling.winner is Player.B
    assert ruling.next_breaker is Player.B and ruling.next_shooter is Player.B
    assert "TB-18" in {r.rule for r in ruling.reasons}
    assert "TB-17" not in {r.rule for r in ruling.reasons}  # no ball in hand: the rack is over
    winner_breaks = ten(
        OPEN_TABLE, fouls=(2, 0), breaker=Player.B, options=Options(break_format="winner_breaks")
    )
    assert (
        winner_breaks.rule(shot(hit(CUE, "5"), rail("5"), call=call("2"))).next_breaker is Player.B
    )


def test_tb_19_stalemate_rerack_same_breaker() -> None:
    """TB-19: a stalemated 10-ball rack is re-racked, its breaker breaks again."""
    ruling = ten(OPEN_TABLE, shooter=Player.B, breaker=Player.A).rule_stalemate()
    assert ruling.rerack and ruling.winner is None and ruling.next_breaker is Player.A
    assert "TB-19" in {r.rule for r in ruling.reasons}


class TestTb20OptionMechanics:
    """TB-20: the shoot/pass choice is made once and changes no count."""

    def pushed(self) -> TenBall:
        return after_break(shooter=Player.B, fouls=(1, 0)).push(shot(declare="push-out"))

    def test_tb_20_pass_sends_the_offender_back(self) -> None:
        state = self.pushed()
        assert state.shooter is Player.A and state.legal_choices == {Choice.SHOOT, Choice.PASS}
        passed = state.choose(Choice.PASS)
        assert passed.shooter is Player.B and passed.legal_choices == frozenset()
        assert passed.fouls == state.fouls

    def test_tb_20_no_second_pass(self) -> None:
        passed = self.pushed().choose("pass")
        with pytest.raises(IllegalAction, match="no choice to make"):
            passed.choose("pass")

    def test_tb_20_only_offered_choices(self) -> None:
        with pytest.raises(IllegalAction, match="may choose pass, shoot, not spot-lowest"):
            self.pushed().choose("spot-lowest")
        with pytest.raises(IllegalAction, match="not a choice"):
            self.pushed().choose("bogus")

    def test_tb_20_after_pass_normal_rules_apply(self) -> None:
        passed = self.pushed().choose("pass")
        ruling = passed.rule(shot(hit(CUE, "2"), pocket("2", "lc"), call=call("2", "lc")))
        assert ruling.next_shooter is Player.B and not ruling.foul
