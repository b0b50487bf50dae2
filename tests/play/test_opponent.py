"""The computer player (sim.play.opponent): its levels' noise, and a decision for each
kind of turn the rules give a player, asked of small positions so each is quick."""

from __future__ import annotations

import math
import pickle
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest

from rules import (
    CUE,
    BallInHand,
    Choice,
    Declaration,
    EightBall,
    GameState,
    NineBall,
    Options,
    Phase,
    Player,
    PocketId,
    Rotation,
    Shot,
    StraightPool,
    Tally,
    TenBall,
)
from rules.facts import Pocketing
from rules.rack import PractisedBreak
from rules.state import Decision
from sim.physics.simulate import MISCUE_LIMIT, CueAction, aim_towards, simulate_shot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.table import table_spec
from sim.play.game import Game, GameSetup, Stroke, shot_of
from sim.play.geometry.pots import pots, rail_lines, two_rail
from sim.play.opponent import (
    Kind,
    Move,
    Noise,
    ThinkRequest,
    decide,
    level_named,
    settings,
    think,
)
from sim.play.opponent.judge import IN_HAND_FLOOR, MISS, RUN_BOUNDS, Judge
from sim.play.opponent.levels import LEVEL_NAMES, Level
from sim.play.opponent.player import BREAK_RACK, SAFETY_BAR
from sim.play.opponent.search import BANK_PLANNED_CAP, MISSED, Scored, Thinker, _mean
from sim.play.opponent.strokes import (
    BREAK_CHOICES,
    Candidate,
    Intent,
    bank_candidates,
    break_candidates,
    pot_candidates,
    practised_break,
    push_candidates,
)
from sim.play.opponent.thinker_process import move_words
from sim.play.stalemate import COMPUTER_OFFERS

pytestmark = pytest.mark.physics
SPEC = table_spec("9ft")
R = SPEC.ball_radius
WIDTH, LENGTH = SPEC.width, SPEC.length
# The 1 a hand's breadth from the top right corner, on the diagonal, the 2 further down
# the table: an easy pot with a next ball to get position on.
EASY = {CUE: (0.75, 1.95), "1": (1.05, 2.25), "2": (0.4, 1.2)}
# The 1 frozen to the foot rail in the middle, the cue ball straight below it far away:
# no pocket can be reached (a cut past 70 degrees along the rail, the side pockets
# behind it), so there is nothing to pot.
NO_POT = {CUE: (WIDTH / 2, 0.6), "1": (WIDTH / 2, LENGTH - R - 0.002), "2": (0.3, 1.0)}


def state_of(
    kind: type[GameState], balls: dict[str, tuple[float, float]], **fields: object
) -> GameState:
    fields = {"phase": Phase.PLAY, **fields}
    return kind(balls=balls, table=SPEC.geometry, **fields)  # type: ignore[arg-type]


def rng(seed: int = 1) -> np.random.Generator:
    return np.random.default_rng(seed)


def same(a: Move, b: Move) -> bool:
    """Two moves alike but for how long they took to think."""
    return attrs.evolve(a, seconds=0.0) == attrs.evolve(b, seconds=0.0)


# -- the levels ---------------------------------------------------------------------------


def test_the_levels_run_from_a_beginner_to_perfect() -> None:
    assert LEVEL_NAMES == ("1", "2", "3", "4", "5", "perfect")
    aims = [level_named(name).noise.aim for name in LEVEL_NAMES]
    assert aims == sorted(aims, reverse=True) and aims[-1] == 0.0
    assert level_named(5) == level_named("5")
    with pytest.raises(ValueError, match="unknown level '9'"):
        level_named(9)


def test_fastfiz_noise_at_magnitude_one_is_the_tournaments() -> None:
    noise = Noise.fastfiz(1.0)
    assert (noise.aim, noise.elevation, noise.speed) == (0.125, 0.1, 0.075)
    assert noise.side == noise.height == pytest.approx(0.5e-3 / R)  # 0.5 mm of tip offset


def test_noise_is_the_seeds_and_stays_within_the_cues_limits() -> None:
    action = CueAction(speed=0.3, aim=359.9, elevation=0.0, a=0.45, b=0.2)
    wild = Noise(aim=20.0, elevation=30.0, speed=5.0, side=0.5, height=0.5)
    for seed in range(50):
        struck = wild.perturb(action, rng(seed))
        assert struck == wild.perturb(action, rng(seed))  # same seed, same stroke
        assert struck.speed > 0 and struck.elevation >= 0 and 0 <= struck.aim < 360
        assert math.hypot(struck.a, struck.b) <= MISCUE_LIMIT + 1e-12
    assert Noise().perturb(action, rng()) == action  # the perfect player strikes as meant
    aims = [Noise.fastfiz(1.0).perturb(action, rng(s)).aim for s in range(400)]
    spread = float(np.std([(aim - action.aim + 180) % 360 - 180 for aim in aims]))
    assert spread == pytest.approx(0.125, rel=0.15)


# -- judging without simulating ---------------------------------------------------------


def test_an_easy_pot_is_judged_likelier_for_the_better_player() -> None:
    state = state_of(TenBall, EASY)
    five = Judge(SPEC, level_named("5").noise).shooter_chance(state)
    one = Judge(SPEC, level_named("1").noise).shooter_chance(state)
    assert 0.9 < five <= 1.0 and one < five
    assert Judge(SPEC, Noise()).shooter_chance(state_of(TenBall, NO_POT)) == 0.0


def test_the_better_player_counts_on_running_more_balls() -> None:
    runs = [Judge(SPEC, level_named(name).noise).run for name in LEVEL_NAMES]
    assert runs == sorted(runs) and RUN_BOUNDS[0] <= runs[0] < runs[-1] <= RUN_BOUNDS[1]


def test_the_cue_ball_in_hand_is_worth_more_than_a_hooked_position() -> None:
    """With nothing to pot from the judge's spots, the cue ball in hand is still a
    safety from anywhere: a foul that hands it over is never a cheap way out."""
    judge = Judge(SPEC, level_named("5").noise)
    hooked = state_of(TenBall, NO_POT, shooter=Player.B)
    # The 1 frozen to the foot rail between the 2 and the 3: no spot pots it.
    rail = LENGTH - R - 0.002
    lifted = {
        "1": (WIDTH / 2, rail),
        "2": (WIDTH / 2 - 2.05 * R, rail),
        "3": (WIDTH / 2 + 2.05 * R, rail),
    }
    in_hand = state_of(TenBall, lifted, shooter=Player.B, ball_in_hand=BallInHand.ANYWHERE)
    assert judge.value(hooked, Player.B) == pytest.approx(MISS)
    assert judge.shooter_chance(in_hand) == 0.0
    assert judge.value(in_hand, Player.B) == pytest.approx(IN_HAND_FLOOR) and IN_HAND_FLOOR > MISS
    assert judge.value(in_hand, Player.A) == pytest.approx(1 - IN_HAND_FLOOR)


def test_a_choice_is_judged_by_the_state_the_referee_says_it_leads_to() -> None:
    """After a push out, the incoming player shoots an easy pot and passes a hopeless
    one back (TB-9)."""
    for balls, wanted in ((EASY, Choice.SHOOT), (NO_POT, Choice.PASS)):
        choices = frozenset({Choice.SHOOT, Choice.PASS})
        pending = Decision(chooser=Player.B, choices=choices, offender=Player.A)
        state = state_of(TenBall, balls, shooter=Player.B, pending=pending)
        move = decide(state, SPEC, level_named("4"), rng())
        assert move.kind is Kind.CHOICE and move.choice is wanted and move.stroke is None


# -- deciding ----------------------------------------------------------------------------


def test_an_easy_pot_is_called_and_made_with_a_shot_left_on_the_next_ball() -> None:
    state = state_of(TenBall, EASY)
    move = decide(state, SPEC, level_named("perfect"), rng())
    assert move.kind is Kind.POT and (move.target, move.pocket) == ("1", "rt")
    assert move.stroke is not None and move.stroke == move.plan  # no noise
    assert move.stroke.call is not None and move.stroke.call.ball == "1"
    # Its strokes turned for throw and cut in the forecast: the physics checks a few.
    assert move.candidates >= 12 and 0 < move.simulations < move.candidates
    after = state.push(_shot(state, move))
    assert after.shooter is Player.A and "1" not in after.balls  # made, and A continues
    assert Judge(SPEC, level_named("5").noise).shooter_chance(after) > 0.5


def test_a_ball_hanging_in_the_jaws_is_a_pot_and_it_is_made() -> None:
    # The 1 past the top right pocket's mouth, as a 14.1 game left the 2 (both players
    # played safe around it for seven shots: sent at the mouth, it would have had to
    # come back out, so no pot was ever seen).
    state = state_of(TenBall, {CUE: (0.595, 0.742), "1": (1.252, 2.524), "2": (0.309, 1.742)})
    found = pots(dict(state.balls), state.balls[CUE], "1", SPEC)
    assert [pot.pocket for pot in found] == [PocketId.RT]
    assert (
        Judge(SPEC, level_named("5").noise).pot_chance(found[0], state.balls[CUE], state.balls)
        > 0.99
    )
    move = decide(state, SPEC, level_named("perfect"), rng())
    assert move.kind is Kind.POT and (move.target, move.pocket) == ("1", "rt")
    assert "1" not in state.push(_shot(state, move)).balls


def test_a_ball_on_a_rail_is_potted_along_it() -> None:
    # The 1 on the left rail a hand's breadth from the top left pocket (as a 14.1 game
    # left the 9): the line to the mouth, a little in from the rail, put the ghost ball
    # a couple of millimetres past the rail line, so no pot was seen.
    balls = {CUE: (1.031, 0.389), "1": (0.029, 2.395), "10": (1.0, 2.0)}
    (pot,) = pots(balls, balls[CUE], "1", SPEC)
    assert pot.pocket is PocketId.LT and SPEC.geometry.on_bed(pot.ghost)
    action = CueAction(speed=2.0, aim=aim_towards(balls[CUE], pot.ghost))
    facts = simulate_shot(SPEC, balls, action).facts
    assert [(f.ball, f.pocket) for f in facts if isinstance(f, Pocketing)] == [("1", PocketId.LT)]


def test_level_5_also_tries_side_spin_for_position() -> None:
    state = state_of(TenBall, EASY)
    judge = Judge(SPEC, Noise())
    tips = {}
    for name in ("4", "5"):
        search = level_named(name).search
        found = pot_candidates(state, SPEC, judge, search, EASY[CUE], None, 1)
        tips[name] = {(c.stroke.action.a, c.stroke.action.b) for c in found}
        assert len(found) == len(search.speeds) * len(tips[name])
    assert {a for a, _ in tips["4"]} == {0.0}
    assert {a for a, _ in tips["5"]} == {-0.3, 0.0, 0.3}


def test_the_same_seed_makes_the_same_move_and_a_request_crosses_processes() -> None:
    state = state_of(TenBall, EASY)
    level = level_named("3")
    first = decide(state, SPEC, level, np.random.default_rng(np.random.SeedSequence([7, 1])))
    request = pickle.loads(pickle.dumps(ThinkRequest(state, "9ft", "3", (7, 1))))
    assert same(first, think(request))
    assert first.stroke != first.plan  # level 3 strikes with noise


def test_with_nothing_to_pot_it_plays_a_declared_safety() -> None:
    state = state_of(TenBall, NO_POT)
    move = decide(state, SPEC, level_named("3"), rng())
    assert move.kind in (Kind.SAFETY, Kind.KICK)
    assert move.stroke is not None and move.stroke.call is None
    assert move.stroke.declaration is Declaration.SAFETY


def test_hooked_it_kicks_off_a_rail() -> None:
    """Two balls side by side between the cue ball and the 1: no straight line reaches
    any part of the 1."""
    balls = {
        CUE: (WIDTH / 2, 0.5),
        "1": (WIDTH / 2, 1.6),
        "2": (WIDTH / 2 - 1.05 * R, 0.62),
        "3": (WIDTH / 2 + 1.05 * R, 0.62),
    }
    move = decide(state_of(TenBall, balls), SPEC, level_named("2"), rng())
    assert move.kind is Kind.KICK


def test_a_two_rail_path_leaves_each_rail_at_the_angle_it_came() -> None:
    """The ball on mirrored in the second rail line, then in the first: the path meets
    the first line, then the second, and at each the angle out is the angle in."""
    geometry = SPEC.geometry
    left, _right, _head, foot = rail_lines(geometry)
    cue, ball = (0.9, 0.4), (0.3, 0.6)
    path = two_rail(cue, ball, foot, left)  # up the table to the foot rail, then across
    assert path is not None
    image, first, second = path
    assert first[1] == pytest.approx(foot[1]) and second[0] == pytest.approx(left[1])
    legs = [(cue, first), (first, second), (second, ball)]
    slopes = [(b[0] - a[0], b[1] - a[1]) for a, b in legs]
    assert slopes[0][0] / slopes[0][1] == pytest.approx(-slopes[1][0] / slopes[1][1])
    assert slopes[1][1] / slopes[1][0] == pytest.approx(-slopes[2][1] / slopes[2][0])
    assert aim_towards(cue, image) == pytest.approx(aim_towards(cue, first))
    assert 0 < first[0] < geometry.width and 0 < second[1] < geometry.length
    # The ball on and the cue ball on the same side of a rail: no path off it twice.
    assert two_rail(cue, ball, left, left) is None


def test_a_bank_is_a_called_fan_of_strokes_and_one_of_them_drops() -> None:
    """Banks of the 1 off a rail into two corners: each is called, and the simulation
    finds a line of the fan that drops it where called. Level 4 tries none, and a bank
    as planned never stands so high that the safeties are not looked at."""
    balls = {CUE: (0.976, 1.452), "1": (0.61, 1.855), "2": (0.226, 1.713)}
    state = state_of(TenBall, balls)
    judge = Judge(SPEC, level_named("5").noise)
    banks = bank_candidates(state, SPEC, judge, balls[CUE], 2)
    assert banks and all(b.target == "1" and b.stroke.call is not None for b in banks)
    assert {b.stroke.call.pocket for b in banks if b.stroke.call} == {b.pocket for b in banks}

    def drops(bank: Candidate) -> bool:
        shot = simulate_shot(SPEC, state.balls, bank.stroke.action)
        return any(
            isinstance(fact, Pocketing) and (fact.ball, fact.pocket) == ("1", bank.pocket)
            for fact in shot.facts
        )

    assert any(drops(bank) for bank in banks)
    four = level_named("4").search
    assert not [
        c for c in pot_candidates(state, SPEC, judge, four, balls[CUE], None, 4) if not c.pot
    ]
    assert BANK_PLANNED_CAP < SAFETY_BAR


def test_push_outs_are_offered_only_when_the_rules_allow_one() -> None:
    after_break = state_of(TenBall, NO_POT, phase=Phase.AFTER_BREAK)
    assert Declaration.PUSH_OUT in after_break.legal_declarations
    pushes = push_candidates(after_break, NO_POT[CUE], None)
    assert pushes and {c.stroke.declaration for c in pushes} == {Declaration.PUSH_OUT}
    assert push_candidates(state_of(TenBall, NO_POT), NO_POT[CUE], None) == []


def test_with_the_cue_ball_in_hand_it_places_it_where_the_rules_allow() -> None:
    balls = {b: p for b, p in EASY.items() if b != CUE}
    state = state_of(TenBall, balls, ball_in_hand=BallInHand.ANYWHERE)
    move = decide(state, SPEC, level_named("4"), rng())
    assert move.stroke is not None and move.stroke.placement is not None
    assert state.placement_problem(move.stroke.placement) is None
    assert move.kind is Kind.POT


def test_the_break_is_from_the_kitchen_at_the_apex_ball() -> None:
    game = Game(GameSetup(seed=3))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    move = decide(state, SPEC, level_named("5"), rng())
    assert move.kind is Kind.BREAK and move.stroke is not None
    assert move.stroke.placement is not None and move.stroke.call is None
    assert state.placement_problem(move.stroke.placement) is None
    assert move.stroke.action.speed > 7.5


def test_rotation_calls_nothing() -> None:
    move = decide(state_of(Rotation, EASY), SPEC, level_named("2"), rng())
    assert move.kind is Kind.POT and move.stroke is not None
    assert move.stroke.call is None and move.stroke.declaration is None


def test_in_nine_ball_a_combination_into_the_9_is_a_candidate_and_wins() -> None:
    """The 1 straight behind the 9, the 9 a ball's breadth from the top right corner:
    the combination wins the rack (NB-10), and the perfect player sees it."""
    balls = {CUE: (0.75, 1.95), "1": (0.95, 2.15), "9": (1.12, 2.32), "5": (0.3, 0.6)}
    state = state_of(NineBall, balls)
    judge = Judge(SPEC, Noise())
    search = level_named("5").search
    candidates = pot_candidates(state, SPEC, judge, search, balls[CUE], None, search.pots)
    combos = [c for c in candidates if c.pot is not None and c.pot.first == "1"]
    assert combos and {c.target for c in combos} == {"9"}
    move = decide(state, SPEC, level_named("perfect"), rng())
    assert move.kind is Kind.POT and move.stroke is not None and move.stroke.call is None
    result = state.push(_shot(state, move)).outcome()
    assert result is not None and result.winner is Player.A


def test_in_rotation_a_combination_into_any_ball_is_a_candidate_and_scores() -> None:
    """ROT-1, ROT-9: the 2 has no pocket (the 7 sits in its way to the top right corner,
    the rest too far a cut), but it sends the 7 in, worth 7 points; in 9-ball, where only
    the 9 is worth a combination, the same table has none."""
    balls = {CUE: (0.75, 1.95), "2": (0.95, 2.15), "7": (1.12, 2.32), "12": (0.3, 0.6)}
    state = state_of(Rotation, balls)
    assert state.every_pot_scores
    judge = Judge(SPEC, Noise())
    search = level_named("5").search
    candidates = pot_candidates(state, SPEC, judge, search, balls[CUE], None, search.pots)
    combos = [c for c in candidates if c.pot is not None and c.pot.first == "2"]
    assert combos and {c.target for c in combos} == {"7"}
    assert all(c.stroke.call is None for c in combos)
    move = decide(state, SPEC, level_named("perfect"), rng())
    assert move.kind is Kind.POT and move.target == "7"
    assert move_words(move, state).startswith("pot the 7 off the 2 in the foot-right corner")
    ruling = state.rule(_shot(state, move))
    assert "7" in ruling.pocketed and ruling.score[Player.A] >= 7
    assert ruling.next_shooter is Player.A
    nine = state_of(NineBall, {CUE: balls[CUE], "2": balls["2"], "7": balls["7"], "9": (0.3, 0.6)})
    assert not nine.every_pot_scores
    nine_pots = pot_candidates(nine, SPEC, judge, search, balls[CUE], None, search.pots)
    assert not [c for c in nine_pots if c.pot is not None and c.pot.first == "2"]


def test_in_rotation_a_rack_is_judged_by_its_points() -> None:
    """ROT-9: the same table is worth more with more of the 61 scored, and nothing to a
    player the balls left cannot take there (before, a rotation rack was judged by its
    balls alone, the score unseen, as a 10-ball rack is)."""
    spread = ((1.05, 2.25), (0.4, 1.2), (0.3, 0.6), (0.9, 0.5), (0.6, 2.4), (1.1, 1.0))
    balls = {CUE: (0.75, 1.95), **{str(n): p for n, p in enumerate(spread, start=1)}}
    left = sum(range(1, 7))  # 21 points on the table, 99 scored
    judge = Judge(SPEC, level_named("3").noise)
    ahead = state_of(Rotation, balls, score=Tally(52, 47))
    behind = state_of(Rotation, balls, score=Tally(47, 52))
    assert judge.value(ahead, Player.A) > judge.value(behind, Player.A) + 0.1
    race = judge.rack_race(ahead)
    assert race is not None and race.settled is None
    assert race.next == pytest.approx(1 / (left / 6)) and race.needs == pytest.approx(
        9 / (left / 6)
    )
    # A cannot reach 61 with the 21 left, but may clear them all for 60 - 60: a tie,
    # replayed (ROT-10), or won by the last pocketer with B-12's bonus point.
    tie = state_of(Rotation, balls, score=Tally(39, 60))
    clearing = judge.value(tie, Player.A)
    assert 0.0 < clearing < 0.5 and judge.value(tie, Player.B) == pytest.approx(1 - clearing)
    bonus = Options(rotation_tie_rule="bonus_point_last_pocketer_wins")
    won = judge.value(state_of(Rotation, balls, score=Tally(39, 60), options=bonus), Player.A)
    assert won == pytest.approx(2 * clearing)
    assert judge.rack_race(state_of(TenBall, EASY)) is None


def test_in_rotation_the_leader_at_60_still_pots() -> None:
    """ROT-9, ROT-10: at 60 the leader needs one more ball, and the other may still clear
    the table for a tie. Before, the judge took the rack as won at 60, valued every
    stroke alike, and level 5 played safe here (seed 3000, rack 38, B at 60 against 11
    with the 10, 12, 13 and 14 left; the position as it was)."""
    balls = {
        CUE: (0.1325, 1.9121),
        "10": (1.0759, 1.5088),
        "12": (0.1463, 1.8436),
        "13": (0.8581, 0.0473),
        "14": (0.0706, 1.6363),
    }
    state = state_of(Rotation, balls, shooter=Player.B, score=Tally(11, 60))
    judge = Judge(SPEC, level_named("5").noise)
    assert 0.5 < judge.value(state, Player.B) < 1.0
    move = decide(state, SPEC, level_named("perfect"), rng())
    assert move.kind is Kind.POT


def test_a_long_stalemate_is_offered() -> None:
    quiet = state_of(TenBall, NO_POT, quiet_innings=COMPUTER_OFFERS)
    assert decide(quiet, SPEC, level_named("1"), rng()).kind is Kind.STALEMATE


def test_a_finished_rack_has_nothing_to_decide() -> None:
    game = Game(GameSetup(seed=3))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    over = state.declare_stalemate(agreed=True)
    with pytest.raises(ValueError, match="nothing to decide"):
        decide(over, SPEC, level_named("1"), rng())


def _shot(state: GameState, move: Move) -> Shot:
    """The referee's shot for the move, simulated."""
    assert move.stroke is not None
    start = (
        state.balls
        if move.stroke.placement is None
        else state.balls.moved({CUE: move.stroke.placement})
    )
    return shot_of(move.stroke, simulate_shot(SPEC, start, move.stroke.action))


@attrs.frozen(kw_only=True)
class _Unstudied(Rotation):
    """Rotation as a new game is before its break study: no practised break."""

    practised_break: ClassVar[PractisedBreak | None] = None


def test_level_5_plays_the_break_it_practised_and_practises_on_the_rack_without_one() -> None:
    """At every game level 5 plays the break measured over many racks (its
    practised_break), from either side of the kitchen, with no simulation; at a game
    without one (a new game, before its study) it strikes each of the breaks it knows
    with its noise, on a 15-ball rack fewer times than on a 10-ball one, and plays the
    one that leaves it most on average. A lower level breaks the one way it knows,
    without a simulation."""
    five = level_named("5")
    for game in ("ten-ball", "nine-ball", "eight-ball", "rotation"):
        played = Game(GameSetup(game=game, seed=3))
        played.start(Player.A)
        state = played.rack
        assert state is not None and state.practised_break is not None
        move = decide(state, SPEC, five, rng())
        assert move.kind is Kind.BREAK and move.plan is not None
        assert move.simulations == 0 and move.candidates == 0
        assert move.expected == state.practised_break.value
        practised = [practised_break(state, SPEC, side) for side in (-1.0, 1.0)]
        assert move.plan in [c.stroke for c in practised if c is not None]
        assert move.stroke != move.plan  # struck with its noise
        assert same(move, decide(state, SPEC, five, rng()))
        lower = decide(state, SPEC, level_named("4"), rng())
        assert lower.kind is Kind.BREAK and lower.simulations == 0
    rotation = Game(GameSetup(game="rotation", seed=3))
    rotation.start(Player.A)
    assert rotation.rack is not None
    fields: dict[str, Any] = {
        str(f.alias): getattr(rotation.rack, f.name) for f in attrs.fields(Rotation) if f.init
    }
    unstudied = _Unstudied(**fields)
    assert practised_break(unstudied, SPEC, 1.0) is None
    fifteen = decide(unstudied, SPEC, five, rng())
    samples = five.search.break_samples * BREAK_RACK // 15
    assert 0 < samples < five.search.break_samples
    assert fifteen.simulations == len(BREAK_CHOICES) * samples
    sides = (break_candidates(unstudied, SPEC, side) for side in (-1.0, 1.0))
    assert fifteen.plan in [c.stroke for side in sides for c in side]


def test_the_perfect_player_breaks_as_level_5_and_plays_the_rest_exactly() -> None:
    """Struck exactly, one break leaves every rack of a game alike (the racks differ in
    the balls' numbers alone): the perfect player breaks as level 5 does, the practised
    break struck with level 5's noise, so its racks differ as a person's would, and
    strikes every other shot exactly as planned."""
    game = Game(GameSetup(seed=3))
    game.start(Player.A)
    state = game.rack
    assert state is not None
    perfect, five = level_named("perfect"), level_named("5")
    assert perfect.noise.silent and perfect.breaking_noise == five.noise == five.breaking_noise
    move = decide(state, SPEC, perfect, rng())
    practised = [practised_break(state, SPEC, side) for side in (-1.0, 1.0)]
    assert move.kind is Kind.BREAK and move.plan in [c.stroke for c in practised if c]
    assert move.stroke is not None and move.stroke != move.plan
    assert move.stroke.action == decide(state, SPEC, five, rng()).stroke.action  # type: ignore[union-attr]
    shot = decide(state_after_break(game, move), SPEC, perfect, rng())
    assert shot.stroke == shot.plan


def state_after_break(game: Game, move: Move) -> GameState:
    assert move.stroke is not None
    game.shoot(move.stroke)
    state = game.rack
    assert state is not None and not state.is_over and state.pending is None
    return state


@pytest.mark.parametrize("game", ["nine-ball", "eight-ball"])
def test_level_5_plays_the_break_it_practised_at_9_ball_and_8_ball(game: str) -> None:
    """9-ball's diamond and 8-ball's fifteen balls have breaks of their own from the break
    study (each game's practised_break): level 5 plays it with no simulation on the rack
    and expects what the study measured it to leave."""
    match = Game(GameSetup(game=game, seed=3))
    match.start(Player.A)
    state = match.rack
    assert state is not None and state.practised_break is not None
    move = decide(state, SPEC, level_named("5"), rng())
    assert move.kind is Kind.BREAK and move.simulations == 0
    assert move.expected == state.practised_break.value
    practised = [practised_break(state, SPEC, side) for side in (-1.0, 1.0)]
    assert move.plan in [c.stroke for c in practised if c is not None]


def test_a_levels_settings_name_the_break_it_practised(monkeypatch: pytest.MonkeyPatch) -> None:
    """A duel's racks name their levels' settings: level 5's include the practised
    breaks, so racks played before one changed are not counted with new ones, and for a
    game its break alone, so a break found for another game leaves its racks counted; a
    level that does not practise (4) is its noise and search, and a game's safe break,
    which every level plays (14.1's); the perfect player names the practised breaks it
    plays, the noise it breaks with (level 5's) and its forecast."""
    five, four, perfect = (level_named(name) for name in ("5", "4", "perfect"))
    assert settings(four, "ten-ball") == repr(four)
    safe = f"{{'straight-pool': {StraightPool.practised_break!r}}}"
    assert settings(four) == settings(four, "straight-pool") == f"{four!r}, practised breaks {safe}"
    ten_ball = f"{{'ten-ball': {TenBall.practised_break!r}}}"
    assert settings(perfect, "ten-ball") == (
        f"{perfect!r}, practised breaks {ten_ball}, breaking with noise {five.noise!r},"
        " foreseeing 3 strokes a pot"
    )
    before = settings(five)
    assert before.startswith(repr(five)) and "offset=0.25" in before
    for kind in (NineBall, EightBall):  # each game's own break, from its study
        assert f"'{kind.game}': {kind.practised_break!r}" in before
    ten, nine = settings(five, "ten-ball"), settings(five, "nine-ball")
    assert f"{{'ten-ball': {TenBall.practised_break!r}}}" in ten and "nine-ball" not in ten
    assert TenBall.practised_break is not None
    moved = attrs.evolve(TenBall.practised_break, offset=0.3)
    monkeypatch.setattr(TenBall, "practised_break", moved)
    assert settings(five) != before and settings(five, "ten-ball") != ten
    assert settings(five, "nine-ball") == nine


def test_the_lookahead_judges_a_pot_by_the_shot_after_it_too() -> None:
    """Level 5 looks two balls ahead: with the 2 walled in (a ball on its line to every
    pocket), an easy 1 leads nowhere and is worth less than to a judge who sees only the
    1; with the 2 in the open, the shot after next is there and the lookahead takes
    almost nothing off."""
    five = level_named("5")
    judge = Judge.of(SPEC, five)
    plain = Judge(SPEC, five.noise)
    assert judge.lookahead and not plain.lookahead
    assert not Judge.of(SPEC, level_named("4")).lookahead
    middle = (WIDTH / 2, LENGTH / 2)
    walls = {}
    for number, mouth in enumerate(judge.mouths.values(), start=3):
        away = math.dist(middle, mouth)
        walls[str(number)] = (
            middle[0] + 3 * R * (mouth[0] - middle[0]) / away,
            middle[1] + 3 * R * (mouth[1] - middle[1]) / away,
        )
    stuck = state_of(TenBall, {**EASY, "2": middle, **walls})
    assert judge.shooter_chance(stuck) > 0.9 and judge.follow_on(stuck) == 0.0
    assert judge.value(stuck, Player.A) < plain.value(stuck, Player.A) - 0.1
    open_table = state_of(TenBall, {**EASY, "2": middle})
    assert judge.follow_on(open_table) > 0.9
    assert judge.value(open_table, Player.A) == pytest.approx(
        plain.value(open_table, Player.A), abs=0.02
    )


def test_level_5_judges_a_hooked_position_as_its_own_duels_measured_it() -> None:
    """Its safeties that left nothing, judged at 0.65, won half the racks in its duels:
    level 5 judges the player at the table with no pot at 0.45; the lower levels as
    before."""
    hooked = state_of(TenBall, NO_POT, shooter=Player.B)
    five = Judge.of(SPEC, level_named("5"))
    assert five.value(hooked, Player.B) == pytest.approx(level_named("5").search.miss)
    assert five.value(hooked, Player.A) == pytest.approx(1 - level_named("5").search.miss)
    assert MISS < level_named("5").search.miss < IN_HAND_FLOOR
    assert Judge.of(SPEC, level_named("4")).value(hooked, Player.B) == pytest.approx(MISS)


def test_level_5_plays_out_the_next_pot_of_its_best_pots() -> None:
    """The best few pots as planned are valued again by the next pot played out from
    where each leaves the cue ball; the other plain pots are left out, and the rest of
    the candidates (here a bank-free table: none) kept as they were."""
    five = _in_the_physics(level_named("5"))
    state = state_of(TenBall, {**EASY, "3": (0.9, 0.6)})
    thinker = Thinker(state, SPEC, five, rng(), InProcessSimulator())
    found = pot_candidates(state, SPEC, thinker.judge, five.search, EASY[CUE], None, 1)
    planned = thinker.planned(found)
    deep = thinker.deepened(planned)
    assert len(deep) == five.search.deepen
    best = sorted(planned, key=lambda s: -s.hope)[: five.search.deepen]
    assert [d.candidate for d in deep] == [b.candidate for b in best]
    for before, after in zip(best, deep, strict=True):
        assert after.deeper == pytest.approx(after.planned - before.planned)
        assert after.expected == after.planned
        assert 0.0 < after.planned < 1.0
    assert any(d.deeper != 0.0 for d in deep)  # the 2 played out from each landing
    assert Thinker(state, SPEC, level_named("4"), rng(), InProcessSimulator()).deepened(
        planned
    ) == list(planned)  # below level 5, nothing is played out


def test_level_5_screens_its_leading_pots_with_noise_and_plays_out_the_ones_that_hold_up() -> None:
    """The best pots by their hope are each struck a few times with the level's noise
    before any is played out; their strikes are kept (they count in the final mean) and
    the pots played out next are the ones whose strikes held up, not the first of many
    equal plans. Below level 5, and without noise, nothing is screened."""
    five = _in_the_physics(level_named("5"))
    search = five.search
    state = state_of(TenBall, {**EASY, "3": (0.9, 0.6)})
    thinker = Thinker(state, SPEC, five, rng(), InProcessSimulator())
    found = pot_candidates(state, SPEC, thinker.judge, search, EASY[CUE], None, 2)
    planned = thinker.planned(found)
    before = thinker.simulations
    screened = thinker.screened(planned)
    assert 0 < thinker.simulations - before <= search.screen * search.screen_samples
    struck = [s for s in screened if s.strikes]
    assert len(struck) == min(search.screen, len(planned))
    assert {s.candidate for s in struck} == {
        s.candidate for s in sorted(planned, key=lambda s: -s.hope)[: search.screen]
    }
    for item in struck:
        assert len(item.strikes) == search.screen_samples
        assert item.expected == pytest.approx(np.mean([worth for worth, _ in item.strikes]))
    assert len(screened) == len(planned)
    assert {s.candidate for s in screened} == {s.candidate for s in planned}
    deep = thinker.deepened(screened)
    held = sorted(struck, key=lambda s: -s.expected)[: search.deepen]
    assert [d.candidate for d in deep] == [h.candidate for h in held]
    # The final mean counts the screen's strikes with the finalists' own (a strike that
    # drops the pot corrected by what playing out the next pot said).
    final = thinker.tested(deep, finalists=len(deep), samples=2, confirm=0)
    assert {f.candidate for f in final} == {d.candidate for d in deep}
    assert all(len(f.strikes) == search.screen_samples for f in final)
    item = deep[0]
    kept = [worth + (item.deeper if made else 0.0) for worth, made in item.strikes]
    assert _mean(item, [(0.0, False)]).expected == pytest.approx(sum(kept) / (len(kept) + 1))
    for name in ("4", "perfect"):
        other = Thinker(state, SPEC, level_named(name), rng(), InProcessSimulator())
        assert other.screened(planned) == list(planned)


def test_level_5_hopes_less_of_a_hard_pot_than_an_easy_one_with_the_same_leave() -> None:
    """A pot's value as planned is what its drop leaves; level 5 weighs it by how likely
    it is to drop at its own noise (what a miss leaves, MISSED, otherwise) before it
    chooses which pots to strike with noise. Level 4 ranks by the plan alone."""
    easy = Scored(
        Candidate(Intent.POT, Stroke(action=CueAction(speed=1.0, aim=0.0))), 0.9, 0.9, chance=0.98
    )
    hard = attrs.evolve(easy, planned=0.95, expected=0.95, chance=0.4)
    assert hard.planned > easy.planned and hard.hope < easy.hope
    assert hard.hope == pytest.approx(0.4 * 0.95 + 0.6 * MISSED)
    # The 1 on the diagonal a hand's breadth from the corner with the cue ball near; or
    # the 1 mid-table with the cue ball far down it (its plain pots: no banks).
    near = state_of(TenBall, EASY)
    far = state_of(TenBall, {**EASY, CUE: (0.3, 0.3), "1": (0.64, 1.6)})
    chances = {}
    for name, state in (("near", near), ("far", far)):
        five = Thinker(state, SPEC, level_named("5"), rng(), InProcessSimulator())
        found = pot_candidates(
            state, SPEC, five.judge, five.level.search, state.balls[CUE], None, 1
        )
        plain = [c for c in found if c.pot is not None][:3]
        chances[name] = max(s.chance for s in five.planned(plain))
        four = Thinker(state, SPEC, level_named("4"), rng(), InProcessSimulator())
        assert {s.chance for s in four.planned(plain)} == {1.0}
    assert chances["near"] > 0.97 and 0.5 < chances["far"] < chances["near"] - 0.02


def _in_the_physics(level: Level) -> Level:
    """``level`` with every stroke it weighs simulated (no forecast first): the
    physics' half of the search, which level 5's forecast cuts down."""
    return attrs.evolve(level, search=attrs.evolve(level.search, foresee=0))


def test_the_computer_raises_its_cue_over_a_ball_behind_the_cue_ball() -> None:
    """The table raises every stroke over the balls behind the cue ball
    (sim.play.geometry.cueclearance): the computer simulates, plans and strikes its
    strokes raised too, so what it chose is what the table plays. Here the 1 is straight
    in the corner and the 5 lies 7 cm behind the cue ball on that line: a level cue
    would pass through it."""
    from sim.play.geometry.cueclearance import blocking_ball

    pocket, one = (1.27, 2.54), (0.95, 2.2)
    length = math.dist(pocket, one)
    ux, uy = (one[0] - pocket[0]) / length, (one[1] - pocket[1]) / length
    cue = (one[0] + 0.5 * ux, one[1] + 0.5 * uy)
    balls = {CUE: cue, "1": one, "5": (cue[0] + 0.07 * ux, cue[1] + 0.07 * uy), "9": (0.3, 0.6)}
    state = state_of(NineBall, balls)
    radius = SPEC.ball_radius
    level = blocking_ball(cue, aim_towards(cue, one), 0.0, 0.0, 0.0, state.balls, radius)
    assert level == "5"  # the straight pot, struck level, passes through the 5
    move = decide(state, SPEC, level_named("2"), rng())
    assert move.kind is Kind.POT and move.plan is not None and move.stroke is not None
    for stroke in (move.plan, move.stroke):
        action = stroke.action
        assert action.elevation > 0
        assert (
            blocking_ball(cue, action.aim, action.a, action.b, action.elevation, balls, radius)
            is None
        )
