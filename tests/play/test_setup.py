"""A practice session is a game whose steps start with a set-up (Game.set_up): the
position's rack alone, free play or refereed, a step like any other, so take it again,
branches and a set-up after shots all work unchanged."""

from __future__ import annotations

import pytest

from rules import CUE, MatchPhase, Player
from rules.terms import BallInHand
from sim.physics.simulate import CueAction
from sim.play.game import Game, GameError, GameSetup, SetupRecord, Stroke
from sim.play.position import Position

pytestmark = pytest.mark.physics

# The 3 on the line from the cue ball to the foot-left corner: a centre-ball stroke at
# 116.565 degrees pots it (at 3 m/s the cue ball follows it in).
CUT = {CUE: (0.36, 1.82), "3": (0.18, 2.18), "9": (1.0, 0.5)}
POT = Stroke(action=CueAction(speed=1.5, aim=116.565))
SCRATCH = Stroke(action=CueAction(speed=3.0, aim=116.565))


def practice(game: str = "nine-ball") -> Game:
    return Game(GameSetup(game=game, practice=True, players=("Ann", "Bob")))


def position(game: str = "nine-ball", **changes: object) -> Position:
    fields: dict[str, object] = {"game": game, "table": "9ft", "balls": CUT, "turn": Player.A}
    fields.update(changes)
    return Position(**fields)  # type: ignore[arg-type]


def test_a_set_up_is_a_step_and_its_rack_is_free_play() -> None:
    session = practice()
    record = session.set_up(position())
    assert record == SetupRecord(balls=CUT, turn=Player.A, in_hand=None, refereed=False)
    assert session.records == [record] and session.phase is MatchPhase.RACK
    assert session.rack is not None and not session.rack.refereed
    shot = session.shoot(POT)
    assert "3" not in session.rack.balls and not shot.ruling.foul
    assert session.rack.shooter is Player.A  # the same player shoots again
    scratch = session.shoot(SCRATCH)
    assert scratch.ruling.ball_in_hand is BallInHand.ANYWHERE
    assert session.phase is MatchPhase.RACK  # the rack never ends by itself


def test_take_it_again_returns_to_the_set_up_position() -> None:
    session = practice()
    session.set_up(position())
    first = session.shoot(SCRATCH)
    taken = session.take_back()
    assert taken is first and session.rack is not None
    assert session.rack.balls == CUT and session.rack.ball_in_hand is None
    session.shoot(POT)  # the attempt that counts now; the first stays a branch
    assert session.branched and len(session.lines()) == 2


def test_the_table_set_up_again_after_shots_is_another_step() -> None:
    session = practice()
    session.set_up(position())
    session.shoot(POT)
    again = position(balls={"9": (0.6, 1.5)}, in_hand="anywhere", turn=Player.B)
    session.set_up(again)
    assert session.match.rack_number == 2
    assert session.rack is not None and CUE not in session.rack.balls
    assert session.rack.ball_in_hand is BallInHand.ANYWHERE and session.rack.shooter is Player.B
    record = session.shoot(
        Stroke(action=CueAction(speed=1.0, aim=90.0), placement=(1.1, 0.3))  # anywhere
    )
    assert record.rack == 2 and not record.ruling.foul
    assert [type(r).__name__ for r in session.records] == [
        "SetupRecord",
        "ShotRecord",
        "SetupRecord",
        "ShotRecord",
    ]


def test_with_the_referee_on_the_game_rules_from_the_position() -> None:
    session = practice()
    session.set_up(
        position(balls={CUE: (0.6, 0.4), "3": (0.18, 2.18), "1": (1.0, 2.0)}, turn=Player.B),
        refereed=True,
    )
    assert session.rack is not None and session.rack.refereed
    assert session.rack.shooter is Player.B
    # The 3 first, not the lowest (the 1): a foul; Ann has ball in hand.
    record = session.shoot(Stroke(action=CueAction(speed=2.0, aim=97.0)))
    assert record.ruling.foul and record.ruling.next_shooter is Player.A


def test_a_refereed_rack_won_ends_the_session_match() -> None:
    session = practice()
    session.set_up(position(balls={CUE: (0.36, 1.82), "9": (0.18, 2.18)}), refereed=True)
    session.shoot(POT)
    assert session.phase is MatchPhase.OVER and session.winner() is Player.A
    session.set_up(position())  # set up again: play goes on
    assert session.phase is MatchPhase.RACK


def test_a_position_of_another_game_or_table_is_refused() -> None:
    session = practice()
    with pytest.raises(GameError, match="this table plays 9-ball"):
        session.set_up(position(game="ten-ball"))
    with pytest.raises(GameError, match="8ft table"):
        session.set_up(position(table="8ft"))
    assert session.records == [] and session.changes == 0


def test_redo_rebuilds_a_session() -> None:
    session = practice()
    session.set_up(position())
    session.shoot(POT)
    copy = practice()
    for record in session.records:
        copy.redo(record)
    assert copy.match == session.match


def test_the_steps_of_a_session_in_words() -> None:
    from sim.play.said import record_line

    session = practice()
    setup = session.set_up(position(in_hand="anywhere", balls={"3": (0.18, 2.18)}))
    assert record_line(setup, session.setup) == (
        "The table is set up, referee off: Ann has ball in hand anywhere."
    )
    shot = session.shoot(Stroke(action=POT.action, placement=CUT[CUE]))
    assert not shot.refereed
    assert record_line(shot, session.setup) == "The 3 drops in the foot-left corner."
