"""Free play with the referee off (rules.practice): for every game, nothing is a foul, the
same player shoots again, nothing is called, pocketed balls stay down, a scratched cue
ball comes back in hand anywhere, the rack never ends by itself, and each ruling reads as
plain sentences with no rule ID or token in them."""

from __future__ import annotations

import pytest

from rules import CUE, GAMES, GameState, IllegalAction, Phase, Player, Positions
from rules.facts import Hit, OffTable, Pocketing
from rules.lead import ruling_line
from rules.practice import practice_kind, practice_state
from rules.shot import Call, Shot
from rules.terms import BallInHand, Declaration
from tests.rules.test_words import raw_tokens

KINDS = list(GAMES.values())
TABLE = Positions({CUE: (0.6, 0.6), "3": (0.6, 1.2), "5": (0.3, 2.0)})


def free(kind: type[GameState], balls: Positions = TABLE) -> GameState:
    return practice_kind(kind)(balls=balls, shooter=Player.B, phase=Phase.PLAY)


@pytest.mark.parametrize("kind", KINDS, ids=list(GAMES))
def test_a_practice_game_is_its_game_with_the_referee_off(kind: type[GameState]) -> None:
    variant = practice_kind(kind)
    assert variant is practice_kind(kind)  # cached: one class per game
    assert issubclass(variant, kind) and kind.refereed and not variant.refereed
    assert (variant.game, variant.display_name) == (kind.game, kind.display_name)
    assert practice_kind(variant) is variant
    state = free(kind)
    assert not state.calls_allowed and not state.legal_declarations
    assert state.winning_ball is None


@pytest.mark.parametrize("kind", KINDS, ids=list(GAMES))
def test_a_wrong_ball_and_no_rail_is_no_foul_and_the_player_shoots_again(
    kind: type[GameState],
) -> None:
    state = free(kind)
    ruling = state.rule(Shot(facts=(Hit((CUE, "5")), Pocketing("5", "lt"))))
    assert not ruling.foul and not ruling.choices and not ruling.rack_over
    assert ruling.next_shooter is Player.B and ruling.ball_in_hand is None
    assert ruling.pocketed == ("5",) and "5" not in ruling.positions
    line = ruling_line(ruling, practice_kind(kind), ("Ann", "Bob"))
    assert line == "The 5 drops in the foot-left corner."
    after = state.apply(ruling)
    assert after.outcome() is None and "5" not in after.balls and after.fouls[Player.B] == 0


@pytest.mark.parametrize("kind", KINDS, ids=list(GAMES))
def test_a_scratch_brings_the_cue_ball_back_in_hand_anywhere(kind: type[GameState]) -> None:
    state = free(kind)
    ruling = state.rule(Shot(facts=(Pocketing(CUE, "rc"),)))
    line = ruling_line(ruling, practice_kind(kind), ("Ann", "Bob"))
    assert line == (
        "The cue ball drops in the right side. The cue ball comes back in hand, anywhere."
    )
    assert not raw_tokens(line) and not ruling.foul
    after = state.apply(ruling)
    assert after.ball_in_hand is BallInHand.ANYWHERE and CUE not in after.balls
    assert after.placement_problem((1.1, 0.2)) is None  # past the head string: anywhere
    off = state.rule(Shot(facts=(Hit((CUE, "3")), OffTable("3"))))
    assert ruling_line(off, practice_kind(kind)) == "The 3 leaves the table."


@pytest.mark.parametrize("kind", KINDS, ids=list(GAMES))
def test_the_last_ball_down_does_not_end_the_rack(kind: type[GameState]) -> None:
    state = free(kind, Positions({CUE: (0.6, 0.6), kind.object_balls[-1]: (0.6, 1.2)}))
    last = kind.object_balls[-1]
    ruling = state.rule(Shot(facts=(Hit((CUE, last)), Pocketing(last, "lt"))))
    assert not ruling.rack_over and ruling.winner is None
    assert state.apply(ruling).outcome() is None
    with pytest.raises(IllegalAction, match="set the table up again"):
        state.rule_stalemate(agreed=True)


def test_nothing_is_called_or_declared() -> None:
    state = free(GAMES["ten-ball"])
    with pytest.raises(IllegalAction, match="nothing is called"):
        state.rule(Shot(call=Call(ball="3", pocket="lt")))
    with pytest.raises(IllegalAction, match="nothing is called"):
        state.rule(Shot(declaration=Declaration.SAFETY))


def test_no_ball_down_is_said_too() -> None:
    ruling = free(GAMES["rotation"]).rule(Shot(facts=(Hit((CUE, "3")),)))
    assert ruling_line(ruling, practice_kind(GAMES["rotation"])) == "No ball drops."
    assert ruling.score == free(GAMES["rotation"]).score  # no points in free play


@pytest.mark.parametrize("kind", KINDS, ids=list(GAMES))
def test_a_refereed_state_becomes_free_play_with_its_turn_and_ball_in_hand(
    kind: type[GameState],
) -> None:
    refereed = kind(
        balls=TABLE.without(CUE),
        shooter=Player.B,
        phase=Phase.PLAY,
        ball_in_hand=BallInHand.KITCHEN,
    )
    state = practice_state(refereed)
    assert type(state) is practice_kind(kind)
    assert state.shooter is Player.B and state.ball_in_hand is BallInHand.ANYWHERE
    assert state.balls == refereed.balls
