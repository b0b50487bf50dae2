"""Property tests: random but well-formed racks, shot by shot, for both games.

Each example plays one rack from the nominal rack with random shot facts, declarations,
placements, resting positions and choices, checking on every ruling that the referee
does not raise, that every ball is accounted for (on the table, pocketed, or spotted
onto the table), that spotted balls neither overlap another ball nor leave the bed, and
that the rack ends within a bound.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    CUE,
    BallInHand,
    Declaration,
    GameState,
    Options,
    Phase,
    PocketId,
    Positions,
    Rotation,
    Ruling,
    Shot,
    TenBall,
)
from rules.facts import Fact, HeadStringCrossing, Hit, OffTable, Pocketing, RailContact, RailName
from rules.geometry import Point
from rules.shot import Call
from tests.rules.builders import ROTATION_RACK, TABLE, TEN_BALL_RACK, D, R

MAX_TURNS = 600
TOLERANCE = 1e-4 + 1e-9  # Options().contact_epsilon
GRID = [
    (x, y)
    for x in [R + 0.01 + 0.075 * i for i in range(int((TABLE.width - 2 * R) / 0.075))]
    for y in [R + 0.01 + 0.075 * j for j in range(int((TABLE.length - 2 * R) / 0.075))]
]

options_strategy = st.builds(
    Options,
    ten_ball_early_pocket=st.sampled_from(["spot_continue", "win"]),
    ten_last_ball_test=st.sampled_from(["after_shot", "at_shot_start", "at_pocket_event"]),
    call_mode=st.sampled_from(["explicit", "infer_obvious"]),
    multi_spot_order=st.sampled_from(["lowest_at_foot_rail", "lowest_nearest_foot_spot"]),
    multi_spot_anchor=st.sampled_from(["foot_rail", "foot_spot_packed"]),
    spot_search_order=st.sampled_from(["behind_then_front", "nearest_either_side"]),
    rotation_foul_option_b=st.sampled_from(["spot-lowest_and_kitchen", "kitchen_only", "both"]),
    rotation_break_foul_respot=st.booleans(),
    push_out_pocketed_balls=st.sampled_from(["stay_down", "respot_all"]),
    require_warning=st.booleans(),
)


def free_point(balls: Positions, rng: random.Random, kitchen: bool) -> Point:
    """A cue-ball placement on the bed touching no ball (in the kitchen if asked)."""
    top = TABLE.head_string_y - 0.001 if kitchen else TABLE.length - R
    candidates = [(rng.uniform(R, TABLE.width - R), rng.uniform(R, top)) for _ in range(40)]
    candidates += [p for p in GRID if p[1] <= top]
    return next(p for p in candidates if all(math.dist(p, q) >= D for q in balls.values()))


def random_shot(state: GameState, rng: random.Random) -> Shot:
    """A well-formed shot: facts naming only balls on the table, consistent resting places."""
    placement = None
    if state.ball_in_hand is not None:
        kitchen = state.ball_in_hand is BallInHand.KITCHEN and rng.random() > 0.03
        placement = free_point(state.balls, rng, kitchen)
    start = state.balls.moved({CUE: placement}) if placement else state.balls
    objects = list(start.object_balls)
    lowest = objects[0]
    facts: list[Fact] = []
    if rng.random() < 0.85:
        facts.append(HeadStringCrossing())
    roll = rng.random()
    if roll < 0.75:
        facts.append(Hit((CUE, lowest)))
    elif roll < 0.95:
        facts.append(Hit((CUE, rng.choice(objects))))
    for _ in range(rng.randrange(4)):
        a, b = rng.sample([CUE, *objects], 2) if len(objects) > 1 else (CUE, lowest)
        facts.append(Hit((a, b)))
    for _ in range(rng.randrange(6)):
        facts.append(RailContact(rng.choice([CUE, *objects]), rng.choice([None, *RailName])))
    rng.shuffle(facts[1:])
    gone: list[str] = []
    for ball in objects:
        if rng.random() < (0.3 if ball == lowest else 0.12):
            facts.append(Pocketing(ball, rng.choice(list(PocketId))))
            gone.append(ball)
        elif rng.random() < 0.02:
            facts.append(OffTable(ball))
            gone.append(ball)
    if rng.random() < 0.07:
        scratches: list[Fact] = [Pocketing(CUE, rng.choice(list(PocketId))), OffTable(CUE)]
        facts.append(rng.choice(scratches))
        gone.append(CUE)
    left = [b for b in start if b not in gone]
    if rng.random() < 0.5:
        resting = Positions(dict(zip(left, rng.sample(GRID, len(left)), strict=True)))
    else:
        resting = Positions({b: start[b] for b in left})
    call, declaration = None, None
    if state.phase is Phase.AFTER_BREAK and rng.random() < 0.3:
        declaration = Declaration.PUSH_OUT
    elif rng.random() < 0.1:
        declaration = Declaration.SAFETY
    elif rng.random() < 0.85:
        made = [f for f in facts if isinstance(f, Pocketing) and f.ball != CUE]
        pick = rng.choice(made) if made and rng.random() < 0.7 else None
        call = Call(pick.ball, pick.pocket) if pick else Call(lowest, rng.choice(list(PocketId)))
    if isinstance(state, Rotation) and rng.random() < 0.05:
        declaration = Declaration.SAFETY  # ignored in rotation (ROT-1)
    return Shot(
        facts=tuple(facts),
        placement=placement,
        call=call,
        declaration=declaration,
        resting=resting,
    )


def check(before: GameState, start_balls: set[str], ruling: Ruling) -> None:
    positions = ruling.positions
    on_table = set(positions.object_balls)
    assert on_table | set(ruling.pocketed) == start_balls, "every ball accounted for"
    assert not on_table & set(ruling.pocketed)
    for ball, point in ruling.spotted.items():
        assert positions[ball] == point
        assert TABLE.on_bed(point), f"the {ball} spotted off the bed at {point}"
        for other, where in positions.items():
            if other != ball:
                reach = D - TOLERANCE
                assert math.dist(point, where) >= reach, f"the {ball} overlaps the {other}"
    if not ruling.rack_over and not ruling.choices and ruling.ball_in_hand is None:
        assert CUE in positions
    assert ruling.reasons


def play_rack(state: GameState, rng: random.Random) -> GameState:
    for _ in range(MAX_TURNS):
        if state.is_over:
            return state
        start_balls = set(state.balls.object_balls)
        if state.pending is not None:
            ruling = state.rule_choice(rng.choice(sorted(state.legal_choices)))
        elif rng.random() < 0.002:
            ruling = state.rule_stalemate()
        else:
            ruling = state.rule(random_shot(state, rng))
        check(state, start_balls, ruling)
        state = state.apply(ruling)
    return state


@pytest.mark.parametrize(
    ("game", "rack"),
    [(TenBall, TEN_BALL_RACK), (Rotation, ROTATION_RACK)],
    ids=["ten-ball", "rotation"],
)
@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), options=options_strategy)
def test_random_racks_never_raise_account_for_every_ball_and_end(
    game: type[GameState], rack: dict[str, Point], rng: random.Random, options: Options
) -> None:
    """GEN-4, GEN-15, TB-16, TB-18, ROT-11, ROT-13, ROT-18, ROT-20: random well-formed
    racks of both games."""
    state = play_rack(game.new_rack(rack, options=options), rng)
    assert state.is_over, "the rack did not end"
