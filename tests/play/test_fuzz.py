"""Fuzzing the real physics and referee together (hypothesis): random cue actions from
random legal positions, in both games. Never raises; every ball is on the table or
pocketed (never lost) and no two balls overlap after any shot, spot or placement; racks
end; a saved game reloads and verifies."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rules import CUE, MatchPhase, Player
from rules.facts import OffTable, Pocketing
from rules.geometry import Point
from sim.physics.simulate import MISCUE_LIMIT, PLACEMENT_TOLERANCE, CueAction, simulate_shot
from sim.physics.table import nearest_cushion, table_spec, within_rails
from sim.play.game import Game, GameSetup, Stroke
from sim.play.picker import placements
from sim.play.selfplay import play_turn
from sim.store.gamefile import load, save
from sim.store.verify import verify_game

pytestmark = pytest.mark.physics
SPEC = table_spec()
R = SPEC.ball_radius
TABLE = SPEC.build()
# Shrinking re-runs whole matches of physics for minutes; the failing example is printed
# unshrunk instead.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@st.composite
def cue_actions(draw: st.DrawFn) -> CueAction:
    radius = draw(st.floats(0.0, MISCUE_LIMIT))
    angle = draw(st.floats(0.0, 2 * math.pi))
    return CueAction(
        speed=draw(st.floats(0.3, 9.0)),
        aim=draw(st.floats(0.0, 360.0)),
        elevation=draw(st.sampled_from([0.0, 0.0, 0.0, 5.0, 25.0])),
        a=radius * math.cos(angle),
        b=radius * math.sin(angle),
    )


def assert_apart_and_on_the_table(balls: dict[str, Point], touching: float = 1e-6) -> None:
    """On the table (a ball may rest in a pocket's mouth, past a cushion's nose line, but
    never into a cushion) and no two balls overlapping by more than ``touching``."""
    for ball, point in balls.items():
        assert within_rails(SPEC.geometry, point), (ball, point)
        assert nearest_cushion(TABLE, point)[0] >= R - 1e-6, (ball, point)
    for (a, p), (b, q) in itertools.combinations(balls.items(), 2):
        assert math.dist(p, q) >= 2 * R - touching, (a, b, math.dist(p, q))


def assert_every_ball_accounted_for(match: Game) -> None:
    state = match.rack
    assert state is not None
    number = match.match.rack_number
    gone: set[str] = set()
    for record in match.shots:
        if record.rack == number:
            gone |= set(record.ruling.pocketed)
    on_table = set(state.balls.object_balls)
    assert not on_table & gone
    if not state.is_over:
        assert on_table | gone == set(state.object_balls)
    # The referee counts balls within contact_epsilon as touching (GEN-4: a spot that
    # close is free); the physics eases apart more than that, so play always goes on.
    assert state.options.contact_epsilon < PLACEMENT_TOLERANCE
    assert_apart_and_on_the_table(dict(state.balls), touching=state.options.contact_epsilon + 1e-9)
    for record in match.shots[-1:]:
        for ball, point in record.ruling.spotted.items():  # a spot is always on the bed
            assert SPEC.geometry.on_bed(point), (ball, point)


@settings(
    max_examples=5, phases=NO_SHRINK, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    game=st.sampled_from(["ten-ball", "rotation", "eight-ball"]),
    seed=st.integers(0, 2**20),
    strokes=st.lists(cue_actions(), min_size=1, max_size=10),
    picks=st.randoms(use_true_random=False),
)
def test_random_strokes_through_whole_racks(
    game: str,
    seed: int,
    strokes: list[CueAction],
    picks: random.Random,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    match = Game(GameSetup(game=game, race_to=2, seed=seed))
    match.start(Player.A)
    for action in strokes:
        if match.phase is not MatchPhase.RACK:
            break
        state = match.rack
        assert state is not None
        if state.pending is not None:
            match.choose(picks.choice(sorted(state.pending.choices)))
        else:
            placement = None
            if state.ball_in_hand is not None:
                placement = placements(state, SPEC, picks)[0]
            record = match.shoot(Stroke(action=action, placement=placement))
            gone = {f.ball for f in record.simulated.facts if isinstance(f, Pocketing | OffTable)}
            assert set(record.simulated.after) | gone == set(record.start)
            assert_apart_and_on_the_table(
                {b: p for b, p in record.simulated.after.items() if b not in gone}
            )
        if match.phase is MatchPhase.RACK:
            assert_every_ball_accounted_for(match)
    # The rack ends when played on (the picker, then the three/four-foul limit, bound it).
    number = match.match.rack_number
    for _ in range(400):
        if match.phase is not MatchPhase.RACK or match.match.rack_number != number:
            break
        play_turn(match, picks)
        if match.phase is MatchPhase.RACK:
            assert_every_ball_accounted_for(match)
    else:
        pytest.fail("the rack did not end in 400 steps")
    path = Path(tmp_path_factory.mktemp("fuzz")) / "game.poolsim"
    save(match, path)
    reloaded = load(path)
    assert reloaded.match == match.match
    assert all(check.identical for check in verify_game(reloaded))


@st.composite
def layouts(draw: st.DrawFn) -> dict[str, Point]:
    """The cue ball and up to 15 object balls at random spots clear of each other."""
    count = draw(st.integers(1, 15))
    rng = draw(st.randoms(use_true_random=False))
    margin = R + 2e-4
    balls: dict[str, Point] = {}
    for ball in [CUE, *(str(n) for n in range(1, count + 1))]:
        for _ in range(200):
            point = (
                rng.uniform(margin, SPEC.width - margin),
                rng.uniform(margin, SPEC.length - margin),
            )
            if all(math.dist(point, q) > 2 * R + 2e-4 for q in balls.values()):
                balls[ball] = point
                break
    return balls


@settings(max_examples=25, deadline=None, phases=NO_SHRINK)
@given(balls=layouts(), action=cue_actions())
def test_any_shot_from_any_legal_position(balls: dict[str, Point], action: CueAction) -> None:
    shot = simulate_shot(SPEC, balls, action)
    gone = {f.ball for f in shot.facts if isinstance(f, Pocketing | OffTable)}
    assert set(shot.after) | gone == set(balls)
    assert not set(shot.after) & gone
    assert_apart_and_on_the_table(shot.after)
    times = [f.t or 0.0 for f in shot.facts]
    assert times == sorted(times)
