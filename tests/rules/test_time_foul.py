"""GEN-17 (WPA 6.15, S000 10-h): a shot not struck before the shot clock expires is a
standard foul, called when the clock runs out with no stroke played."""

from __future__ import annotations

import pytest

from rules import (
    CUE,
    BallInHand,
    Choice,
    EightBall,
    FoulCode,
    IllegalAction,
    NineBall,
    Options,
    Player,
    Rotation,
    Shot,
    Tally,
    TenBall,
)
from rules.groups import EightBallExtras, Groups
from rules.lead import ruling_line
from rules.practice import practice_state
from tests.rules.builders import (
    EIGHT_BALL_RACK,
    NINE_BALL_RACK,
    OPEN_TABLE,
    ROTATION_RACK,
    TEN_BALL_RACK,
    eight,
    hit,
    nine,
    rot,
    ten,
)

CLOCK = Options(shot_clock_s=30, shot_clock_extension_s=30, shot_clock_extensions_per_rack=1)
NAMES = ("Ann", "Bob")
CUE_AT = (0.6, 0.5)


def test_ten_ball_time_foul_gives_ball_in_hand_anywhere_and_stands_alone() -> None:
    state = ten(OPEN_TABLE, options=CLOCK)
    ruling = state.rule_time_foul()
    assert ruling.foul_codes == (FoulCode.SHOT_CLOCK,)
    assert [r.rule for r in ruling.reasons if r.foul] == ["GEN-17"]  # no "no ball hit"
    assert ruling.next_shooter is Player.B and ruling.ball_in_hand is BallInHand.ANYWHERE
    assert ruling.positions == state.balls.without(CUE)  # nothing else moved
    assert ruling_line(ruling, TenBall, NAMES) == (
        "Foul: the shot clock ran out. Bob has ball in hand anywhere."
    )
    after = state.apply(ruling)
    assert after.fouls == Tally(1, 0) and after.ball_in_hand is BallInHand.ANYWHERE


def test_the_third_time_foul_in_a_row_loses_the_rack() -> None:
    state = ten(OPEN_TABLE, options=CLOCK, fouls=(2, 0), warned=frozenset({Player.A}))
    ruling = state.rule_time_foul()
    assert ruling.rack_over and ruling.winner is Player.B
    assert ruling_line(ruling, TenBall, NAMES).startswith(
        "Foul: the shot clock ran out, Ann's third in a row."
    )


def test_time_foul_with_the_cue_ball_in_hand_keeps_it_in_hand() -> None:
    in_hand = {b: p for b, p in OPEN_TABLE.items() if b != CUE}
    state = ten(in_hand, in_hand=BallInHand.ANYWHERE, options=CLOCK, fouls=(0, 1))
    after = state.time_foul()
    assert after.shooter is Player.B and after.ball_in_hand is BallInHand.ANYWHERE
    assert after.fouls == Tally(1, 1)


@pytest.mark.parametrize("breaking", [False, True])
def test_nine_ball_time_foul_gives_ball_in_hand_anywhere(breaking: bool) -> None:
    if breaking:
        state = NineBall.new_rack(NINE_BALL_RACK, options=CLOCK)
    else:
        state = nine({**NINE_BALL_RACK, CUE: CUE_AT}, options=CLOCK)
    after = state.time_foul()
    assert after.shooter is Player.B and after.ball_in_hand is BallInHand.ANYWHERE
    assert after.fouls == Tally(1, 0)


def test_ten_ball_break_time_foul_is_a_break_foul() -> None:
    """TB-7(c): a foul on the break gives ball in hand anywhere."""
    after = TenBall.new_rack(TEN_BALL_RACK, options=CLOCK).time_foul()
    assert after.ball_in_hand is BallInHand.ANYWHERE and after.fouls == Tally(1, 0)


def test_eight_ball_time_foul_is_a_standard_foul() -> None:
    """EB-13 in play; on the break B-34's foul, never an illegal break (no stroke)."""
    in_play = eight({**EIGHT_BALL_RACK, CUE: CUE_AT}, options=CLOCK).rule_time_foul()
    assert in_play.ball_in_hand is BallInHand.ANYWHERE
    assert in_play.extras == EightBallExtras(groups=Groups())
    on_break = EightBall.new_rack(EIGHT_BALL_RACK, options=CLOCK).rule_time_foul()
    assert on_break.foul_codes == (FoulCode.SHOT_CLOCK,)
    assert on_break.extras == EightBallExtras(groups=Groups())  # not an illegal break
    assert on_break.ball_in_hand is BallInHand.KITCHEN  # the cue ball never left the hand
    assert Choice.RERACK not in on_break.choices


def test_rotation_time_foul_gives_the_rotation_options() -> None:
    """ROT-14 with the cue ball on the table; in hand, it is off the bed (ROT-15)."""
    on_table = rot({**ROTATION_RACK, CUE: CUE_AT}, options=CLOCK).time_foul()
    assert on_table.legal_choices == {Choice.SHOOT, Choice.SPOT_LOWEST}
    assert on_table.fouls == Tally(1, 0)
    in_hand = rot(ROTATION_RACK, in_hand=BallInHand.KITCHEN, options=CLOCK).time_foul()
    assert Choice.SHOOT not in in_hand.legal_choices
    taken = in_hand.choose(Choice.KITCHEN)
    assert taken.shooter is Player.B and taken.ball_in_hand is BallInHand.KITCHEN
    assert Rotation.new_rack(ROTATION_RACK, options=CLOCK).time_foul().legal_choices


def test_an_extension_taken_counts_on_a_time_foul() -> None:
    ruling = ten(OPEN_TABLE, options=CLOCK).rule_time_foul(extension=True)
    assert ruling.extensions_used == Tally(1, 0)


def test_no_time_foul_without_a_running_clock() -> None:
    with pytest.raises(IllegalAction, match="no shot clock"):
        ten(OPEN_TABLE).rule_time_foul()
    with pytest.raises(IllegalAction, match="no shot clock"):
        ten(OPEN_TABLE, options=CLOCK, hill_hill=True).rule_time_foul()  # B-18
    with pytest.raises(IllegalAction, match="no shot clock"):
        practice_state(ten(OPEN_TABLE, options=CLOCK)).rule_time_foul()
    choosing = rot({**ROTATION_RACK, CUE: CUE_AT}, options=CLOCK).time_foul()
    with pytest.raises(IllegalAction, match="must first choose"):
        choosing.rule_time_foul()


def test_a_shot_with_no_stroke_is_the_time_foul_alone() -> None:
    with pytest.raises(ValueError, match="shot clock"):
        Shot(struck=False)
    with pytest.raises(ValueError, match="no events"):
        Shot(facts=(hit(CUE, "2"),), referee_fouls={FoulCode.SHOT_CLOCK}, struck=False)
