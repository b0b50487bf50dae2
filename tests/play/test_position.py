"""Positions: a position is always one the table can play, or it says which ball is wrong
and why; the position before any shot of a played game is one; and the referee takes it
up with whose turn and the cue ball in hand as it says."""

from __future__ import annotations

import random

import pytest

from rules import CUE, BallInHand, Phase, Player, TenBall
from sim.physics.simulate import PLACEMENT_GAP, CueAction, aim_towards
from sim.physics.table import BALL_RADIUS, table_spec
from sim.play.game import Game, GameSetup, ShotRecord, Stroke
from sim.play.position import Position, PositionError, position_before
from sim.play.selfplay import play_turn

pytestmark = pytest.mark.physics
R = BALL_RADIUS
GEOMETRY = table_spec("9ft").geometry
FOOT = GEOMETRY.foot_spot


def position(balls: dict[str, tuple[float, float]], **changes: object) -> Position:
    made: dict[str, object] = {"game": "ten-ball", "table": "9ft", "turn": "A", "balls": balls}
    return Position(**(made | changes))  # type: ignore[arg-type]


def test_a_position_and_the_referee_state_it_gives() -> None:
    taken = position({CUE: (0.635, 0.5), "1": FOOT, "10": (0.3, 2.0)}, turn="B")
    state = taken.state()
    assert isinstance(state, TenBall) and state.shooter is Player.B
    assert state.ball_in_hand is None and state.phase is Phase.PLAY
    assert dict(state.balls) == dict(taken.balls)
    in_hand = position({CUE: (0.6, 0.3), "1": FOOT}, in_hand="kitchen")
    state = in_hand.state()
    assert state.ball_in_hand is BallInHand.KITCHEN and CUE not in state.balls
    assert position({"1": FOOT}, in_hand="anywhere").state().ball_in_hand is BallInHand.ANYWHERE


BAD: list[tuple[str, dict[str, tuple[float, float]], dict[str, object], str, str]] = [
    (
        "overlapping",
        {CUE: (0.6, 0.5), "1": FOOT, "2": (FOOT[0] + R, FOOT[1])},
        {},
        "balls.1",
        "the 1 overlaps the 2",
    ),
    ("into-a-cushion", {CUE: (0.6, 0.5), "3": (0.01, 1.0)}, {}, "balls.3", "overlaps a cushion"),
    ("off-the-table", {CUE: (0.6, 0.5), "3": (5.0, 1.0)}, {}, "balls.3", "is off the table"),
    (
        "in-hand-off-the-bed",
        {CUE: (0.02, 1.27)},
        {"in_hand": "anywhere"},
        "balls.cue",
        "the cue ball in hand: not on the bed",
    ),
    ("not-of-the-game", {CUE: (0.6, 0.5), "12": FOOT}, {}, "balls.12", "not a ball of 10-ball"),
    (
        "touching-a-cushion",
        {CUE: (0.6, 0.5), "4": (R, 1.0)},
        {},
        "balls.4",
        "the 4 touches a cushion: pooltool would let it pass through",
    ),
    (
        "touching-a-ball",
        {CUE: (0.6, 0.5), "5": FOOT, "6": (FOOT[0] + 2 * R, FOOT[1])},
        {},
        "balls.5",
        "the 5 touches the 6",
    ),
    ("no-cue-ball", {"1": FOOT}, {}, "balls.cue", "missing"),
    (
        "in-hand-past-the-string",
        {CUE: (0.6, 1.0), "1": FOOT},
        {"in_hand": "kitchen"},
        "balls.cue",
        "place it behind the head string",
    ),
    ("unknown-game", {CUE: (0.6, 0.5)}, {"game": "snooker"}, "game", "unknown game"),
]


@pytest.mark.parametrize(
    ("name", "balls", "changes", "key", "words"), BAD, ids=[case[0] for case in BAD]
)
def test_a_position_the_table_cannot_play_names_the_ball(
    name: str,
    balls: dict[str, tuple[float, float]],
    changes: dict[str, object],
    key: str,
    words: str,
) -> None:
    with pytest.raises(PositionError) as refused:
        position(balls, **changes)
    assert refused.value.key == key and words in refused.value.problem, refused.value
    assert "\n" not in str(refused.value)


def test_just_clear_of_a_cushion_and_a_ball_is_a_position() -> None:
    gap = PLACEMENT_GAP + 1e-6
    taken = position({CUE: (R + gap, 1.0), "1": FOOT, "2": (FOOT[0] + 2 * R + gap, FOOT[1])})
    assert len(taken.balls) == 3
    # An object ball may hang in a side pocket's mouth, past the nose line, as shots leave them.
    assert position({CUE: (0.6, 0.5), "3": (R / 2, GEOMETRY.length / 2)}).balls["3"][0] < R


def test_the_position_before_every_shot_of_a_played_game_is_one() -> None:
    """Balls frozen on a rail or to each other after real shots, cue balls in hand: the
    position before each shot is one the table plays, the referee's state of that moment
    in it."""
    match = Game(GameSetup(game="rotation", race_to=2, seed=8))
    match.start(Player.B)
    rng = random.Random(8)
    while len(match.shots) < 25:
        play_turn(match, rng)
    for node in match.current.path():
        if not isinstance(node.record, ShotRecord):
            continue
        assert node.parent is not None
        before = node.parent.match.rack
        taken = position_before(match, node)
        assert before is not None and taken.turn is before.shooter
        assert taken.in_hand is before.ball_in_hand
        assert dict(taken.balls) == node.record.simulated.before  # as the physics had them
    with pytest.raises(ValueError, match="before a shot"):
        position_before(match, match.root)


def test_a_cue_ball_placed_where_a_foul_is_called_is_in_hand_not_placed() -> None:
    """B-16 ``bad_placement_policy = foul``: a break from past the head string is played
    and called a foul; the position before it has the cue ball in hand, not there."""
    match = Game(GameSetup(seed=4))
    match.start(Player.A)
    state = match.rack
    assert state is not None
    spot = (0.635, 1.0)
    record = match.shoot(Stroke(action=CueAction(6.0, aim_towards(spot, FOOT)), placement=spot))
    assert record.ruling.foul
    taken = position_before(match, match.current)
    assert taken.in_hand is BallInHand.KITCHEN and CUE not in taken.balls
