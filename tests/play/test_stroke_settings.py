"""The stroke being set up belongs to the player at the table and to the shot to come:
nothing asked for while a shot is in flight or playing out changes it, and when the turn
passes the incoming player finds their own last power, not the other's."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from rules import Declaration, Player
from sim.physics.simulators.inprocess import InProcessSimulator
from sim.physics.table import TableSize
from sim.play.table.controller import TableController
from sim.play.table.lag import LAG_POWER, SOFTER_B
from sim.play.table.turn import DEFAULT_POWER, Stage
from tests.play.test_controller import Clock, new_controller, run_until, worker  # noqa: F401

pytestmark = pytest.mark.physics


def shoot_a_safety(controller: TableController, clock: Clock, power: float) -> None:
    """The shooter plays a declared safety at the lowest ball with ``power`` (on the
    break, just the break): the turn passes (TB-13) whatever drops."""
    state = controller.state
    assert state is not None and state.lowest is not None
    if controller.stage is Stage.PLACE:
        controller.confirm_placement()
    controller.aim_at(state.balls[state.lowest])
    controller.set_power(power)
    if controller.can_declare(Declaration.SAFETY):
        controller.declare(Declaration.SAFETY)
    controller.strike()
    run_until(controller, clock, {Stage.AIM, Stage.PLACE, Stage.CHOOSE})
    while controller.stage is Stage.CHOOSE:  # a foul's option: play on from there
        assert controller.state is not None and controller.state.pending is not None
        controller.choose(controller.state.pending.choices[0])


def test_nothing_asked_during_a_shot_changes_the_next_stroke(
    worker: InProcessSimulator,  # noqa: F811
    tmp_path: Path,
) -> None:
    controller, clock = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    controller.confirm_placement()
    controller.set_power(0.8)
    controller.strike()
    assert controller.stage is Stage.SIMULATING
    before = attrs.evolve(controller.aim)
    for busy in (Stage.SIMULATING, Stage.WATCH):
        run_until(controller, clock, {busy})
        controller.set_power(0.2)
        controller.turn(30.0)
        controller.set_direction(10.0)
        controller.set_tip(0.3, -0.3)
        controller.set_elevation(20.0)
        controller.declare(Declaration.SAFETY)
        controller.call_shot("1", "lt")
        assert controller.aim == before, busy
        assert controller.declaration is None and controller.call is None, busy


def test_each_player_finds_their_own_power(
    worker: InProcessSimulator,  # noqa: F811
    tmp_path: Path,
) -> None:
    controller, clock = new_controller(worker, tmp_path)
    controller.lag.skip(Player.A)
    assert controller.aim.power == 0.9  # a break
    shoot_a_safety(controller, clock, 0.9)
    # The break's power is nobody's: the first player after it starts from the default.
    first = controller.shooter
    assert controller.aim.power == DEFAULT_POWER
    shoot_a_safety(controller, clock, 0.7)
    assert controller.shooter is not first
    assert controller.aim.power == DEFAULT_POWER  # not the 0.7 the other one used
    shoot_a_safety(controller, clock, 0.3)
    assert controller.shooter is first and controller.aim.power == 0.7
    shoot_a_safety(controller, clock, 0.7)
    assert controller.shooter is not first and controller.aim.power == 0.3


def test_each_player_lags_with_their_own_power(
    worker: InProcessSimulator,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A's lag power is A's: B's lag starts from B's own (the default the first time),
    and a lag played again gives each their last one back."""
    controller, clock = new_controller(worker, tmp_path, game="rotation")
    assert controller.stage is Stage.LAG and controller.shooter is Player.A
    controller.set_power(0.31)
    controller.strike()  # A's lag
    assert controller.shooter is Player.B
    assert controller.aim.power == pytest.approx(LAG_POWER[TableSize.NINE_FOOT] - SOFTER_B)
    controller.set_power(0.31)  # the same stroke: the lag is a tie, played again
    controller.strike()
    run_until(controller, clock, {Stage.LAG, Stage.BREAKER})
    assert controller.stage is Stage.LAG  # mirrored strokes tie (GEN-2): lagged again
    assert controller.shooter is Player.A and controller.aim.power == pytest.approx(0.31)
    controller.set_power(0.5)
    controller.strike()
    assert controller.aim.power == pytest.approx(0.31)  # B's own, not A's 0.5
