"""The game registry (each game a class that says what kind of game it is) and what a
state says is legal before the stroke: placement (GEN-5, GEN-6), declarations and calls
(GEN-7, TB-4, TB-8, ROT-1, B-10)."""

from __future__ import annotations

from typing import ClassVar

import pytest

from rules import (
    CUE,
    GAMES,
    BallInHand,
    Declaration,
    EightBall,
    NineBall,
    Options,
    Phase,
    Reason,
    Rotation,
    StraightPool,
    TenBall,
    game_kind,
)
from rules.conformance import observed
from rules.geometry import Point
from rules.scenarios import GAME_BEFORE_READERS, GAME_EXPECT_READERS
from rules.state import GameState
from rules.terms import Choice
from tests.rules.builders import (
    FOOT_SPOT,
    OPEN_TABLE,
    ROTATION_RACK,
    TEN_BALL_RACK,
    D,
    call,
    hit,
    nine,
    rail,
    rot,
    shot,
    ten,
)


def test_games_by_name_and_what_each_is() -> None:
    assert {
        "ten-ball": TenBall,
        "nine-ball": NineBall,
        "eight-ball": EightBall,
        "rotation": Rotation,
        "straight-pool": StraightPool,
    } == GAMES
    assert game_kind("ten-ball") is TenBall and game_kind("rotation") is Rotation
    assert game_kind("nine-ball") is NineBall and game_kind("eight-ball") is EightBall
    assert game_kind("straight-pool") is StraightPool
    names = (
        TenBall.display_name,
        NineBall.display_name,
        EightBall.display_name,
        Rotation.display_name,
        StraightPool.display_name,
    )
    assert names == ("10-ball", "9-ball", "8-ball", "61-point rotation", "14.1 continuous")
    assert EightBall.calls_shots and not EightBall.has_push_out and not EightBall.keeps_score
    assert EightBall.has_groups and not any(k.has_groups for k in (TenBall, NineBall, Rotation))
    assert TenBall.calls_shots and TenBall.has_push_out and not TenBall.keeps_score
    assert not NineBall.calls_shots and NineBall.has_push_out and not NineBall.keeps_score
    assert not Rotation.calls_shots and not Rotation.has_push_out and Rotation.keeps_score
    assert StraightPool.calls_shots and not StraightPool.has_push_out and StraightPool.keeps_score


@pytest.mark.parametrize("name", ["snooker", "Ten-Ball", ""])
def test_an_unknown_game_is_a_clear_error(name: str) -> None:
    with pytest.raises(
        ValueError,
        match=r"unknown game .* \(known: ten-ball, nine-ball, eight-ball, rotation, "
        r"straight-pool\)",
    ):
        game_kind(name)


def test_tb_3_rot_3_rack_patterns() -> None:
    """TB-3: the 1 on the apex, the 10 in the middle of the third row. ROT-3 (B-13): the
    1 on the apex, the 15 in the centre, the 2 and the 3 in the back corners."""
    ten_pattern = TenBall.rack_pattern(Options())
    assert [len(row) for row in ten_pattern.rows] == [1, 2, 3, 4]
    ten_slots = ten_pattern.slots
    assert ten_slots[0] == "1" and ten_slots[4] == "10"
    assert sum(ball is None for ball in ten_slots) == 8
    rotation = Rotation.rack_pattern(Options()).slots
    assert len(rotation) == 15
    assert (rotation[0], rotation[4], rotation[10], rotation[14]) == ("1", "15", "2", "3")
    swapped = Rotation.rack_pattern(Options(rotation_rack_2_side="x_high")).slots
    assert (swapped[10], swapped[14]) == ("3", "2")
    loose = Rotation.rack_pattern(Options(rotation_rack_pattern="one_apex_rest_random")).slots
    assert loose[0] == "1" and set(loose[1:]) == {None}


OPEN_NINE = {**{b: p for b, p in OPEN_TABLE.items() if b != "10"}, "9": OPEN_TABLE["10"]}


class TestDeclarationsAndCalls:
    """GEN-7, TB-4, TB-8, TB-13, ROT-1, B-10."""

    def test_tb_4_nothing_is_declared_or_called_on_the_break(self) -> None:
        state = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN)
        assert state.legal_declarations == frozenset()
        assert not state.calls_allowed and not state.call_required

    def test_tb_8_push_out_only_on_the_shot_after_the_break(self) -> None:
        after = ten(OPEN_TABLE, phase=Phase.AFTER_BREAK)
        assert after.legal_declarations == {Declaration.SAFETY, Declaration.PUSH_OUT}
        later = ten(OPEN_TABLE)
        assert later.legal_declarations == {Declaration.SAFETY}
        assert after.calls_allowed and later.calls_allowed

    def test_b_10_a_call_is_required_unless_obvious_shots_count(self) -> None:
        assert ten(OPEN_TABLE).call_required
        relaxed = ten(OPEN_TABLE, options=Options(call_mode="infer_obvious"))
        assert relaxed.calls_allowed and not relaxed.call_required

    def test_the_answers_agree_with_the_referee(self) -> None:
        """A push out outside TB-8 is refused; the declarations offered are accepted."""
        later = ten(OPEN_TABLE)
        assert Declaration.PUSH_OUT not in later.legal_declarations
        with pytest.raises(ValueError, match="TB-8"):
            later.rule(shot(hit(CUE, "2"), rail("2"), declare="push-out"))
        after = ten(OPEN_TABLE, phase=Phase.AFTER_BREAK)
        for declaration in after.legal_declarations:
            after.rule(shot(hit(CUE, "2"), rail("2"), declaration=declaration))

    @pytest.mark.parametrize("phase", [Phase.AFTER_BREAK, Phase.PLAY])
    def test_nb_17_nine_ball_offers_only_the_push_out(self, phase: Phase) -> None:
        """NB-17: no call and no safety; NB-8: the push out after the break."""
        state = nine(OPEN_NINE, phase=phase)
        wanted = {Declaration.PUSH_OUT} if phase is Phase.AFTER_BREAK else set()
        assert state.legal_declarations == wanted
        assert not state.calls_allowed and not state.call_required

    @pytest.mark.parametrize("phase", [Phase.BREAK, Phase.PLAY])
    def test_rot_1_rotation_has_no_declarations_and_no_calls(self, phase: Phase) -> None:
        state = rot(ROTATION_RACK, phase=phase, in_hand=BallInHand.KITCHEN)
        assert state.legal_declarations == frozenset()
        assert not state.calls_allowed and not state.call_required

    def test_nothing_is_declared_while_a_choice_waits(self) -> None:
        """TB-9: after a push out the incoming player chooses before anyone shoots."""
        after = ten(OPEN_TABLE, phase=Phase.AFTER_BREAK)
        pushed = after.push(shot(hit(CUE, "2"), rail("2"), declare="push-out"))
        assert pushed.legal_choices == {Choice.SHOOT, Choice.PASS}
        assert pushed.legal_declarations == frozenset() and not pushed.calls_allowed


class TestPlacementProblem:
    """GEN-5, GEN-6, B-16: one answer for the referee, the window and the shot picker."""

    BALLS: ClassVar[dict[str, Point]] = {"2": (0.3, 1.5), "10": (1.0, 0.6)}

    def test_gen_5_anywhere_on_the_bed_not_on_a_ball(self) -> None:
        state = ten(self.BALLS, in_hand=BallInHand.ANYWHERE)
        assert state.placement_problem((1.2, 2.4)) is None
        assert state.placement_problem((0.3 + D, 1.5)) is None  # frozen to the 2
        assert "overlap the 2" in str(state.placement_problem((0.31, 1.51)))
        assert "not on the bed" in str(state.placement_problem((0.01, 1.0)))
        assert "not on the bed" in str(state.placement_problem((float("nan"), 1.0)))

    def test_not_in_hand(self) -> None:
        assert ten(OPEN_TABLE).placement_problem((0.5, 0.5)) == Reason(
            "GEN-5", "the cue ball is not in hand"
        )

    def test_gen_6_past_the_head_string_is_a_foul_not_a_refusal(self) -> None:
        """Under ``bad_placement_policy = foul`` the referee takes the spot and calls the
        foul; the player asking for a legal spot is told no."""
        state = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN)
        assert state.placement_problem((0.4, 0.6349)) is None
        assert "GEN-6" in str(state.placement_problem((0.4, 0.635)))
        assert state.placement_problem((0.4, 0.7), fouls_allowed=True) is None
        strict = ten(
            TEN_BALL_RACK,
            phase=Phase.BREAK,
            in_hand=BallInHand.KITCHEN,
            options=Options(bad_placement_policy="reject"),
        )
        assert "GEN-6" in str(strict.placement_problem((0.4, 0.7), fouls_allowed=True))

    def test_room_keeps_a_margin_beyond_the_rules(self) -> None:
        state = ten(self.BALLS, in_hand=BallInHand.ANYWHERE)
        assert state.placement_problem((0.3 + D, 1.5), room=1e-3) is not None
        assert state.placement_problem((0.3 + D + 1e-3, 1.5), room=1e-3) is None
        kitchen = ten(TEN_BALL_RACK, phase=Phase.BREAK, in_hand=BallInHand.KITCHEN)
        assert kitchen.placement_problem((0.4, 0.6349), room=1e-3) is not None
        assert kitchen.placement_problem((0.4, 0.633), room=1e-3) is None

    def test_the_referee_refuses_exactly_what_it_says(self) -> None:
        state = ten(self.BALLS, in_hand=BallInHand.ANYWHERE)
        for point in [(0.31, 1.51), (0.01, 1.0), (1.2, 2.4)]:
            problem = state.placement_problem(point, fouls_allowed=True)
            stroke = shot(hit(CUE, "2"), rail("2"), placement=point, call=call("2"))
            if problem is None:
                state.rule(stroke)
            else:
                with pytest.raises(ValueError, match=f"{problem.rule}: {problem.text}"):
                    state.rule(stroke)


@pytest.mark.parametrize("kind", list(GAMES.values()), ids=list(GAMES))
def test_each_games_rulings_carry_the_extras_its_class_names(kind: type[GameState]) -> None:
    """rules.extras: what a game alone decides rides on its rulings, of the type its
    class names in ``extras_type`` (nothing where it names none), on a shot and between
    shots."""
    state = kind.new_rack({"1": FOOT_SPOT})
    missed = state.rule(shot(placement=(0.6, 0.5)))  # a break that hits nothing
    stalemate = state.rule_stalemate(agreed=True)
    for ruling in (missed, stalemate):
        if kind.extras_type is None:
            assert ruling.extras is None
        else:
            assert type(ruling.extras) is kind.extras_type


@pytest.mark.parametrize("kind", list(GAMES.values()), ids=list(GAMES))
def test_each_games_extras_answer_the_scenario_keys_they_name(kind: type[GameState]) -> None:
    """The conformance runner asks a ruling's extras for the game's own ``expect`` keys
    (FORMAT.md "8-ball", "14.1"): each answers exactly the keys its class names, each a
    key the scenario reader reads, and none that every game answers."""
    state = kind.new_rack({"1": FOOT_SPOT})
    ruling = state.rule(shot(placement=(0.6, 0.5)))
    extras = kind.extras_type
    if extras is None:
        assert ruling.extras is None
        return
    assert ruling.extras is not None
    assert tuple(ruling.extras.observed(ruling)) == extras.expect_keys
    assert set(extras.expect_keys) <= set(GAME_EXPECT_READERS)
    assert set(extras.before_keys) <= set(GAME_BEFORE_READERS)
    assert not set(extras.expect_keys) & {"foul", "next_shooter", "score", *extras.unanswered_keys}
    answers = ruling.extras.observed(ruling)
    assert {key: observed(ruling, key) for key in extras.expect_keys} == answers


def test_each_game_says_its_own_words_for_the_scoreboard() -> None:
    """The HUD asks the state (GameState.status_words, player_words): the lowest ball and
    the 9 that wins (NB-10), 8-ball's ball to hit first and each player's group (EB-7,
    EB-8, EB-20), rotation's points and 61 (ROT-9); free play says nothing of them."""
    from rules import Group, Groups, Player, Tally
    from rules.practice import practice_state

    balls = {CUE: (0.6, 0.5), "3": (0.3, 1.6), "9": (1.0, 2.2), "11": (0.9, 1.2), "8": (0.7, 1.3)}
    nine_ball = NineBall(balls={b: balls[b] for b in (CUE, "3", "9")}, phase=Phase.PLAY)
    assert nine_ball.status_words() == ("lowest ball: 3", "the 9 wins")
    assert nine_ball.player_words(Player.A) is None
    stripes = Groups.assigned(Player.A, Group.STRIPES)
    eight = EightBall(balls={b: balls[b] for b in (CUE, "3", "11", "8")}, phase=Phase.PLAY)
    assert eight.status_words() == ("open table: any ball but the 8",)
    taken = EightBall(balls=eight.balls, phase=Phase.PLAY, groups=stripes)
    assert taken.status_words() == ("to hit first: a stripe",)
    assert (taken.player_words(Player.A), taken.player_words(Player.B)) == (
        "stripes · 1 left",
        "solids · 1 left",
    )
    rotation = Rotation(balls={b: balls[b] for b in (CUE, "3", "9")}, score=Tally(38, 20))
    assert rotation.status_words() == ("lowest ball: 3", "61 wins")
    assert rotation.player_words(Player.A) == "38 points · 23 to win"
    for state in (nine_ball, taken, rotation):
        free = practice_state(state)
        assert free.status_words() == () and free.player_words(Player.A) is None
    assert TenBall.short_name() == "10-ball" and Rotation.short_name() == "Rotation"


def test_a_position_keeps_what_only_its_game_has() -> None:
    """EB-7: 8-ball writes its groups into a position and reads them back; the other
    games keep nothing of their own there."""
    from rules import Group, Groups, Player
    from rules.errors import FormatError

    balls = {CUE: (0.6, 0.5), "3": (0.3, 1.6), "11": (0.9, 1.2), "8": (0.7, 1.3)}
    taken = EightBall(balls=balls, groups=Groups.assigned(Player.B, Group.SOLIDS))
    assert taken.position_extras() == {"groups": {"A": "stripes", "B": "solids"}}
    opened = EightBall(balls=balls)
    assert opened.with_position_extras(taken.position_extras()) == taken
    assert opened.with_position_extras({}) == opened
    with pytest.raises(FormatError, match="groups: expected"):
        opened.with_position_extras({"groups": ["solids"]})
    assert EightBall.position_keys == {"groups"}
    assert all(not GAMES[name].position_keys for name in ("ten-ball", "nine-ball", "rotation"))
    assert TenBall(balls={CUE: (0.6, 0.5)}).position_extras() == {}


def test_the_fullest_rack_and_the_practised_break() -> None:
    from rules import DEFAULT_GAME, fullest_rack

    assert len(fullest_rack().object_balls) == max(len(k.object_balls) for k in GAMES.values())
    assert DEFAULT_GAME in GAMES
    # Each game's break study gave it a practised break; 14.1's alone is a safe break.
    breaks = {name: kind.practised_break for name, kind in GAMES.items()}
    assert all(found is not None for found in breaks.values())
    assert [name for name, found in breaks.items() if found and found.safe] == ["straight-pool"]
    assert TenBall.practised_break == breaks["ten-ball"]
    assert Rotation.practised_break == breaks["rotation"]
