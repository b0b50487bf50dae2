"""The computer at 14.1 (issue 32): the safe opening break every level plays, a judge
that values a position in points toward the target, the three-foul danger, and the
break ball left outside the rack area for the re-rack."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest

from rules import (
    CUE,
    GAMES,
    BallInHand,
    GameState,
    Phase,
    Player,
    Rotation,
    StraightPool,
    Tally,
    TenBall,
)
from rules.options import Options
from rules.straight_pool import racked
from sim.physics.simulate import CueAction, simulate_shot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.table import table_spec
from sim.play.game import Game, GameSetup, Stroke, shot_of
from sim.play.opponent import Kind, decide, level_named
from sim.play.opponent.judge import RACK, Judge, inside
from sim.play.opponent.player import SAFETY_BAR, settings
from sim.play.opponent.search import FEWEST_STRIKES, FOUL_COST, MISSED, Scored, Thinker
from sim.play.opponent.strokes import (
    BREAK_SHOT_SPEEDS,
    Candidate,
    Intent,
    pot_candidates,
    practised_break,
    spots,
)
from sim.play.picker import nearest_open

pytestmark = pytest.mark.physics
SPEC = table_spec("9ft")
GEOMETRY = SPEC.geometry
R = SPEC.ball_radius
WIDTH, LENGTH = SPEC.width, SPEC.length
TO_100 = Options(sp_target_points=100)
# The cue ball in the middle of the table inside a ring of six balls: no ball can be hit
# in a straight line (a kick, or a foul), and nothing to pot.
RING = {
    CUE: (WIDTH / 2, 1.0),
    **{
        str(n + 1): (
            WIDTH / 2 + 2.05 * R * math.cos(math.radians(60 * n)),
            1.0 + 2.05 * R * math.sin(math.radians(60 * n)),
        )
        for n in range(6)
    },
}
# An easy pot on the 1 into the top right corner, the 2 down the table.
EASY = {CUE: (0.75, 1.95), "1": (1.05, 2.25), "2": (0.4, 1.2), "3": (0.3, 0.5)}
# The same with a fourth ball out of the way: a pot in the middle of a rack, not yet the
# three-ball end where the break ball is planned (Judge.break_ball_left).
EASY_MID_RACK = {**EASY, "4": (1.1, 0.9)}


def state_of(balls: dict[str, tuple[float, float]], **fields: object) -> StraightPool:
    fields = {"phase": Phase.PLAY, "options": TO_100, **fields}
    return StraightPool(balls=balls, table=GEOMETRY, **fields)  # type: ignore[arg-type]


def fresh_state(game: str) -> GameState:
    match = Game(GameSetup(game=game, seed=1))
    match.start(Player.A)
    assert match.rack is not None
    return match.rack


def fresh_rack(seed: int) -> StraightPool:
    match = Game(GameSetup(game="straight-pool", seed=seed))
    match.start(Player.A)
    state = match.rack
    assert isinstance(state, StraightPool)
    return state


# -- the judge: a game of points -----------------------------------------------------------


def test_a_position_is_worth_the_points_it_leads_to_against_the_target() -> None:
    """The value is the chance of winning the game: it grows with the player's score and
    falls with the other's, a player at the table is ahead of one who is not, and a
    player who has reached the target has won (only 14.1 keeps a game of points)."""
    judge = Judge.of(SPEC, level_named("5"))
    even = judge.value(state_of(EASY), Player.A)
    assert 0.5 < even < 1.0
    assert judge.value(state_of(EASY), Player.B) == pytest.approx(1 - even)
    ahead = judge.value(state_of(EASY, score=Tally(60, 0)), Player.A)
    behind = judge.value(state_of(EASY, score=Tally(0, 60)), Player.A)
    assert behind < even < ahead
    assert judge.value(state_of(RING), Player.A) < even
    assert state_of(EASY).points_to_win(Player.A) == 100
    assert state_of(EASY, score=Tally(-3, 0)).points_to_win(Player.A) == 103


def test_the_third_foul_in_a_row_weighs_on_a_hooked_player_and_helps_the_other() -> None:
    """SP-13: a hooked player on two fouls risks sixteen points with the kick it must
    play, so the position is worth less to it than the same one with no fouls, and more
    to the other player (a safety that leaves the hook is worth playing)."""
    judge = Judge.of(SPEC, level_named("5"))
    clear = state_of(RING)
    warned = state_of(RING, fouls=Tally(2, 0))
    assert warned.foul_penalty(Player.A) == 16 and clear.foul_penalty(Player.A) == 1
    assert judge.foul_risk(warned) > judge.foul_risk(state_of(EASY))
    assert judge.value(warned, Player.A) < judge.value(clear, Player.A) - 0.02
    assert judge.value(warned, Player.B) > judge.value(clear, Player.B) + 0.02


def test_the_search_bars_mean_in_points_what_they_mean_in_a_rack() -> None:
    """The search's bars are a rack game's values (a pot this good, what a miss leaves, a
    foul's cost): the judge's scale takes them to a game of points, whose values sit
    near 0.5, so an easy pot clears the safety bar and a hooked player does not, at any
    score, and a rack game keeps its values exactly (its decisions are unchanged)."""
    for level in ("3", "5"):
        judge = Judge.of(SPEC, level_named(level))
        for score in (Tally(0, 0), Tally(70, 30), Tally(30, 70)):
            scale = judge.scale(state_of(EASY_MID_RACK, score=score))
            bar = scale.at(SAFETY_BAR)
            assert judge.value(state_of(EASY_MID_RACK, score=score), Player.A) > bar
            assert judge.value(state_of(RING, score=score), Player.A) < bar
            assert scale.at(MISSED) < scale.at(judge.miss) < bar
            assert 0 < scale.span * FOUL_COST < FOUL_COST / 2
    ten = TenBall(balls=EASY, table=GEOMETRY, phase=Phase.PLAY)  # type: ignore[arg-type]
    assert judge.scale(ten) == RACK
    assert all(RACK.at(v) == v for v in (SAFETY_BAR, MISSED, -1.0, 0.123456789))


# In hand in the kitchen after a scratch (SP-10): the 1 behind the head string, an easy
# pot into a head corner from there; the 2 and the 3 past the string.
KITCHEN = {"1": (0.3, 0.35), "2": (0.9, 0.95), "3": (0.3, 2.2)}


def test_from_the_kitchen_the_computer_plays_at_no_ball_behind_the_head_string() -> None:
    """SP-10 (WPA 6.11): from the kitchen the first ball hit may not lie behind the head
    string. The state says which balls may be played (``balls_to_play``); the hint (the
    perfect player) shot at the 1 there, a kitchen foul. Its spots, pots and plain hits
    now go past the string, and the same balls with the cue ball where it lies keep every
    ball on (a rotation rack's lowest ball behind the string is no ball to play from there)."""
    state = state_of(KITCHEN, ball_in_hand=BallInHand.KITCHEN)
    assert state.balls_to_play == ("2", "3")
    assert state_of({**KITCHEN, CUE: (0.6, 1.0)}).balls_to_play == ("1", "2", "3")
    on_table = {**KITCHEN, CUE: (0.6, 1.0)}
    rotation = Rotation(balls=on_table, table=GEOMETRY, phase=Phase.PLAY)  # type: ignore[arg-type]
    assert rotation.balls_to_play == ("1",)
    in_hand = Rotation(  # type: ignore[arg-type]
        balls=KITCHEN, table=GEOMETRY, phase=Phase.PLAY, ball_in_hand=BallInHand.KITCHEN
    )
    assert in_hand.balls_to_play == ()
    level = level_named("perfect")
    judge = Judge.of(SPEC, level)
    places = spots(state, SPEC, judge, level.search.spots)
    assert places and all(GEOMETRY.in_kitchen(p) for p in places)
    for place in places:
        found = pot_candidates(state, SPEC, judge, level.search, place, place, level.search.pots)
        assert found and {c.target for c in found} <= {"2", "3"}
        assert nearest_open(state, place, SPEC) != "1"


# -- the safe opening break (SP-3) -----------------------------------------------------------


# Of 8 strikes, at least this many legal and this many with the cue ball back near the
# head rail (the break study: level 5 fouled none of 180 strikes, level 3 35 % of 80).
@pytest.mark.parametrize(("level", "legal_at_least", "home_at_least"), [("5", 7, 6), ("4", 5, 3)])
def test_the_safe_break_is_legal_and_brings_the_cue_ball_back_to_the_head_rail(
    level: str, legal_at_least: int, home_at_least: int
) -> None:
    """Every level plays 14.1's declared break (a thin hit on a back corner ball, no
    simulation on the rack): struck with the level's noise from fresh racks, most are
    legal (SP-3: two object balls and the cue ball to a rail) and leave the cue ball
    near the head rail."""
    strikes = 8
    legal = home = 0
    for seed in range(strikes):
        state = fresh_rack(seed)
        move = decide(state, SPEC, level_named(level), np.random.default_rng(seed))
        assert move.kind is Kind.BREAK and move.simulations == 0 and move.stroke is not None
        assert move.plan in [
            c.stroke for side in (-1.0, 1.0) if (c := practised_break(state, SPEC, side))
        ]
        placed = state.balls.moved({CUE: move.stroke.placement})
        shot = shot_of(move.stroke, simulate_shot(SPEC, placed, move.stroke.action))
        ruling = state.rule(shot)
        after = state.apply(ruling)
        if not ruling.foul:
            legal += 1
            home += after.balls[CUE][1] < LENGTH / 3  # the head rail's third of the table
    assert legal >= legal_at_least and home >= home_at_least


# -- deciding ----------------------------------------------------------------------------------


def test_a_player_on_two_fouls_sees_a_foul_cost_sixteen_points_and_the_table() -> None:
    """The search values a stroke by what the referee's ruling leaves: a stroke that
    fouls is worth far less to a player on two fouls (SP-13: sixteen points) than to one
    on none, far more than the single point's difference."""

    balls = {**EASY, CUE: (0.3, 0.3)}
    miss = Stroke(action=CueAction(speed=2.0, aim=180.0))  # away from every ball: no hit
    worth = {}
    for fouls in (0, 2):
        state = state_of(balls, fouls=Tally(fouls, 0))
        thinker = Thinker(
            state, SPEC, level_named("4"), np.random.default_rng(1), InProcessSimulator()
        )
        (shot,) = thinker.simulate([miss])
        worth[fouls] = thinker.value(miss, shot)
    assert worth[2] < worth[0] - 0.05


def test_with_two_left_the_pot_leaving_the_break_ball_outside_the_rack_is_worth_more() -> None:
    """SP-14: with two balls left the player pots one and leaves the other outside the
    rack area for the break shot: here the 2 beside the rack is the easier pot (a
    short cut into the top right corner), but potting it would leave the 1 in the rack
    area (SP-15 sends it to the head spot, far from the rack), so the search's best pot
    of the 1, struck as planned, is worth more than its best of the 2."""

    balls = {CUE: (0.9, 1.3), "1": (0.64, 2.0), "2": (1.0, 1.85)}
    state = state_of(balls)
    area = state.rack_area()
    assert area is not None and inside(balls["1"], area) and not inside(balls["2"], area, R)
    level = level_named("3")
    thinker = Thinker(state, SPEC, level, np.random.default_rng(2), InProcessSimulator())
    found = pot_candidates(state, SPEC, thinker.judge, level.search, balls[CUE], None, 3)
    best = {
        ball: max(s.planned for s in thinker.planned(found) if s.candidate.target == ball)
        for ball in ("1", "2")
    }
    pot_one, pot_two = (
        thinker.judge.best_pot(state.balls, balls[CUE], "1"),
        thinker.judge.best_pot(state.balls, balls[CUE], "2"),
    )
    assert pot_two[1] > pot_one[1]  # the 2 is the likelier pot
    assert best["1"] > best["2"]


def test_the_safe_opening_break_leaves_no_break_ball_but_a_re_rack_does() -> None:
    """SP-14: the break ball is the one left out of a re-rack of fourteen, the others in
    the rack's places. A safe opening break may leave one ball out with the rest about
    the rack: that ball is no break ball (the scoreboard would ring it, and the judge
    would value a break shot)."""
    state = fresh_rack(3)
    move = decide(state, SPEC, level_named("5"), np.random.default_rng(1))
    assert move.plan is not None and move.plan.placement is not None
    placed = state.balls.moved({CUE: move.plan.placement})
    shot = shot_of(move.plan, simulate_shot(SPEC, placed, move.plan.action))
    after = state.apply(state.rule(shot))
    assert after.break_ball is None and after.marked_balls() == ()
    fourteen = racked(tuple(str(n) for n in range(1, 15)), GEOMETRY, TO_100)
    table = {**fourteen, "15": (1.0, 1.85), CUE: (0.6, 0.5)}
    assert state_of(table).break_ball == "15" and state_of(table).marked_balls() == ("15",)
    x, y = fourteen["3"]
    assert state_of({**table, "3": (x, y + 0.01)}).break_ball is None


def test_the_safe_break_aims_thin_at_the_back_corner_ball_on_the_cue_balls_side() -> None:
    """The break's aim (PractisedBreak's slot, thin, english) from either side of the
    kitchen: the back corner ball on that side, the cue ball's line passing outside its
    centre, and the two sides mirror images; the other games keep the full hit on the
    apex and their breaks' text (a duel's settings name them by it)."""
    state = fresh_rack(4)
    practised = state.practised_break
    assert practised is not None and practised.safe and practised.slot == 14
    right, left = (practised_break(state, SPEC, side) for side in (1.0, -1.0))
    assert right is not None and left is not None
    for candidate, side in ((right, 1.0), (left, -1.0)):
        assert candidate.target is not None and candidate.stroke.placement is not None
        ball = state.balls[candidate.target]
        assert (ball[0] - WIDTH / 2) * side > 3 * R  # a corner of the back row
        assert ball[1] == max(at[1] for at in state.balls.values())
        cue = candidate.stroke.placement
        full = math.degrees(math.atan2(ball[1] - cue[1], ball[0] - cue[0]))
        aim = math.radians(candidate.stroke.action.aim)
        off = (ball[0] - cue[0]) * math.sin(aim) - (ball[1] - cue[1]) * math.cos(aim)
        assert abs(off) == pytest.approx(practised.thin * 2 * R, rel=0.01)  # thin
        assert (candidate.stroke.action.aim - full) * side < 0  # on the outside
    assert right.stroke.placement is not None and left.stroke.placement is not None
    assert right.stroke.placement[0] == pytest.approx(WIDTH - left.stroke.placement[0])
    assert right.stroke.action.aim == pytest.approx(180.0 - left.stroke.action.aim)
    assert "slot" not in repr(TenBall.practised_break)
    assert StraightPool(balls={CUE: (0.5, 0.5)}).points_to_win(Player.A) == 150
    assert TenBall(balls={CUE: (0.5, 0.5)}).points_to_win(Player.A) is None
    assert TenBall(balls={CUE: (0.5, 0.5)}).foul_penalty(Player.A) == 0


def test_a_crowded_table_strikes_each_finalist_fewer_times_within_level_fives_budget() -> None:
    """Level 5's strokes into a 15-ball pack are struck fewer times with noise (each
    pack shot simulates hundreds of ball events: a decision took a minute), never fewer
    than two; with ten object balls, or at level 4, the level's own samples."""
    pack = fresh_rack(3).balls
    balls = {ball: pack[ball] for ball in pack if ball != CUE}
    balls[CUE] = (WIDTH / 2, 0.6)  # straight down the table at the pack
    crowded = state_of(balls)
    five = level_named("5")
    assert five.search.crowded_events > 0
    aims = (88.0, 90.0, 92.0)
    chosen = [
        Scored(
            Candidate(Intent.SAFETY, Stroke(action=CueAction(speed=4.0, aim=aim)), "1"), 0.0, 0.0
        )
        for aim in aims
    ]
    thinker = Thinker(crowded, SPEC, five, np.random.default_rng(1), InProcessSimulator())
    affordable = thinker.affordable(chosen, five.search.samples)
    assert 2 <= affordable < five.search.samples
    struck = thinker._strikes(chosen, five.search.samples)
    assert [len(s) for s in struck] == [affordable] * len(aims)
    assert thinker.strike_events > 0
    # Spent: what is left affords the fewest strikes.
    assert thinker.affordable(chosen, five.search.samples) == FEWEST_STRIKES
    ten = state_of(
        {ball: at for ball, at in balls.items() if ball not in ["11", "12", "13", "14", "15"]}
    )
    for state, level in ((ten, five), (crowded, level_named("4"))):
        plain = Thinker(state, SPEC, level, np.random.default_rng(1), InProcessSimulator())
        assert plain.affordable(chosen, level.search.samples) == level.search.samples


# A long pot for the player at the table: the cue ball in a bottom corner, the 1 past the
# middle of the table, cut into a top pocket (judged at the floor, under half; at level
# 5's own noise, nearly sure).
LONG = {CUE: (0.2, 0.3), "1": (0.8, 1.7), "2": (0.2, 1.6), "3": (1.1, 1.1)}


def test_in_a_game_of_points_the_other_players_chances_are_judged_at_the_players_noise() -> None:
    """A judge's chances are at least the tournaments' noise (AIM_FLOOR), for the position
    a player leaves itself; with ``rival_own_noise``, in a game of points, the other
    player's are judged at the player's own (level 5's makes the long pot far more
    often), so the same position is worth less to a player who leaves it to the other and
    exactly as much to the player at the table. A rack game's values are unchanged, and a
    duel's settings name it for a game of points alone."""
    rivalled = level_named("5")
    assert rivalled.search.rival_own_noise
    five = attrs.evolve(rivalled, search=attrs.evolve(rivalled.search, rival_own_noise=False))
    plain = Judge.of(SPEC, five)
    rival = Judge.of(SPEC, rivalled)
    assert rival.rival is not None and plain.rival is None
    points = state_of(LONG)
    assert rival.value(points, Player.A) == plain.value(points, Player.A)
    # On the judge's scale for the state: a game of points' values sit near 0.5.
    worse = 0.02 * plain.scale(points).span
    assert rival.value(points, Player.B) < plain.value(points, Player.B) - worse
    ten = TenBall(balls=LONG, table=GEOMETRY, phase=Phase.PLAY)  # type: ignore[arg-type]
    assert rival.rival.shooter_chance(ten) > plain.shooter_chance(ten) + 0.3
    for player in Player:
        assert rival.value(ten, player) == plain.value(ten, player)
    # A duel's racks name it, so racks played without it are not counted with new ones.
    assert "its own noise" in settings(rivalled, "straight-pool")
    assert "its own noise" not in settings(rivalled, "ten-ball")
    assert "its own noise" not in settings(five, "straight-pool")
    # A level as noisy as the floor has nothing to judge differently.
    four = level_named("4")
    loud = attrs.evolve(four, search=attrs.evolve(four.search, rival_own_noise=True))
    assert Judge.of(SPEC, loud).rival is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_race_of_points_is_the_game_whose_state_counts_the_points_to_win(game: str) -> None:
    kind = GAMES[game]
    state = fresh_state(game)
    assert kind.points_race == (state.points_to_win(Player.A) is not None)


# Three balls left: the 1 the next pot (short, into the bottom right corner), the 3 on
# the head rail; the 2 beside the rack (a break ball: potted into the top left corner, the
# cue ball goes on into the rack) or out on the side rail (no break shot opens the rack).
THREE_LEFT = {CUE: (0.9, 0.5), "1": (1.1, 0.25), "3": (0.2, 0.15)}
BESIDE_THE_RACK = (0.35, 1.7)
ON_THE_SIDE_RAIL = (1.2, 0.9)


def test_with_three_left_a_break_ball_beside_the_rack_keeps_the_run_going() -> None:
    """The break ball is planned with three balls left: after the next pot one of the
    other two is the key ball and the other the break ball, and the run goes on past the
    re-rack only as far as the best of them can be a break shot (the judge's
    ``break_ball_left``), so the same pot is worth more with a break ball waiting."""
    judge = Judge.of(SPEC, level_named("5"))
    good = state_of({**THREE_LEFT, "2": BESIDE_THE_RACK})
    poor = state_of({**THREE_LEFT, "2": ON_THE_SIDE_RAIL})
    area = good.rack_area()
    assert area is not None
    for state in (good, poor):
        pot = judge.next_pot(state)[0]
        assert pot is not None and pot.ball == "1"
    assert judge.break_ball_left(good.balls, "1", area) > 0.9
    assert judge.break_ball_left(poor.balls, "1", area) < 0.3
    good_run = judge.run_from(good, mine=True)[1]
    poor_run = judge.run_from(poor, mine=True)[1]
    assert poor_run < good_run / 2 and poor_run > 2  # the two balls of this rack still count
    assert judge.value(good, Player.A) > judge.value(poor, Player.A) + 0.02


def test_the_break_shot_is_also_struck_hard_enough_to_open_the_rack() -> None:
    """The break ball (the ball the game marks) is also tried at the break shot's speeds,
    past the pot's plain paces (a soft pot of it leaves the rack closed; seed 24 of the
    tuning games: the strokes tried reached 2.6 m/s, the rack barely moved and a safety
    followed)."""
    fourteen = racked(tuple(str(n) for n in range(1, 15)), GEOMETRY, TO_100)
    state = state_of({**fourteen, "15": (1.0, 1.85), CUE: (0.75, 1.45)})
    assert state.marked_balls() == ("15",)
    level = level_named("5")
    judge = Judge.of(SPEC, level)
    found = pot_candidates(state, SPEC, judge, level.search, state.balls[CUE], None, 6)
    speeds = {c.stroke.action.speed for c in found if c.target == "15"}
    assert set(BREAK_SHOT_SPEEDS) <= speeds
    assert max(speeds - set(BREAK_SHOT_SPEEDS)) < min(BREAK_SHOT_SPEEDS)
