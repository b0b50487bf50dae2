"""The computer player at 8-ball: it pots only its own group (EB-8), calls the 8 once its
group is cleared (EB-11), plays a declared safety on a ball of its group when nothing
pots, and takes the break's choices as the referee says they come out (EB-6)."""

from __future__ import annotations

import numpy as np
import pytest

from rules import CUE, Choice, Declaration, EightBall, Group, Groups, Phase, Player
from rules.state import Decision
from sim.physics.simulate import simulate_shot
from sim.physics.table import table_spec
from sim.play.game import shot_of
from sim.play.opponent import Kind, decide, level_named
from sim.play.opponent.judge import Judge
from sim.play.opponent.strokes import pot_candidates

pytestmark = pytest.mark.physics
SPEC = table_spec("9ft")
R = SPEC.ball_radius
WIDTH, LENGTH = SPEC.width, SPEC.length
SOLIDS_A = Groups.assigned(Player.A, Group.SOLIDS)
# The 9 (a stripe) a hand's breadth from the top right corner, straight in; the 3 (a
# solid) with a pot of its own into the top left corner.
TABLE = {CUE: (0.75, 1.95), "9": (1.05, 2.25), "3": (0.35, 2.2), "8": (0.3, 1.0), "12": (1.0, 0.5)}


def state(balls: dict[str, tuple[float, float]], groups: Groups = SOLIDS_A) -> EightBall:
    return EightBall(balls=balls, table=SPEC.geometry, phase=Phase.PLAY, groups=groups)


def test_eb_8_it_pots_only_balls_of_its_own_group() -> None:
    """EB-8: with the solids, the easy stripe is never a candidate; every call is a solid."""
    judge = Judge(SPEC, level_named("5").noise)
    search = level_named("5").search
    mine = state(TABLE)
    candidates = pot_candidates(mine, SPEC, judge, search, TABLE[CUE], None, search.pots)
    assert candidates and {c.target for c in candidates} == {"3"}
    theirs = state(TABLE, Groups.assigned(Player.A, Group.STRIPES))
    move = decide(theirs, SPEC, level_named("4"), np.random.default_rng(1))
    assert move.kind is Kind.POT and move.stroke is not None
    assert move.stroke.call is not None and move.stroke.call.ball in Group.STRIPES.balls


def test_eb_11_with_its_group_cleared_it_calls_the_eight() -> None:
    balls = {CUE: (0.75, 1.95), "8": (1.05, 2.25), "12": (1.0, 0.5)}
    move = decide(state(balls), SPEC, level_named("perfect"), np.random.default_rng(1))
    assert move.kind is Kind.POT and move.stroke is not None and move.stroke.call is not None
    assert move.stroke.call.ball == "8"
    after = simulate_shot(SPEC, balls, move.stroke.action)
    ruling = state(balls).rule(shot_of(move.stroke, after))
    assert ruling.winner is Player.A


def test_eb_19_with_nothing_to_pot_it_declares_a_safety_on_its_own_ball() -> None:
    """The 3 frozen to the foot rail in the middle, the cue ball far below: no pot."""
    balls = {CUE: (WIDTH / 2, 0.6), "3": (WIDTH / 2, LENGTH - R - 0.002), "10": (0.3, 1.0)}
    move = decide(state(balls), SPEC, level_named("3"), np.random.default_rng(1))
    assert move.kind in (Kind.SAFETY, Kind.KICK) and move.stroke is not None
    assert move.stroke.declaration is Declaration.SAFETY and move.target == "3"


def test_eb_6_it_chooses_among_the_breaks_choices_by_the_referees_outcomes() -> None:
    """After an illegal break the incoming player may shoot or have the balls racked
    again: the choice is one the state offers."""
    waiting = EightBall(
        balls=TABLE,
        table=SPEC.geometry,
        phase=Phase.PLAY,
        shooter=Player.B,
        pending=Decision(
            chooser=Player.B,
            choices=frozenset({Choice.SHOOT, Choice.RERACK, Choice.RERACK_OTHER}),
            offender=Player.A,
            rule="EB-6",
        ),
    )
    move = decide(waiting, SPEC, level_named("4"), np.random.default_rng(1))
    assert move.kind is Kind.CHOICE and move.choice in waiting.legal_choices
    assert CUE in waiting.balls
