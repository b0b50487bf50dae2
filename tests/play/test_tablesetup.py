"""The table being set up by hand (sim.play.table.tablesetup): each change is checked as the
position it would make, and a refused one is one line that changes nothing."""

from __future__ import annotations

import pytest

from rules import CUE, BallInHand, Player
from sim.play.game import GameError, GameSetup
from sim.play.table.tablesetup import TableSetup

pytestmark = pytest.mark.physics


def table(game: str = "ten-ball") -> TableSetup:
    return TableSetup(setup=GameSetup(game=game, practice=True), balls={CUE: (0.6, 0.6)})


def test_move_remove_and_bring_back() -> None:
    setting = table()
    setting.move("3", (0.3, 1.5))
    assert setting.balls == {CUE: (0.6, 0.6), "3": (0.3, 1.5)}
    assert "3" not in setting.off_table and setting.off_table[0] == "1"
    setting.remove("3")
    assert "3" in setting.off_table
    spot = setting.add("3")  # at its spot: the foot spot, free
    assert spot == pytest.approx(setting.setup.spec.geometry.foot_spot)
    again = setting.add("4")  # the foot spot is taken: the first free place near it
    assert setting.balls["4"] == again and again != spot
    position = setting.position()
    assert set(position.balls) == {CUE, "3", "4"} and position.in_hand is None


def test_the_cue_ball_off_the_table_is_in_hand_anywhere_with_the_referee_off() -> None:
    setting = table()
    setting.remove(CUE)
    assert setting.in_hand is BallInHand.ANYWHERE and CUE in setting.off_table
    assert setting.position().in_hand is BallInHand.ANYWHERE
    setting.add(CUE)
    assert setting.in_hand is None


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda s: s.move("3", (0.6, 0.61)),
            "the 3 at (0.600, 0.610): the 3 overlaps the cue ball",
        ),
        (lambda s: s.move("3", (-0.2, 1.0)), "off the table"),
        (lambda s: s.move("3", (0.0285, 1.0)), "touches a cushion"),
        (lambda s: s.move("11", (0.3, 1.0)), "there is no '11' in 10-ball"),
        (lambda s: s.add(CUE), "the cue ball is on the table already"),
        (lambda s: s.remove("5"), "the 5 is not on the table"),
        (lambda s: s.set_turn(Player.B), "with the referee on"),
        (lambda s: s.set_in_hand(BallInHand.KITCHEN), "with the referee off"),
    ],
)
def test_a_refused_change_is_one_line_and_changes_nothing(change: object, said: str) -> None:
    setting = table()
    setting.move("3", (0.3, 1.5))
    before = (dict(setting.balls), setting.turn, setting.in_hand, setting.refereed)
    with pytest.raises(GameError) as caught:
        change(setting)  # type: ignore[operator]
    assert said in str(caught.value) and "\n" not in str(caught.value)
    assert (dict(setting.balls), setting.turn, setting.in_hand, setting.refereed) == before


@pytest.mark.parametrize("game", ["ten-ball", "nine-ball", "rotation"])
def test_each_rack_is_a_position_the_table_plays(game: str) -> None:
    setting = table(game)
    setting.rack()
    first = dict(setting.balls)
    assert set(first) == {CUE, *setting.setup.kind.object_balls}
    setting.rack()  # another shuffle each time
    assert set(setting.balls) == set(first)
    assert setting.position().in_hand is None
    setting.clear()
    assert setting.balls == {CUE: first[CUE]}


def test_the_referee_on_whose_turn_and_the_cue_ball_in_hand() -> None:
    setting = table()
    setting.rack()
    setting.set_referee(True)
    setting.set_turn(Player.B)
    setting.set_in_hand(BallInHand.KITCHEN)
    position = setting.position()
    assert position.turn is Player.B and position.in_hand is BallInHand.KITCHEN
    with pytest.raises(GameError, match="place it behind the head string"):
        setting.move(CUE, (0.6, 1.8))  # past the head string, while in hand in the kitchen
    assert setting.position() == position


def test_a_rack_with_the_referee_on_is_a_break_until_its_balls_are_moved() -> None:
    from sim.play.game import Game

    setting = table()
    setting.set_referee(True)
    setting.rack()
    assert setting.in_hand is BallInHand.KITCHEN and setting.breaking
    # Played from here, the referee rules it as a break (TB-4: nothing called, no push).
    session = Game(setting.setup)
    session.set_up(setting.position(), refereed=True, breaking=setting.breaking)
    state = session.rack
    assert state is not None and state.phase.value == "break"
    assert not state.legal_declarations and not state.calls_allowed
    # A ball moved: a position to play, not a break any more.
    ball = next(b for b in setting.balls if b != CUE)
    x, y = setting.balls[ball]
    setting.remove(ball)
    setting.add(ball, (x, y - 0.3))
    assert not setting.breaking


def test_a_rack_made_with_the_referee_off_breaks_once_it_is_switched_on() -> None:
    setting = table("nine-ball")
    setting.rack()
    assert not setting.breaking  # free play: no break to referee
    setting.set_referee(True)
    assert setting.in_hand is BallInHand.KITCHEN and setting.breaking


def test_a_break_needs_the_referee() -> None:
    from sim.play.game import Game

    setting = table()
    setting.rack()
    with pytest.raises(GameError, match="switch the referee on"):
        Game(setting.setup).set_up(setting.position(), refereed=False, breaking=True)
