"""The game loop: a match driven over the real physics and the referee; every refused
action raises a clear error and changes nothing."""

from __future__ import annotations

import math
import random

import pytest

from rules import (
    CUE,
    BallInHand,
    Call,
    Choice,
    Declaration,
    MatchPhase,
    Options,
    Phase,
    Player,
    Rotation,
    TenBall,
)
from sim.physics.simulate import CueAction, aim_towards
from sim.play.game import Game, GameError, GameSetup, ShotRecord, Stroke
from sim.play.picker import choose_stroke
from sim.play.selfplay import play_racks, play_turn

pytestmark = pytest.mark.physics


def started(game: str = "ten-ball", seed: int = 4) -> Game:
    match = Game(GameSetup(game=game, race_to=3, seed=seed))
    match.start(Player.A)
    return match


def test_setup_knows_its_games_class_and_racks_its_pattern() -> None:
    """TB-3, ROT-3 with B-13: the set-up's rack follows its game's ``rack_pattern``."""
    assert GameSetup().kind is TenBall and GameSetup(game="rotation").kind is Rotation
    geometry = GameSetup().spec.geometry
    options = Options(rotation_rack_2_side="x_high")
    balls = GameSetup(game="rotation", options=options).rack_up(1, Player.A)
    back_row = sorted(p for p in balls.values() if p[1] > max(q[1] for q in balls.values()) - 1e-9)
    assert balls["3"] == back_row[0] and balls["2"] == back_row[-1]
    assert balls["1"] == geometry.foot_spot


def break_stroke(match: Game) -> Stroke:
    state = match.rack
    assert state is not None
    spot = (0.635, 0.5)
    return Stroke(action=CueAction(8.0, aim_towards(spot, state.balls["1"])), placement=spot)


def snapshot(match: Game) -> tuple[object, int]:
    return (match.match, len(match.records))


def test_setup_racks_are_reproducible_and_differ_by_rack() -> None:
    setup = GameSetup(game="rotation", seed=9)
    assert setup.rack_up(1, Player.A) == setup.rack_up(1, Player.B)
    assert setup.rack_up(1, Player.A) == GameSetup(game="rotation", seed=9).rack_up(1, Player.A)
    assert setup.rack_up(1, Player.A) != setup.rack_up(2, Player.A)
    assert len(setup.rack_up(1, Player.A)) == 15


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "snooker"}, "unknown game"),
        ({"race_to": 0}, "race_to"),
        ({"race_to": 1000}, "race_to"),
        ({"players": ("Ann", "Ann")}, "different names"),
        ({"players": ("", "Bob")}, "player names"),
        ({"table": "6ft"}, "6ft"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_setups_are_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameSetup(**fields)  # type: ignore[arg-type]


def test_a_break_then_play_to_the_end_of_the_rack() -> None:
    match = started()
    record = match.shoot(break_stroke(match))
    assert isinstance(record, ShotRecord)
    assert record.ruling.turn == 0 and record.shooter is Player.A
    assert record.simulated.facts[0].kind == "head-string"
    rng = random.Random(3)
    while match.match.rack_number == 1 and len(match.records) < 300:
        play_turn(match, rng)
    assert match.match.rack_number == 2 or match.phase is MatchPhase.OVER
    assert sum(match.match.racks_won.as_dict().values()) == 1


def test_spotted_balls_are_placed_where_the_ruling_says() -> None:
    """Play until a ruling spots a ball; the next shot simulates it there (eased off
    any frozen neighbour by at most the placement gap)."""
    match = started(seed=11)
    rng = random.Random(5)
    for _ in range(400):
        record = play_turn(match, rng)
        if (
            isinstance(record, ShotRecord)
            and record.ruling.spotted
            and match.phase is MatchPhase.RACK
        ):
            state = match.rack
            assert state is not None
            for ball, point in record.ruling.spotted.items():
                assert state.balls[ball] == point
            if state.pending is None:
                nxt = play_turn(match, rng)
                assert isinstance(nxt, ShotRecord)
                for ball, point in record.ruling.spotted.items():
                    assert math.dist(nxt.simulated.before[ball], point) <= 2e-4
            return
    pytest.fail("no ball was spotted in 400 steps")


class TestRefusedActions:
    def test_shooting_before_the_match_starts(self) -> None:
        match = Game(GameSetup())
        with pytest.raises(GameError, match="no rack is in play"):
            match.shoot(break_stroke(started()))

    def test_break_without_placing_the_cue_ball(self) -> None:
        match = started()
        before = snapshot(match)
        with pytest.raises(GameError, match="in hand"):
            match.shoot(Stroke(action=CueAction(8.0, 90.0)))
        assert snapshot(match) == before

    @pytest.mark.parametrize(
        ("placement", "message"),
        [
            ((0.635, 1.905), "overlap the 1"),
            ((0.01, 0.3), "not on the bed"),
            ((float("nan"), 0.3), "finite"),
        ],
    )
    def test_bad_placements(self, placement: tuple[float, float], message: str) -> None:
        match = started()
        before = snapshot(match)
        with pytest.raises((GameError, ValueError), match=message):
            match.shoot(Stroke(action=CueAction(8.0, 90.0), placement=placement))
        assert snapshot(match) == before

    def test_push_out_outside_the_shot_after_the_break(self) -> None:
        """TB-8: refused once the shot after the break has been played (on the break
        itself TB-4 ignores any declaration)."""
        match = started()
        rng = random.Random(1)
        for _ in range(100):
            state = match.rack
            assert state is not None
            if state.phase is Phase.PLAY and state.pending is None:
                break
            play_turn(match, rng)
        placement = (0.3, 0.3) if state.ball_in_hand else None
        before = snapshot(match)
        with pytest.raises(GameError, match="TB-8"):
            match.prepare(
                Stroke(
                    action=CueAction(2.0, 90.0),
                    placement=placement,
                    declaration=Declaration.PUSH_OUT,
                )
            )
        assert snapshot(match) == before

    def test_calling_a_ball_not_on_the_table(self) -> None:
        match = started()
        match.shoot(break_stroke(match))
        state = match.rack
        assert state is not None and state.pending is None
        gone = (
            next(str(n) for n in range(1, 11) if str(n) not in state.balls)
            if len(state.balls) < 11
            else None
        )
        if gone is None:
            pytest.skip("the break pocketed nothing")
        before = snapshot(match)
        placement = (0.3, 0.3) if state.ball_in_hand else None
        with pytest.raises(GameError, match="not on the table"):
            match.prepare(
                Stroke(
                    action=CueAction(2.0, 90.0),
                    placement=placement,
                    call=Call(ball=gone, pocket="rt"),
                )
            )
        assert snapshot(match) == before

    def test_choosing_when_there_is_no_choice(self) -> None:
        match = started()
        before = snapshot(match)
        with pytest.raises(GameError, match="no choice"):
            match.choose(Choice.PASS)
        assert snapshot(match) == before

    def test_shooting_while_a_choice_is_pending_and_a_stale_shot(self) -> None:
        match = started(seed=2)
        rng = random.Random(8)
        for _ in range(400):
            state = match.rack
            assert state is not None
            if state.pending is not None:
                before = snapshot(match)
                with pytest.raises(GameError, match="must first choose"):
                    match.shoot(Stroke(action=CueAction(2.0, 90.0)))
                assert snapshot(match) == before
                break
            play_turn(match, rng)
        else:
            pytest.fail("no choice came up in 400 steps")
        # A shot prepared for a turn that has passed is refused at commit.
        match.choose(sorted(state.pending.choices)[0])
        state = match.rack
        assert state is not None and state.pending is None
        prepared = match.prepare(choose_stroke(state, match.setup.spec, rng))
        simulated = match.simulate(prepared)
        match.commit(prepared, simulated)
        if match.rack is not None and match.rack.pending is None and not match.rack.is_over:
            before = snapshot(match)
            with pytest.raises(GameError, match="another turn"):
                match.commit(prepared, simulated)
            assert snapshot(match) == before


def test_the_lag_then_the_winner_chooses_the_breaker() -> None:
    """GEN-2, GEN-3: both lags simulated (each ball alone); a replayed lag changes
    nothing; the winner chooses who breaks."""
    match = Game(GameSetup())
    starts = ((0.35, 0.3), (0.92, 0.3))
    for speed in (2.2, 2.4, 2.6, 2.8, 3.0):
        record = match.lag(starts, (CueAction(speed, 90.0), CueAction(speed - 0.05, 90.0)))
        assert record.simulated[0].facts  # it went somewhere
        if record.result.winner is not None:
            break
    else:
        pytest.fail("no lag was won")
    assert match.phase is MatchPhase.BREAKER_CHOICE
    with pytest.raises(GameError, match="not at the lag"):
        match.lag(starts, (CueAction(2.5, 90.0), CueAction(2.5, 90.0)))
    match.choose_breaker(record.result.winner.other)
    state = match.rack
    assert state is not None
    assert state.shooter is record.result.winner.other
    assert state.phase is Phase.BREAK and state.ball_in_hand is BallInHand.KITCHEN


@pytest.mark.parametrize("game", ["ten-ball", "rotation"])
def test_self_play_finishes_racks(game: str) -> None:
    match = Game(GameSetup(game=game, race_to=5, seed=7))
    play_racks(match, 2, random.Random(7))
    assert match.match.rack_number >= 2
    finished = [r for r in match.shots if r.ruling.rack_over]
    assert len(finished) >= 2
    for record in match.shots:
        assert CUE in record.start


def test_same_seed_same_games() -> None:
    first = play_racks(Game(GameSetup(game="rotation", race_to=5, seed=3)), 1, random.Random(3))
    second = play_racks(Game(GameSetup(game="rotation", race_to=5, seed=3)), 1, random.Random(3))
    assert [r.simulated.facts for r in first.shots] == [r.simulated.facts for r in second.shots]
    assert first.match == second.match
