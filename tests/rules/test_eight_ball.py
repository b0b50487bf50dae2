"""WPA 8-ball (EB-1..21) and its options (B-31..B-44): the referee on built shots. The
public suite and the project's own scenarios (tests/data/scenarios/*eight-ball.json) run
through ``poolsim rules check`` in test_conformance.py; these tests name each rule."""

from __future__ import annotations

import pytest

from rules import (
    CUE,
    BallInHand,
    Choice,
    Declaration,
    EightBall,
    Group,
    Groups,
    IllegalAction,
    Loss,
    Options,
    Phase,
    Player,
    Target,
)
from rules.eight_ball import RACK_PATTERN
from rules.facts import Fact
from rules.geometry import Point
from rules.groups import EightBallExtras
from rules.lead import ruling_line
from rules.ruling import Ruling
from tests.rules.builders import (
    EIGHT_BALL_RACK,
    FOOT_SPOT,
    call,
    cross,
    eight,
    hit,
    off,
    pocket,
    rail,
    shot,
)

SOLIDS_A = Groups.assigned(Player.A, Group.SOLIDS)
KITCHEN: Point = (0.45, 0.5)
# A mid-rack table: A's solids the 2 and the 4, B's stripes the 9 and the 13, the 8.
TABLE: dict[str, Point] = {
    CUE: (0.5, 1.0),
    "2": (0.3, 1.6),
    "4": (0.11, 1.349),
    "8": (0.715, 1.335),
    "9": (1.13, 1.311),
    "13": (0.297, 2.462),
}
ON_THE_EIGHT = {b: p for b, p in TABLE.items() if b not in ("2", "4")}
BREAK_HITS = [cross(), hit(CUE, "1"), hit("1", "10"), hit("1", "3")]
FOUR_RAILS = [rail("2"), rail("7"), rail("15"), rail("11")]


def extras(ruling: Ruling) -> EightBallExtras:
    """The ruling's 8-ball part: every refereed 8-ball ruling has one."""
    found = EightBallExtras.of(ruling)
    assert found is not None
    return found


def racked(**options: object) -> EightBall:
    return EightBall.new_rack(EIGHT_BALL_RACK, options=Options(**options))


def broke(state: EightBall, *facts: Fact) -> tuple[EightBall, Ruling]:
    ruling = state.rule(shot(*facts, placement=KITCHEN))
    return state.apply(ruling), ruling


def test_eb_1_solids_stripes_and_the_eight_belong_to_the_game() -> None:
    """EB-1: fifteen object balls; the 8 belongs to no group; a shot is called."""
    assert EightBall.object_balls == tuple(str(n) for n in range(1, 16))
    assert Group.SOLIDS.balls == tuple("1234567") and Group.of("12") is Group.STRIPES
    assert Group.of("8") is None and EightBall.calls_shots and not EightBall.has_push_out


def test_eb_2_eb_21_a_won_rack_passes_the_break_and_ends_the_rack() -> None:
    """EB-2 (B-11 alternate) and EB-21: a rack won on EB-11 ends; the other breaks next."""
    state = eight(ON_THE_EIGHT, groups=SOLIDS_A, breaker=Player.A)
    ruling = state.rule(shot(hit(CUE, "8"), pocket("8", "lc"), call=call("8", "lc")))
    after = state.apply(ruling)
    assert after.is_over and after.outcome() is not None
    assert (ruling.winner, ruling.next_breaker, extras(ruling).loss) == (Player.A, Player.B, None)


def test_eb_3_the_rack_pattern() -> None:
    """EB-3: the 8 in the middle of the third row; the back corners drawn one solid, one
    stripe; the other twelve free."""
    slots = RACK_PATTERN.slots
    assert [len(row) for row in RACK_PATTERN.rows] == [1, 2, 3, 4, 5]
    assert slots[4] == "8" and sum(s is None for s in slots) == 14
    (draw,) = RACK_PATTERN.draws
    assert draw.slots == (10, 14)
    assert set(draw.groups) == {Group.SOLIDS.balls, Group.STRIPES.balls}


def test_eb_4_nothing_is_called_on_the_break() -> None:
    """EB-4: in hand in the kitchen; no declaration offered; a call is ignored, said so."""
    state = racked()
    assert state.ball_in_hand is BallInHand.KITCHEN and state.legal_declarations == frozenset()
    ruling = state.rule(
        shot(*BREAK_HITS, rail("6"), pocket("3"), placement=KITCHEN, call=call("3"))
    )
    assert any(r.rule == "EB-4" for r in ruling.reasons)
    assert ruling.next_shooter is Player.A and extras(ruling).groups == Groups()


def test_eb_5_four_balls_to_a_cushion_or_an_illegal_break() -> None:
    """EB-5(c): with nothing pocketed, three balls to a cushion is an illegal break, not
    in itself a foul; four make it legal. EB-5(a): no first-ball requirement."""
    state = racked()
    three = state.rule(shot(*BREAK_HITS, *FOUR_RAILS[:3], placement=KITCHEN))
    assert extras(three).illegal_break and not three.foul
    four = state.rule(shot(cross(), hit(CUE, "10"), *FOUR_RAILS, placement=KITCHEN))
    assert not extras(four).illegal_break and not four.foul and four.next_shooter is Player.B


def test_eb_6_the_eight_on_a_legal_break_offers_the_breaker_a_choice() -> None:
    """EB-6 row 1: the breaker chooses; ``shoot`` spots the 8 by GEN-4 (here the 1 is
    still on the foot spot, so behind it)."""
    state, _ = broke(racked(), *BREAK_HITS, rail("6"), pocket("8", "rc"), pocket("3"))
    assert state.legal_choices == {Choice.SHOOT, Choice.RERACK}
    assert state.pending is not None and state.pending.chooser is Player.A
    chosen = state.rule_choice(Choice.SHOOT)
    assert list(chosen.spotted) == ["8"] and chosen.spotted["8"][1] > FOOT_SPOT[1]
    assert chosen.positions["8"] == chosen.spotted["8"]
    assert chosen.next_shooter is Player.A and extras(chosen).groups == Groups()


def test_eb_7_a_called_ball_legally_pocketed_takes_its_group() -> None:
    """EB-7: on the open table the called ball's group becomes the shooter's, whichever
    ball was hit first; a miss keeps the table open."""
    state = eight(TABLE)
    made = state.rule(shot(hit(CUE, "2"), hit("2", "9"), pocket("9", "rt"), call=call("9")))
    assert extras(made).groups == Groups.assigned(Player.A, Group.STRIPES)
    assert made.next_shooter is Player.A and extras(made).target(made) is Target.STRIPES
    missed = state.rule(shot(hit(CUE, "2"), rail("2"), call=call("2")))
    assert extras(missed).groups == Groups() and extras(missed).target(missed) is Target.OPEN


def test_eb_8_the_first_ball_must_be_on() -> None:
    """EB-8: the 8 first on the open table and an opponent's ball first are wrong balls."""
    open_eight = eight(TABLE).rule(shot(hit(CUE, "8"), rail("8"), call=call("2")))
    assert open_eight.foul_codes == ("wrong-ball",)
    theirs = eight(TABLE, groups=SOLIDS_A).rule(shot(hit(CUE, "9"), rail("9"), call=call("2")))
    assert "wrong-ball" in theirs.foul_codes
    assert eight(TABLE, groups=SOLIDS_A).on_set() == {"2", "4"}


def test_eb_9_a_call_of_a_ball_not_on_counts_for_nothing() -> None:
    """EB-9: every shot after the break is called or a safety; a call of a ball that is
    not on is no call."""
    state = eight(TABLE, groups=SOLIDS_A)
    assert state.call_required and Declaration.SAFETY in state.legal_declarations
    ruling = state.rule(shot(hit(CUE, "2"), hit("2", "9"), pocket("9"), call=call("9")))
    assert ruling.next_shooter is Player.B and not ruling.foul
    assert any(r.rule == "EB-9" for r in ruling.reasons)


def test_eb_10_no_pass_and_other_balls_stay_down() -> None:
    """EB-10: the called ball made, the shooter continues and every ball down stays down;
    there is no shoot/pass choice and no push out."""
    state = eight(TABLE, groups=SOLIDS_A)
    ruling = state.rule(
        shot(hit(CUE, "2"), hit("2", "9"), pocket("2", "lc"), pocket("9"), call=call("2", "lc"))
    )
    assert ruling.next_shooter is Player.A and not ruling.choices
    assert set(ruling.pocketed) == {"2", "9"}
    with pytest.raises(IllegalAction, match="EB-10"):
        state.rule(shot(hit(CUE, "2"), rail("2"), declare="push-out"))


def test_eb_11_the_called_eight_wins() -> None:
    """EB-11: the 8 called and pocketed when it is on wins."""
    state = eight(ON_THE_EIGHT, groups=SOLIDS_A)
    assert state.winning_ball == "8" and state.target is Target.EIGHT
    ruling = state.rule(shot(hit(CUE, "8"), pocket("8", "lc"), call=call("8", "lc")))
    assert ruling.winner is Player.A and ruling.rack_over


@pytest.mark.parametrize(
    ("balls", "facts", "called", "loss"),
    [
        (ON_THE_EIGHT, [hit(CUE, "8"), off("8")], ("8", "lc"), Loss.EIGHT_OFF_TABLE),
        (
            ON_THE_EIGHT,
            [hit(CUE, "8"), pocket("8", "lc"), pocket(CUE, "rt")],
            ("8", "lc"),
            Loss.EIGHT_WITH_FOUL,
        ),
        (TABLE, [hit(CUE, "2"), hit("2", "8"), pocket("8", "rc")], ("2", "lc"), Loss.EIGHT_EARLY),
        (ON_THE_EIGHT, [hit(CUE, "8"), pocket("8", "rt")], ("8", "lc"), Loss.EIGHT_WRONG_POCKET),
    ],
)
def test_eb_12_losing_the_rack_and_why(
    balls: dict[str, Point], facts: list[object], called: tuple[str, str], loss: Loss
) -> None:
    """EB-12 (d), (a), (b), (c): the opponent wins, and the ruling says why."""
    state = eight(balls, groups=SOLIDS_A)
    ruling = state.rule(shot(*facts, call=call(*called)))
    assert (extras(ruling).loss, ruling.winner, ruling.rack_over) == (loss, Player.B, True)


def test_the_eight_ball_extras_write_and_read_their_own_json() -> None:
    """rules.extras: 8-ball's part of a ruling in the game file's keys and order, with
    the target derived from the ruling; and read back from that JSON."""
    state = eight(ON_THE_EIGHT, groups=SOLIDS_A)
    lost = state.rule(shot(hit(CUE, "8"), pocket("8", "rt"), call=call("8", "lc")))
    illegal = racked().rule(shot(*BREAK_HITS, *FOUR_RAILS[:3], placement=KITCHEN))
    assert extras(lost).to_json(lost) == {
        "groups": {"A": "solids", "B": "stripes"},
        "groups_taken": False,
        "target": "stripes",  # B's, who is at the table next (to break)
        "illegal_break": False,
        "loss": "eight-wrong-pocket",
    }
    for ruling in (lost, illegal):
        written = extras(ruling).to_json(ruling)
        assert list(written) == ["groups", "groups_taken", "target", "illegal_break", "loss"]
        assert EightBallExtras.from_json(written) == extras(ruling)
    assert extras(illegal).to_json(illegal)["illegal_break"] is True


def test_eb_13_a_standard_foul_gives_ball_in_hand_anywhere() -> None:
    """EB-13: no option; the groups do not change; nothing is spotted."""
    state = eight(TABLE, groups=SOLIDS_A)
    ruling = state.rule(shot(hit(CUE, "2"), pocket("2"), pocket(CUE, "lb"), call=call("2")))
    assert ruling.ball_in_hand is BallInHand.ANYWHERE and not ruling.choices
    assert extras(ruling).groups == SOLIDS_A and not ruling.spotted and "2" in ruling.pocketed


def test_eb_14_from_the_kitchen_a_ball_behind_the_string_needs_a_crossing() -> None:
    """EB-14: hitting a ball behind the head string before crossing is the foul kitchen;
    a cushion before crossing is not (unlike ROT-17)."""
    balls = {"5": (0.3, 0.4), "9": (0.9, 1.5), "8": (0.715, 1.335)}
    state = eight(balls, in_hand=BallInHand.KITCHEN)
    behind = state.rule(shot(hit(CUE, "5"), rail("5"), placement=(0.6, 0.3), call=call("5")))
    assert behind.foul_codes == ("kitchen",)
    cushion = state.rule(
        shot(rail(CUE, "left"), cross(), hit(CUE, "9"), rail("9"), placement=(0.6, 0.3))
    )
    assert not cushion.foul


def test_eb_15_only_the_eight_is_spotted() -> None:
    """EB-15: an object ball off the table stays off (B-37 default) and counts as cleared
    (EB-20)."""
    state = eight(TABLE, groups=SOLIDS_A)
    ruling = state.rule(shot(hit(CUE, "2"), off("2"), call=call("2")))
    assert not ruling.spotted and "2" not in ruling.positions


def test_eb_16_no_consecutive_foul_count() -> None:
    """EB-16: fouls are not counted and no one is warned (B-42 off)."""
    state = eight(TABLE, groups=SOLIDS_A, fouls=(0, 0))
    for _ in range(3):
        ruling = state.rule(
            shot(pocket(CUE, "lb"), placement=None if CUE in state.balls else (0.5, 1.0))
        )
        assert ruling.fouls.a == 0 and not ruling.warning and not ruling.rack_over
        state = state.apply(ruling)
        state = state.apply(state.rule(shot(hit(CUE, "9"), rail("9"), placement=(0.5, 1.0))))


def test_eb_17_a_stalemate_is_racked_again_by_the_same_breaker() -> None:
    """EB-17 (GEN-16): the player who broke the stalemated rack breaks again."""
    ruling = eight(TABLE, breaker=Player.B).rule_stalemate()
    assert (ruling.rerack, ruling.next_breaker) == (True, Player.B)
    assert any(r.rule == "EB-17" for r in ruling.reasons)


def test_eb_18_a_rerack_chosen_on_the_break_names_its_breaker() -> None:
    """EB-18: ``rerack`` the chooser breaks; ``rerack-other`` the other player."""
    state, _ = broke(racked(), *BREAK_HITS, *FOUR_RAILS[:3])  # illegal break: B chooses
    assert state.legal_choices == {Choice.SHOOT, Choice.RERACK, Choice.RERACK_OTHER}
    mine, theirs = state.rule_choice(Choice.RERACK), state.rule_choice(Choice.RERACK_OTHER)
    assert (mine.next_breaker, theirs.next_breaker) == (Player.B, Player.A)
    assert mine.rack_over and mine.rerack and mine.winner is None and mine.phase is Phase.BREAK


def test_eb_19_a_safety_ends_the_inning_and_pockets_nothing_for_the_shooter() -> None:
    """EB-19: balls down on a safety stay down and the open table stays open."""
    state = eight(TABLE)
    ruling = state.rule(shot(hit(CUE, "2"), pocket("2"), declare="safety", call=call("2")))
    assert ruling.next_shooter is Player.B and extras(ruling).groups == Groups() and not ruling.foul


def test_eb_20_a_group_cleared_by_the_opponent_puts_the_shooter_on_the_eight() -> None:
    """EB-20: G(p) is read at the stroke, whoever pocketed the balls."""
    state = eight(ON_THE_EIGHT, groups=SOLIDS_A, shooter=Player.A)
    assert state.on_set() == {"8"} and state.on_set(Player.B) == {"9", "13"}


def test_the_groups_carry_over_from_shot_to_shot() -> None:
    """The groups are state: assigned by one ruling, kept by the next states."""
    state = eight(TABLE)
    state = state.push(shot(hit(CUE, "2"), pocket("2", "lc"), call=call("2", "lc")))
    assert state.groups == SOLIDS_A and state.target is Target.SOLIDS
    state = state.push(shot(hit(CUE, "4"), rail("4"), call=call("4")))
    assert state.groups == SOLIDS_A and state.shooter is Player.B
    assert state.target is Target.STRIPES


def test_the_plain_lines_say_who_takes_which_group_and_why_a_rack_is_lost() -> None:
    """EB-7, EB-12, EB-6 in the referee's one line (rules.lead), in the players' names."""
    names = ("Ann", "Bob")
    taken = eight(TABLE).rule(shot(hit(CUE, "2"), pocket("2", "lc"), call=call("2", "lc")))
    assert ruling_line(taken, EightBall, names, on_break=False) == (
        "Ann pockets the 2, takes the solids and shoots again."
    )
    lost = eight(ON_THE_EIGHT, groups=SOLIDS_A).rule(
        shot(hit(CUE, "8"), pocket("8", "rt"), call=call("8", "lc"))
    )
    assert ruling_line(lost, EightBall, names, on_break=False) == (
        "Ann loses the rack: the 8 went into a pocket that was not called. Bob wins the rack."
    )
    state, ruling = broke(racked(), *BREAK_HITS, *FOUR_RAILS[:3])
    assert ruling_line(ruling, EightBall, names, on_break=True).startswith(
        "Ann's break is illegal: nothing down and too few balls reached a cushion. Bob may "
    )
    chosen = state.rule_choice(Choice.RERACK_OTHER)
    assert ruling_line(chosen, EightBall, names, choice=Choice.RERACK_OTHER) == (
        "Bob has the balls racked again: Ann breaks."
    )
