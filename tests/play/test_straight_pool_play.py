"""14.1 in the game loop: the re-racks laid by the physics (SP-13..15, SP-18) around the
balls the game says stay, with the physics' clearance and a seed of the match's; a game
played by self-play, saved, reopened and verified bit for bit (tests/data/games)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import attrs
import pytest

from rules import CUE, BallId, BallInHand, Choice, Phase, Player, Ruling
from rules.geometry import Point
from rules.scenarios import load_scenarios
from rules.straight_pool import StraightPool, StraightPoolExtras
from sim.physics.racks import DEFAULT_RACK_GAP, rack_slots
from sim.physics.simulate import CueAction
from sim.play.game import Game, GameSetup, ShotRecord, Stroke, default_race
from sim.store.gamefile import load, save
from sim.store.verify import verify_game
from tests.run import ROOT

SELFPLAY = ROOT / "tests" / "data" / "games" / "selfplay-straight-pool-seed1.poolsim"
SCENARIOS = ROOT / "tests" / "data" / "scenarios" / "straight-pool.json"
SETUP = GameSetup(game="straight-pool", seed=7)
GEOMETRY = SETUP.spec.geometry
DIAMETER = GEOMETRY.ball_diameter


def _racked_cleanly(balls: Mapping[BallId, Point], racked: int) -> None:
    """``racked`` object balls in the triangle's slots (the apex first left empty), each
    the physics' gap from its neighbours, none overlapping another ball."""
    slots = rack_slots(GEOMETRY, StraightPool.rack_pattern(SETUP.options), DEFAULT_RACK_GAP)
    in_slots = [ball for ball, at in balls.items() if at in slots]
    assert len(in_slots) == racked
    if racked == 14:
        assert slots[0] not in balls.values()  # SP-14: the apex left empty
    points = list(balls.values())
    gaps = [math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :]]
    assert min(gaps) == pytest.approx(DIAMETER + DEFAULT_RACK_GAP)


def _scenario_ruling(name: str) -> tuple[StraightPool, Ruling]:
    (scenario,) = [s for s in load_scenarios(SCENARIOS) if s.id == name]
    assert isinstance(scenario.state, StraightPool)
    return scenario.state, scenario.state.rule(scenario.shot)


@pytest.mark.parametrize(
    ("scenario", "moved"),
    [
        ("sp-rerack-break-ball-in-rack-to-head-spot", "ball"),  # SP-15 (c)
        ("sp-rerack-cue-in-rack-ball-behind-head-string", "cue"),  # SP-15 (d)
        ("sp-rerack-cue-in-rack-ball-in-hand-kitchen", "in hand"),  # SP-15 (d)
    ],
)
def test_sp_15_the_physics_racks_fourteen_around_the_balls_that_stay(
    scenario: str, moved: str
) -> None:
    """The ruling says where the break ball and the cue ball go (kept, or moved to a spot
    or to hand); the physics lays the fourteen others in the triangle without its apex,
    the gap between neighbours, shuffled by the seed (the same seed, the same rack)."""
    state, ruling = _scenario_ruling(scenario)
    staying = StraightPool.reracked_around(ruling)
    assert staying is not None
    extras = ruling.extras
    assert isinstance(extras, StraightPoolExtras) and extras.racking is not None
    break_ball = next(b for b in staying if b != CUE)
    assert staying[break_ball] == extras.racking.break_ball
    assert staying.get(CUE) == extras.racking.cue_ball
    if moved == "ball":
        assert extras.racking.break_ball == GEOMETRY.head_spot
    elif moved == "cue":
        assert extras.racking.cue_ball in (GEOMETRY.head_spot, GEOMETRY.centre_spot)
    else:
        assert CUE not in staying and ruling.ball_in_hand is BallInHand.KITCHEN
    balls = SETUP.rerack(1, state.turn + 1, staying)
    assert set(balls) == set(ruling.positions)
    assert {b: balls[b] for b in staying} == dict(staying)
    _racked_cleanly({b: p for b, p in balls.items() if b != CUE}, 14)
    assert balls == SETUP.rerack(1, state.turn + 1, staying)
    assert balls != SETUP.rerack(1, state.turn + 2, staying)  # another step, another shuffle


def test_no_other_game_reracks_within_a_rack() -> None:
    _state, ruling = _scenario_ruling("sp-rerack-break-ball-in-rack-to-head-spot")
    ten = GameSetup().kind
    assert ten.reracked_around(ruling) is None


def test_b_55_the_race_is_the_games_per_match() -> None:
    assert GameSetup(game="straight-pool", race_to=3).options.sp_games_per_match == 3
    assert default_race(StraightPool) == 1 and default_race(GameSetup().kind) == 5


@pytest.mark.physics
def test_a_breaking_foul_reracked_by_the_incoming_player_is_laid_by_the_physics() -> None:
    """SP-4: a break that hits nothing; the incoming player has the fifteen racked for
    the offender to break again: the rack the game plays on is the physics' (the gap),
    not the referee's frozen triangle, and the same on every replay."""
    game = Game(SETUP)
    game.start(Player.A)
    nothing = Stroke(action=CueAction(speed=0.3, aim=180.0), placement=(0.5, 0.5))
    game.shoot(nothing)
    record = game.choose(Choice.RERACK_OTHER)
    state = game.rack
    assert state is not None and state.phase is Phase.BREAK and state.shooter is Player.A
    assert set(state.balls) == set(record.ruling.positions) and CUE not in state.balls
    assert dict(state.balls) != dict(record.ruling.positions)  # the referee's is frozen
    _racked_cleanly(state.balls, 15)
    again = Game(SETUP)
    for step in game.records:
        again.redo(step)
    assert again.match == game.match and again.rack is not None
    assert dict(again.rack.balls) == dict(state.balls)


@pytest.mark.physics
def test_a_committed_selfplay_game_reopens_and_verifies_with_its_rerack(tmp_path: Path) -> None:
    """``poolsim selfplay --game straight-pool --racks 1 --seed 1 --points 20 --save``:
    a game to 20 with a 14-ball re-rack (SP-14, the cue ball from the rack area to hand,
    SP-15 (d)). It reopens as the same game, the shot after the re-rack starts from the
    physics' rack, and every shot re-simulates bit for bit; saved again, it reads the same."""
    game = load(SELFPLAY)
    assert game.setup.options.sp_target_points == 20 and game.winner() is not None
    reracks = [
        index
        for index, shot in enumerate(game.shots)
        if isinstance(shot.ruling.extras, StraightPoolExtras) and shot.ruling.extras.racking
    ]
    assert reracks
    index = reracks[0]
    after = game.shots[index + 1]
    assert isinstance(after, ShotRecord)
    _racked_cleanly({b: p for b, p in after.start.items() if b != CUE}, 14)
    checks = verify_game(game)
    assert checks and all(check.identical for check in checks)
    path = tmp_path / "again.poolsim"
    save(game, path)
    assert load(path).match == game.match


def test_a_position_of_fourteen_one_is_written_read_and_set_up(tmp_path: Path) -> None:
    """``poolsim position`` of the committed game's first shot after its re-rack: the position
    file of 14.1 reads back as it was written, and a practice table set up from it plays
    14.1's rules (every ball on, calls required)."""
    from sim.play.position import position_before
    from sim.store.opening import practice_at
    from sim.store.positionfile import load_position, save_position

    game = load(SELFPLAY)
    racking = next(
        index
        for index, shot in enumerate(game.shots)
        if isinstance(shot.ruling.extras, StraightPoolExtras) and shot.ruling.extras.racking
    )
    node = game.line_shot_nodes(0)[racking + 1]  # the first shot after the re-rack
    position = position_before(game, node)
    path = tmp_path / "fourteen.json"
    save_position(position, path)
    assert load_position(path) == position and position.game == "straight-pool"
    state = position.state()
    assert isinstance(state, StraightPool) and len(state.balls_on) == 15 and state.call_required
    table = practice_at(attrs.evolve(game.setup, practice=True), position).rack
    assert table is not None
    assert dict(table.balls.without(CUE)) == dict(position.balls.without(CUE))
