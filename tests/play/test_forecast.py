"""The forecast (sim.play.opponent.forecast): a pot stroke foretold in closed form, held
to pooltool's simulation of the same strokes."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest

from rules import CUE, Phase, PocketId, Positions, Rotation, TenBall
from rules.facts import Hit, Pocketing, RailContact
from sim.physics.facts import first_heading
from sim.physics.pooltool_setup import pt
from sim.physics.simulate import CueAction, aim_towards, simulate_shot
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.table import CushionRebound, pocket_mouths, table_spec
from sim.play.geometry.pots import pots
from sim.play.opponent import Kind, decide, forecast, level_named
from sim.play.opponent.forecast import Forecaster, _Ball, _strike
from sim.play.opponent.levels import CROWDED, Level
from sim.play.opponent.search import Scored, Thinker
from sim.play.opponent.strokes import pot_candidates

SPEC = table_spec("9ft")
MOUTHS = pocket_mouths(SPEC)


@pytest.fixture(scope="module")
def forecaster() -> Forecaster:
    return Forecaster(SPEC, MOUTHS, CushionRebound(SPEC))


def test_its_constants_are_pooltools_defaults() -> None:
    params = pt.objects.BallParams.default()
    cue = pt.Cue.default().specs
    assert (
        params.m,
        params.R,
        params.g,
    ) == (forecast.BALL_MASS, forecast.BALL_RADIUS, forecast.GRAVITY)
    assert (params.u_s, params.u_r) == (forecast.SLIDING_FRICTION, forecast.ROLLING_FRICTION)
    assert params.e_b == forecast.BALL_RESTITUTION
    assert cue.M == forecast.CUE_MASS  # the cue's end mass, squirt's: tests/physics/test_squirt.py
    u_sp = params.u_sp_proportionality * params.R
    assert pytest.approx(5 * u_sp * params.g / (2 * params.R)) == forecast.SPIN_DECAY


# Strokes of the cue ball alone (the 1 out of the way in a corner): rolled, stunned,
# drawn and followed, with side spin either way, up to four cushions.
ALONE = [
    ((0.635, 0.3), 90.0, 0.5, 0.0, 0.0),
    ((0.635, 0.3), 90.0, 0.8, 0.4, 0.0),
    ((0.3, 0.5), 60.0, 1.5, 0.0, 0.0),
    ((0.3, 0.5), 60.0, 2.5, 0.2, 0.0),
    ((0.3, 0.5), 30.0, 2.0, -0.3, 0.0),
    ((0.3, 0.5), 80.0, 4.0, 0.0, 0.0),
    ((0.3, 0.5), 60.0, 2.0, 0.0, 0.3),
    ((0.3, 0.5), 60.0, 2.0, 0.0, -0.3),
]


@pytest.mark.parametrize(("start", "aim", "speed", "b", "a"), ALONE)
def test_the_cue_ball_alone_meets_the_cushions_pooltool_does_and_stops_near_where_it_does(
    forecaster: Forecaster,
    start: tuple[float, float],
    aim: float,
    speed: float,
    b: float,
    a: float,
) -> None:
    action = CueAction(speed=speed, aim=aim, b=b, a=a)
    shot = simulate_shot(SPEC, Positions({CUE: start, "1": (1.2, 0.1)}), action)
    rails = [f.rail for f in shot.facts if isinstance(f, RailContact) and f.ball == CUE]
    v, roll, spin = _strike(action)
    ux, uy = math.cos(math.radians(aim)), math.sin(math.radians(aim))
    ball = _Ball(start[0], start[1], v * ux, v * uy, roll * ux, roll * uy, spin)
    travel = forecaster._cue_ball(ball, {})
    rest = travel.rest
    assert (travel.scratch, travel.kisses) == (None, ())
    assert list(travel.rails) == rails
    # Side spin's squirt and swerve are left out of this straight start, and the cushion
    # is met a millimetre early (the nose is above the ball's equator): within 0.2 m
    # after four cushions, within a centimetre with none.
    assert math.dist(rest, shot.resting[CUE]) < (0.01 if not rails else 0.2)


def _pot_of(balls: dict[str, tuple[float, float]], pocket: PocketId) -> CueAction:
    found = [p for p in pots(balls, balls[CUE], "1", SPEC) if p.pocket is pocket]
    return CueAction(speed=2.0, aim=aim_towards(balls[CUE], found[0].ghost), b=-0.2)


def test_a_pot_aimed_at_the_ghost_ball_drops_and_its_facts_say_so(forecaster: Forecaster) -> None:
    balls = {CUE: (0.6, 1.5), "1": (0.9, 2.2)}
    action = _pot_of(balls, PocketId.RT)
    # Thrown by the draw's friction, the ball passes 2.5 cm off the mouth's centre: still
    # in the pocket (as the physics says below), not where the picker aimed it.
    margin = 0.03
    foretold = forecaster.foresee(Positions(balls), "1", MOUTHS[PocketId.RT], action, margin)
    assert foretold.contact and foretold.drops and foretold.certain
    assert 0.02 < abs(foretold.line_error) < margin
    assert foretold.facts("1", PocketId.RT)[:2] == (Hit((CUE, "1")), Pocketing("1", PocketId.RT))
    shot = simulate_shot(SPEC, Positions(balls), action)
    thrown = first_heading(shot.system, "1")
    assert thrown is not None
    assert abs(foretold.heading - thrown) < 0.01  # degrees: the throw is pooltool's
    assert ("1", PocketId.RT) in [
        (f.ball, f.pocket) for f in shot.facts if isinstance(f, Pocketing)
    ]
    assert foretold.cue is not None
    assert math.dist(foretold.cue, shot.resting[CUE]) < 0.1
    resting = foretold.resting_balls(Positions(balls), "1")
    assert set(resting) == {CUE} and resting[CUE] == foretold.cue


def test_an_aim_off_by_a_degree_misses_the_pocket_and_a_wide_one_misses_the_ball(
    forecaster: Forecaster,
) -> None:
    balls = {CUE: (0.6, 1.5), "1": (0.9, 2.2)}
    action = _pot_of(balls, PocketId.RT)
    off = CueAction(speed=2.0, aim=action.aim + 1.0, b=-0.2)
    foretold = forecaster.foresee(Positions(balls), "1", MOUTHS[PocketId.RT], off, 0.02)
    assert foretold.contact and not foretold.drops
    assert abs(foretold.line_error) > 0.02
    assert foretold.object_rail  # it runs on into the rail by the pocket
    assert RailContact("1") in foretold.facts("1", PocketId.RT)
    wide = CueAction(speed=2.0, aim=action.aim + 20.0)
    assert not forecaster.foresee(Positions(balls), "1", MOUTHS[PocketId.RT], wide, 0.02).contact
    assert (
        forecaster.foresee(Positions(balls), "1", MOUTHS[PocketId.RT], wide, 0.02).facts(
            "1", PocketId.RT
        )
        == ()
    )


def test_a_ball_in_the_cue_balls_way_after_the_contact_is_a_kiss(forecaster: Forecaster) -> None:
    """A ball put where the cue ball would stop is met on the way: it is struck (it
    rolls off on the line of centres), the cue ball stops short of where it would have,
    and the forecast says which ball it met and is not certain."""
    balls = {CUE: (0.6, 1.5), "1": (0.9, 2.2)}
    action = _pot_of(balls, PocketId.RT)
    clear = forecaster.foresee(Positions(balls), "1", MOUTHS[PocketId.RT], action, 0.02)
    assert clear.cue is not None and clear.certain
    kissed = forecaster.foresee(
        Positions({**balls, "2": clear.cue}), "1", MOUTHS[PocketId.RT], action, 0.02
    )
    assert kissed.kisses == ("2",) and not kissed.certain
    assert kissed.cue is not None and math.dist(kissed.cue, clear.cue) <= 2 * SPEC.ball_radius
    assert Hit((CUE, "2")) in kissed.facts("1", PocketId.RT)
    ((moved, rest),) = kissed.moved
    assert moved == "2" and rest != clear.cue  # it was struck on
    assert kissed.resting_balls(Positions({**balls, "2": clear.cue}), "1")["2"] == rest


def test_a_cue_ball_sent_into_a_pocket_is_a_scratch(forecaster: Forecaster) -> None:
    """Straight in with follow: the cue ball follows the 1 into the corner, as pooltool
    has it."""
    mouth = MOUTHS[PocketId.RT]
    ball = (1.0, 2.3)
    back = math.dist(ball, mouth)
    unit = ((ball[0] - mouth[0]) / back, (ball[1] - mouth[1]) / back)
    balls = {CUE: (ball[0] + 0.5 * unit[0], ball[1] + 0.5 * unit[1]), "1": ball}
    action = CueAction(speed=3.0, aim=aim_towards(balls[CUE], ball), b=0.5)
    foretold = forecaster.foresee(Positions(balls), "1", MOUTHS[PocketId.RT], action, 0.02)
    shot = simulate_shot(SPEC, Positions(balls), action)
    assert Pocketing(CUE, PocketId.RT) in [
        Pocketing(f.ball, f.pocket) for f in shot.facts if isinstance(f, Pocketing)
    ]
    assert foretold.drops and foretold.scratch is PocketId.RT
    assert Pocketing(CUE, PocketId.RT) in foretold.facts("1", PocketId.RT)
    assert set(foretold.resting_balls(Positions(balls), "1")) == set()


def test_a_forecast_never_reaches_pooltool() -> None:
    """Not a timing (poolsim bench reports the rate): nothing the forecast module holds
    comes from pooltool, so a forecast is plain Python (the cushion's table is built
    once, by sim.physics)."""
    import inspect

    for name, value in vars(forecast).items():
        module = inspect.getmodule(value)
        assert module is None or not module.__name__.startswith("pooltool"), name


# -- the search with a forecast ----------------------------------------------------------


def _foreseeing(keep: int) -> Level:
    """Level 5 foreseeing ``keep`` strokes a pot (0: none)."""
    five = level_named("5")
    return attrs.evolve(five, search=attrs.evolve(five.search, foresee=keep))


OPEN_TABLE = {CUE: (0.75, 1.95), "1": (1.05, 2.25), "2": (0.4, 1.2), "3": (0.9, 0.6)}


def test_a_search_with_a_forecast_simulates_only_each_pots_best_foretold_strokes() -> None:
    """With ``foresee`` at 4, each pot's strokes, turned for throw in the forecast, and
    foretold to the end, are cut to the 4 the
    forecast values best before the physics sees them; strokes that meet another ball
    after the contact are all kept; the rest of the search is the level's."""
    level = _foreseeing(4)
    state = TenBall(balls=OPEN_TABLE, table=SPEC.geometry, phase=Phase.PLAY)
    thinker = Thinker(state, SPEC, level, np.random.default_rng(1), InProcessSimulator())
    found = pot_candidates(state, SPEC, thinker.judge, level.search, OPEN_TABLE[CUE], None, 2)
    planned = thinker.planned(found)
    kept = {s.candidate.stroke.action.speed for s in planned}
    # Each pot's stroke is foretold to turn it for throw, then to cut: and turned in
    # the forecast, each kept stroke is aimed as the physics wants it (one simulation).
    assert thinker.forecasts > len(found)
    assert thinker.simulations == len(planned)
    by_pot: dict[object, int] = {}
    for item in planned:
        if thinker.foresee(item.candidate).certain:
            key = (item.candidate.target, item.candidate.pocket)
            by_pot[key] = by_pot.get(key, 0) + 1
    assert by_pot and all(count <= 4 for count in by_pot.values())
    assert len(planned) < len(found) and kept
    # The screen strikes the pots foretold to the end in the forecast.
    before = thinker.simulations
    screened = thinker.screened(planned)
    foreseen = [s for s in screened if s.foreseen is not None]
    assert foreseen and all(not s.strikes for s in foreseen)
    # Only the pots that meet another ball are struck in the physics, a strike a shot.
    assert thinker.simulations - before == sum(len(s.strikes) for s in screened)
    # Without a forecast (levels 1 to 4), nothing is foretold.
    plain = Thinker(state, SPEC, level_named("4"), np.random.default_rng(1), InProcessSimulator())
    assert plain.forecaster is None and len(plain.planned(found)) == len(found)
    assert plain.forecasts == 0


def test_a_move_with_a_forecast_is_a_move_the_referee_allows_and_is_the_seeds() -> None:
    state = TenBall(balls=OPEN_TABLE, table=SPEC.geometry, phase=Phase.PLAY)
    level = _foreseeing(8)
    first = decide(state, SPEC, level, np.random.default_rng(3))
    again = decide(state, SPEC, level, np.random.default_rng(3))
    assert attrs.evolve(first, seconds=0.0) == attrs.evolve(again, seconds=0.0)
    assert first.kind is Kind.POT and first.plan is not None


def test_two_balls_collide_as_in_pooltools_frictional_inelastic_model() -> None:
    """The forecast's collision (the cue ball after, the other ball's velocity off it)
    against pooltool's FrictionalInelastic on 300 random contacts: any spin, any angle."""
    from pooltool.physics.resolve.ball_ball.friction import AlciatoreBallBallFriction
    from pooltool.physics.resolve.ball_ball.frictional_inelastic import FrictionalInelastic

    from sim.play.opponent.forecast import _collide

    radius = SPEC.ball_radius
    model = FrictionalInelastic()
    friction = model.friction
    assert isinstance(friction, AlciatoreBallBallFriction)
    assert (friction.a, friction.b, friction.c) == forecast.ALCIATORE
    rng = np.random.default_rng(4)
    for _ in range(300):
        angle = rng.uniform(0, 2 * np.pi)
        n = np.array([np.cos(angle), np.sin(angle)])
        v = rng.normal(0, 2, 2)
        v = v + max(0.0, 0.1 - float(v @ n)) * n  # towards the other ball
        w = rng.normal(0, 60, 3)
        here, there = np.array([0.5, 0.5]), np.array([0.5, 0.5]) + 2 * radius * n
        one, two = pt.Ball.create("cue", xy=tuple(here)), pt.Ball.create("1", xy=tuple(there))
        one.state = pt.objects.BallState(
            np.array([[*here, radius], [*v, 0.0], w]), pt.constants.sliding, 0
        )
        two.state = pt.objects.BallState(
            np.array([[*there, radius], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
            pt.constants.stationary,
            0,
        )
        solved_one, solved_two = model.solve(one.copy(), two.copy())
        ball = _Ball(0.5, 0.5, v[0], v[1], w[1] * radius, -w[0] * radius, w[2])
        after, other = _collide(ball, n[0], n[1])
        spin = np.array([-after.ry / radius, after.rx / radius, after.spin])
        assert np.allclose([after.vx, after.vy], solved_one.state.rvw[1][:2], atol=1e-12)
        assert np.allclose(spin * radius, solved_one.state.rvw[2] * radius, atol=1e-12)
        assert np.allclose(other, solved_two.state.rvw[1][:2], atol=1e-12)


def test_a_level_that_foresees_is_named_so_and_one_that_does_not_as_before() -> None:
    """A duel's racks name each level's settings (sim.play.opponent.settings), and racks
    of other settings are refused: a forecast changes play, so it is named; without one
    the name is as it was before the forecast existed (the committed duels go on)."""
    from sim.play.opponent import settings

    four = level_named("4")
    assert "foresee" not in settings(four)
    ten = "ten-ball"  # a game never crowded: no crowded table's budget named after it
    assert settings(level_named("5"), ten).endswith(", foreseeing 3 strokes a pot")
    foreseeing = settings(_foreseeing(0), ten) + ", foreseeing 8 strokes a pot"
    assert settings(_foreseeing(8), ten) == foreseeing
    crowded = settings(level_named("5"), "straight-pool")
    assert (
        " ball events of noisy strikes a decision with more than 10 object balls on the table,"
        " 10 strokes a pot that meet another ball there, 8 pots screened there"
    ) in crowded


# Twelve object balls a quarter metre apart up the middle of the table, the cue ball
# below the 1: most strokes on the 1 run into another ball after the contact.
CROWDED_TABLE = {
    CUE: (0.62, 0.55),
    **{
        str(n + 1): (0.32 + 0.3 * (n % 3), 0.9 + 0.26 * (n // 3) + 0.07 * (n % 2))
        for n in range(12)
    },
}


def _unsure_by_pot(thinker: Thinker, planned: list[Scored]) -> dict[object, int]:
    """How many of ``planned``'s plain pots' strokes of each pot meet another ball."""
    counts: dict[object, int] = {}
    for item in planned:
        pot = item.candidate.pot
        if (
            pot is not None
            and pot.first == pot.ball
            and not thinker.foresee(item.candidate).certain
        ):
            key = (pot.ball, pot.pocket)
            counts[key] = counts.get(key, 0) + 1
    return counts


def test_a_crowded_table_simulates_fewer_strokes_that_meet_a_ball_and_screens_fewer_pots() -> None:
    """With more than CROWDED object balls, level 5 cuts each pot's strokes foretold to
    run into another ball to its ``crowded_unsure`` best by their forecast before the
    physics, and screens ``crowded_screen`` pots with noise, not ``screen``; with ten
    object balls every such stroke is simulated and ``screen`` pots are screened."""
    five = level_named("5")
    search = five.search
    assert search.crowded_unsure > 0 and 0 < search.crowded_screen < search.screen
    state = Rotation(balls=CROWDED_TABLE, table=SPEC.geometry, phase=Phase.PLAY)
    assert len(state.balls.object_balls) > CROWDED
    cue = CROWDED_TABLE[CUE]

    def planned_by(level: Level, at: Rotation) -> tuple[Thinker, list[Scored]]:
        thinker = Thinker(at, SPEC, level, np.random.default_rng(1), InProcessSimulator())
        found = pot_candidates(at, SPEC, thinker.judge, level.search, cue, None, search.pots)
        return thinker, thinker.planned(found)

    thinker, planned = planned_by(five, state)
    unsure = _unsure_by_pot(thinker, planned)
    assert unsure and max(unsure.values()) <= search.crowded_unsure
    keeping = attrs.evolve(five, search=attrs.evolve(search, crowded_unsure=0))
    wide, every = planned_by(keeping, state)
    assert max(_unsure_by_pot(wide, every).values()) > search.crowded_unsure
    assert wide.simulations > thinker.simulations
    assert len(_screened(thinker, planned)) == search.crowded_screen
    # Ten object balls: not crowded.
    ten = attrs.evolve(state, balls=state.balls.without("11").without("12"))
    thinker, planned = planned_by(five, ten)
    assert len(_screened(thinker, planned)) == min(search.screen, len(_pots(planned)))
    assert len(_pots(planned)) > search.crowded_screen


def _pots(planned: list[Scored]) -> list[Scored]:
    """The pots among ``planned`` that the physics and the rules allow."""
    return [s for s in planned if s.candidate.pot is not None and s.planned >= 0]


def _screened(thinker: Thinker, planned: list[Scored]) -> list[Scored]:
    """The strokes of ``planned`` that the screen struck with noise."""
    return [s for s in thinker.screened(planned) if s.strikes or s.foreseen is not None]
